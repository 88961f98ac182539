// Command langid measures package lang against whatlanggo on lingua's test
// data (../shared/langid/lingua-testdata): accuracy per language and overall
// on the sentence, word-pair and single-word sets, precision/recall at the
// 0.8 confidence floor, Vietnamese precision/recall, and single-core
// throughput on 2 KB documents. whatlanggo is imported here only, so the
// shipped packages never link it.
//
// Usage: go run ./bench/langid [-data DIR] [-per-lang] [-docs N]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/abadojack/whatlanggo"
	"github.com/open-markdown/ccrawl/lang"
)

// linguaTo3 maps the test files' ISO 639-1 names to the ISO 639-3 codes
// package lang reports.
var linguaTo3 = map[string]string{
	"af": "afr", "ar": "ara", "az": "aze", "be": "bel", "bg": "bul", "bn": "ben", "bs": "bos", "ca": "cat",
	"cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell", "en": "eng", "eo": "epo", "es": "spa",
	"et": "est", "eu": "eus", "fa": "fas", "fi": "fin", "fr": "fra", "ga": "gle", "gu": "guj", "he": "heb",
	"hi": "hin", "hr": "hrv", "hu": "hun", "hy": "hye", "id": "ind", "is": "isl", "it": "ita", "ja": "jpn",
	"ka": "kat", "kk": "kaz", "ko": "kor", "la": "lat", "lg": "lug", "lt": "lit", "lv": "lav", "mi": "mri",
	"mk": "mkd", "mn": "mon", "mr": "mar", "ms": "msa", "nb": "nob", "nl": "nld", "nn": "nno", "pa": "pan",
	"pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sn": "sna", "so": "som",
	"sq": "sqi", "sr": "srp", "st": "sot", "sv": "swe", "sw": "swa", "ta": "tam", "te": "tel", "th": "tha",
	"tl": "tgl", "tn": "tsn", "tr": "tur", "ts": "tso", "uk": "ukr", "ur": "urd", "vi": "vie", "xh": "xho",
	"yo": "yor", "zh": "zho", "zu": "zul",
}

// whatlanggo uses individual-language codes where lang uses macrolanguages.
var whatTo3 = map[string]string{"arb": "ara", "cmn": "zho", "pes": "fas", "azj": "aze"}

type identifier struct {
	name   string
	detect func(string) (string, float64)
}

var identifiers = []identifier{
	{"ccrawl lang", func(s string) (string, float64) { r := lang.Detect(s); return r.Code, r.Confidence }},
	{"whatlanggo v1.0.1", func(s string) (string, float64) {
		info := whatlanggo.Detect(s)
		c := info.Lang.Iso6393()
		if m, ok := whatTo3[c]; ok {
			c = m
		}
		return c, info.Confidence
	}},
}

type item struct{ want, text string }

