// Package lang identifies the natural language of text: Detect returns an
// ISO 639-3 code and a calibrated confidence in [0, 1], and Sample turns a
// Markdown document into the bounded, cleaned text worth judging.
//
// Languages alone in their script (Greek, Thai, Korean, ...) are decided by
// the script; the others by a character 1–4-gram model with backoff over the
// languages of the text's dominant script (lingua's 5-grams bought 0.1 point
// of accuracy for three times the size). The n-gram statistics are
// lingua-go's (github.com/pemistahl/lingua-go v1.4.0), quantised and embedded
// at build time by internal/genmodel, so the package needs no network, no
// files and no cgo; the model is parsed once, on first use.
//
// It deliberately does not split mixed-language documents, guess dialects or
// scripts of one language (sr-Latn is not distinguished), answer Malay or
// Bosnian (see excluded), or read anything but UTF-8: mojibake and
// replacement characters lower the confidence instead of being repaired.
package lang

import (
	"math"
	"sort"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Result is one identification. Code is empty and Confidence 0 when the
// text is too short or has no letters.
type Result struct {
	Code       string  // ISO 639-3, e.g. "vie"
	Confidence float64 // calibrated: at 0.8 the label is right ≥ 99 % of the time on lingua's test sentences
}

// MinLetters is the documented minimum: fewer letters than this give an
// empty Result. A Han, kana or Hangul character counts as three, being a
// syllable or a word, so one is enough.
const MinLetters = 3

const (
	// maxScored bounds the letters fed to the n-gram scorer: past a
	// thousand letters (some 200 words) the decision no longer changes, so
	// long pages cost no more than short ones.
	maxScored = 1024
	// maxScanned bounds the bytes read for script statistics.
	maxScanned = 16 << 10

	backoffPenalty = 1.0 // nats per order backed off (stupid backoff)
	floorLogProb   = -12 // a character no candidate language has seen
)

// Calibration, chosen by measurement on lingua's test sentences (see
// bench/langid): the temperatures soften summed log-likelihoods into
// confidences so that the 0.8 floor keeps precision above 99 % while
// recall stays above 90 %.
const (
	temperature      = 3.0
	closeTemperature = 6.0 // between languages of one closeGroup
)

type scratch struct {
	runes  []rune
	starts []int // word boundaries into runes
	score  []float64
	hits   []int32
	stamp  []int32
}

var pool = sync.Pool{New: func() any {
	n := len(languages)
	return &scratch{score: make([]float64, n), hits: make([]int32, n), stamp: make([]int32, n)}
}}

// Detect identifies the language of text. It is safe for concurrent use.
func Detect(text string) Result {
	d := analyse(text)
	if d.best < 0 {
		return Result{}
	}
	return Result{Code: languages[d.best].code, Confidence: round(d.confidence())}
}

// detail is everything Detect learns about a text before it turns the
// evidence into one confidence.
type detail struct {
	best    int       // index into languages, -1 for no answer
	scores  []float64 // log-likelihood per language; only candidates are set
	cands   []int     // languages scored by n-grams; empty when the script decided
	share   float64   // fraction of letters in the winner's script
	penalty float64   // multiplier < 1 for mojibake and replacement characters
}

func analyse(text string) detail {
	none := detail{best: -1}
	md, err := getModel()
	if err != nil {
		return none
	}
	sc := pool.Get().(*scratch)
	defer pool.Put(sc)

	if len(text) > maxScanned {
		// Cut on a rune boundary so the cut itself is no replacement character.
		i := maxScanned
		for i > maxScanned-utf8.UTFMax && !utf8.RuneStart(text[i]) {
			i--
		}
		text = text[:i]
	}
	var counts [numScripts]int
	letters, weight, mojibake, replacement := 0, 0, 0, 0
	sc.runes = sc.runes[:0]
	sc.starts = sc.starts[:0]
	inWord := false
	var prev, prev2 rune
	for _, r := range text {
		// "ďż˝" is U+FFFD's UTF-8 read as Windows-1250: a character lost
		// twice over, common in Central European pages.
		if r == utf8.RuneError || r == '˝' && prev == 'ż' && prev2 == 'ď' {
			replacement++
		}
		prev2 = prev
		if isMojibakePair(prev, r) {
			mojibake++
		}
		prev = r
		if !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) {
			inWord = false
			continue
		}
		s := scriptOf(r)
		if unicode.IsLetter(r) {
			counts[s]++
			letters++
			weight++
			if s == han || s == kana || s == hangul {
				weight += 2
			}
		}
		if len(sc.runes) < maxScored {
			if !inWord {
				sc.starts = append(sc.starts, len(sc.runes))
			}
			sc.runes = append(sc.runes, unicode.ToLower(r))
		}
		inWord = true
	}
	if weight < MinLetters {
		return none
	}
	dom := otherScript
	for s := script(1); s < numScripts; s++ {
		if counts[s] > counts[dom] {
			dom = s
		}
	}
	// Japanese is written with Han plus kana; any kana means Japanese.
	domCount := counts[dom]
	if dom == han || dom == kana {
		domCount = counts[han] + counts[kana]
		dom = han
		if counts[kana] > 0 {
			dom = kana
		}
	}
	d := detail{best: -1, share: float64(domCount) / float64(letters), penalty: 1}
	if dom == han && counts[han] < 4 {
		// A few Han characters without kana may still be Japanese.
		d.share *= float64(counts[han]) / 4
	}
	if mojibake > 0 {
		// UTF-8 read as Latin-1 turns each non-ASCII letter into a pair;
		// any noticeable share of them means the bytes are not what the
		// letters claim to be.
		d.penalty *= math.Max(0, 1-10*float64(mojibake)/float64(letters))
		if mojibake >= 3 {
			d.penalty = math.Min(d.penalty, 0.5)
		}
	}
	if replacement > 0 {
		d.penalty *= math.Max(0, 1-10*float64(replacement)/float64(letters+replacement))
	}
	var cands []int
	for i, l := range languages {
		if l.script == dom && enabled[i] {
			cands = append(cands, i)
		}
	}
	switch len(cands) {
	case 0:
		return none
	case 1:
		d.best = cands[0]
	default:
		d.cands = cands
		d.scores = make([]float64, len(languages))
		d.best = sc.ngramScore(md, cands, d.scores)
	}
	return d
}