func main() {
	data := flag.String("data", "", "lingua test data directory (default: find ../shared/langid/lingua-testdata above the module)")
	perLang := flag.Bool("per-lang", false, "print accuracy per language")
	confusions := flag.Int("confusions", 0, "print the N commonest confusions on sentences (with how many were at confidence ≥ 0.8)")
	docs := flag.Int("docs", 3000, "2 KB documents per identifier for the throughput run")
	baseline := flag.Bool("baseline", true, "also measure whatlanggo (the speed column is relative to it)")
	set := flag.String("langs", "whatlanggo", "evaluation languages: whatlanggo (the test languages whatlanggo supports) or ccrawl (all lang.Supported)")
	flag.Parse()
	if *data == "" {
		*data = findData()
	}
	if _, err := os.Stat(filepath.Join(*data, "sentences")); err != nil {
		fmt.Fprintln(os.Stderr, "langid: no test data:", err, "(pass -data DIR)")
		os.Exit(1)
	}
	if !*baseline {
		identifiers = identifiers[:1]
	}
	langs := evalLangs(*set)
	fmt.Printf("languages evaluated: %d (%s)\n", len(langs), *set)
	lang.Detect("warm up the model before timing anything")

	type row struct {
		acc        [3]float64
		p, r       float64
		viP, viR   float64
		linesPerS  float64
		mbPerS     float64
		docsPerS   float64
		docsMBPerS float64
	}
	rows := make([]row, len(identifiers))
	sets := []string{"sentences", "word-pairs", "single-words"}
	for si, setName := range sets {
		items := load(*data, setName, langs)
		for ii, id := range identifiers {
			correct := 0
			perOK := map[string]int{}
			perN := map[string]int{}
			confident, confidentOK := 0, 0
			viPred, viOK, viN := 0, 0, 0
			bytes := 0
			type pair struct{ want, got string }
			conf := map[pair][2]int{}
			start := time.Now()
			for _, it := range items {
				code, cf := id.detect(it.text)
				bytes += len(it.text)
				perN[it.want]++
				if code == it.want {
					correct++
					perOK[it.want]++
				}
				if code != it.want {
					c := conf[pair{it.want, code}]
					c[0]++
					if cf >= 0.8 {
						c[1]++
					}
					conf[pair{it.want, code}] = c
				}
				if cf >= 0.8 && code != "" {
					confident++
					if code == it.want {
						confidentOK++
					}
				}
				if code == "vie" {
					viPred++
					if it.want == "vie" {
						viOK++
					}
				}
				if it.want == "vie" {
					viN++
				}
			}
			el := time.Since(start).Seconds()
			rows[ii].acc[si] = pct(correct, len(items))
			if si == 0 {
				rows[ii].p = pct(confidentOK, confident)
				rows[ii].r = pct(confidentOK, len(items))
				rows[ii].viP = pct(viOK, viPred)
				rows[ii].viR = pct(viOK, viN)
				rows[ii].linesPerS = float64(len(items)) / el
				rows[ii].mbPerS = float64(bytes) / el / 1e6
			}
			if *confusions > 0 && si == 0 {
				ps := make([]pair, 0, len(conf))
				for p := range conf {
					ps = append(ps, p)
				}
				sort.Slice(ps, func(i, j int) bool {
					if conf[ps[i]][0] != conf[ps[j]][0] {
						return conf[ps[i]][0] > conf[ps[j]][0]
					}
					return ps[i].want+ps[i].got < ps[j].want+ps[j].got
				})
				fmt.Printf("\n%s: commonest confusions on sentences (want -> got: all / at ≥ 0.8)\n", id.name)
				for i, p := range ps {
					if i == *confusions {
						break
					}
					fmt.Printf("  %s -> %s: %d / %d\n", p.want, p.got, conf[p][0], conf[p][1])
				}
			}
			if *perLang {
				fmt.Printf("\n%s, %s: per-language accuracy\n", id.name, setName)
				keys := make([]string, 0, len(perN))
				for k := range perN {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for i, k := range keys {
					fmt.Printf("  %s %5.1f", k, pct(perOK[k], perN[k]))
					if i%8 == 7 {
						fmt.Println()
					}
				}
				fmt.Println()
			}
		}
	}
	documents := makeDocs(*data, langs, 2048)
	for ii, id := range identifiers {
		n, bytes := 0, 0
		runtime.GC()
		start := time.Now()
		for n < *docs {
			d := documents[n%len(documents)]
			id.detect(d)
			bytes += len(d)
			n++
		}
		el := time.Since(start).Seconds()
		rows[ii].docsPerS = float64(n) / el
		rows[ii].docsMBPerS = float64(bytes) / el / 1e6
	}
	base := rows[len(rows)-1].docsPerS
	fmt.Printf("\n| identifier | sentences | word pairs | single words | P / R at 0.8 | vie P / R | lines/s | MB/s | 2 KB docs/s | speed vs whatlanggo |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|---|\n")
	for i, id := range identifiers {
		r := rows[i]
		fmt.Printf("| %s | %.1f | %.1f | %.1f | %.1f / %.1f | %.1f / %.1f | %.0f | %.2f | %.0f (%.2f MB/s) | %.2f |\n",
			id.name, r.acc[0], r.acc[1], r.acc[2], r.p, r.r, r.viP, r.viR, r.linesPerS, r.mbPerS, r.docsPerS, r.docsMBPerS, r.docsPerS/base)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("\nGo heap in use after the run: %.0f MiB (sys %.0f MiB)\n", float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20))
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func evalLangs(set string) []string {
	var out []string
	what := map[string]bool{}
	for l := range whatlanggo.Langs {
		c := l.Iso6393()
		if m, ok := whatTo3[c]; ok {
			c = m
		}
		what[c] = true
	}
	for l1, l3 := range linguaTo3 {
		switch set {
		case "whatlanggo":
			if what[l3] {
				out = append(out, l1)
			}
		default:
			if lang.IsSupported(l3) {
				out = append(out, l1)
			}
		}
	}
	sort.Strings(out)
	return out
}

func load(dir, set string, langs []string) []item {
	var items []item
	for _, l := range langs {
		f, err := os.Open(filepath.Join(dir, set, l+".txt"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "langid:", err)
			os.Exit(1)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if t := strings.TrimSpace(sc.Text()); t != "" {
				items = append(items, item{linguaTo3[l], t})
			}
		}
		f.Close()
	}
	return items
}

// makeDocs concatenates sentences of one language into documents of at
// least size bytes, the shape of a short extracted web page.
func makeDocs(dir string, langs []string, size int) []string {
	var docs []string
	for _, l := range langs {
		items := load(dir, "sentences", []string{l})
		var b strings.Builder
		for _, it := range items {
			b.WriteString(it.text)
			b.WriteByte(' ')
			if b.Len() >= size {
				docs = append(docs, b.String())
				b.Reset()
			}
		}
	}
	return docs
}

func findData() string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "langid", "lingua-testdata")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