// confidence turns the evidence into a probability-like number: the
// winner's softmax share of the summed log-likelihoods, softened for
// languages so close (Malay/Indonesian, Bokmål/Nynorsk, ...) that the
// model's margins between them overstate what it knows, then scaled by the
// share of letters in the winner's script and the encoding penalty.
func (d detail) confidence() float64 {
	p := 1.0
	if len(d.cands) > 1 {
		sum := 0.0
		g := closeGroup[languages[d.best].iso1]
		for _, c := range d.cands {
			t := temperature
			if g != "" && closeGroup[languages[c].iso1] == g {
				t = closeTemperature
			}
			sum += math.Exp((d.scores[c] - d.scores[d.best]) / t)
		}
		p = 1 / sum
	}
	return p * d.share * d.penalty
}

// closeGroup names the sets of languages that lingua's statistics barely
// separate, measured as the commonest confusions on its test sentences.
var closeGroup = map[string]string{
	"nb": "nordic", "nn": "nordic", "da": "nordic",
	"cs": "czsk", "sk": "czsk",
	"ca": "ibero", "es": "ibero",
	"zu": "nguni", "xh": "nguni",
	"hi": "deva", "mr": "deva",
	"af": "dutch", "nl": "dutch",
}

func round(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// isMojibakePair reports whether r after prev looks like a UTF-8 lead byte
// followed by a continuation byte, both decoded as Latin-1 or Windows-1252.
func isMojibakePair(prev, r rune) bool {
	if prev < 0xC2 || prev > 0xF4 {
		return false
	}
	if r >= 0x80 && r <= 0xBF {
		return true
	}
	switch r {
	case '€', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', 'Ž', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', 'ž', 'Ÿ':
		return true
	}
	return false
}

// ngramScore sums, per candidate language, the log probability of every
// letter given the letters before it in the same word (up to the model's
// order), backing off to shorter contexts the language has seen. It writes
// each candidate's sum to out and returns the best (the first on a tie, so
// results are deterministic).
func (sc *scratch) ngramScore(md *model, cands []int, out []float64) int {
	for _, c := range cands {
		sc.score[c] = 0
		sc.hits[c] = 0
		sc.stamp[c] = -1
	}
	isCand := [128]bool{}
	for _, c := range cands {
		isCand[c] = true
	}
	positions := int32(0)
	rs := sc.runes
	for w, start := range sc.starts {
		end := len(rs)
		if w+1 < len(sc.starts) {
			end = sc.starts[w+1]
		}
		word := rs[start:end]
		for j := range word {
			kmax := min(md.order, j+1)
			pos := positions
			positions++
			for k := kmax; k >= 1; k-- {
				es := md.lookup(hashRunes(word[j-k+1 : j+1]))
				pen := backoffPenalty * float64(kmax-k)
				for _, e := range es {
					l := int(e >> 8)
					if !isCand[l] || sc.stamp[l] == pos {
						continue
					}
					sc.stamp[l] = pos
					sc.hits[l]++
					sc.score[l] += -float64(e&0xff)/12 - pen
				}
			}
		}
	}
	best := cands[0]
	for _, c := range cands {
		sc.score[c] += float64(positions-sc.hits[c]) * floorLogProb
		if sc.score[c] > sc.score[best] {
			best = c
		}
	}
	for _, c := range cands {
		out[c] = sc.score[c]
	}
	return best
}

// excluded are model languages Detect never answers. lingua's Malay test
// sentences are largely Indonesian and its Bosnian ones Croatian: with
// these statistics the pairs cannot be told apart, and answering both
// made hundreds of confident wrong labels (bench/langid -langs ccrawl).
// Malay text is labelled ind and Bosnian hrv instead.
var excluded = map[string]bool{"ms": true, "bs": true}

// enabled marks the languages Detect may answer.
var enabled = func() []bool {
	e := make([]bool, len(languages))
	for i, l := range languages {
		e[i] = !excluded[l.iso1]
	}
	return e
}()

// Supported returns the ISO 639-3 codes Detect can return, sorted.
func Supported() []string {
	var out []string
	for i, l := range languages {
		if enabled[i] {
			out = append(out, l.code)
		}
	}
	sort.Strings(out)
	return out
}

// IsSupported reports whether Detect can return code.
func IsSupported(code string) bool {
	for i, l := range languages {
		if l.code == code {
			return enabled[i]
		}
	}
	return false
}

// Name returns the English name of a supported code, or "" if unknown.
func Name(code string) string {
	for _, l := range languages {
		if l.code == code {
			return l.name
		}
	}
	return ""
}
