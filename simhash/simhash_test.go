package simhash

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"html"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// Known answers pin the algorithm: a change that moves any of these prints
// makes every stored simhash column incomparable with new ones, so it must
// come with a new Version.
func TestKnownAnswers(t *testing.T) {
	if Version != "ccrawl-simhash/1" {
		t.Fatalf("Version changed to %q: update the known answers below deliberately", Version)
	}
	tests := []struct {
		in   string
		want uint64
	}{
		{"", 0x0000000000000000},
		{"word", 0xdb8912b72ef1b128},
		{"two words", 0xb35d5e20d6fa6430},
		{"The quick brown fox jumps over the lazy dog.", 0x74b8f476d7af5270},
		{"# Heading\n\nSome **bold** text with a [link](https://example.com/a?sid=42) and 2024-05-06.\n", 0xb1b1c2ae150d1642},
		{"東京は日本の首都です。人口は約千四百万人。", 0x39b699a2a3209d93},
		{"Ünïcödé wörds, façade; naïve café — déjà vu.", 0x5fbfefa5afb1b536},
	}
	for _, tt := range tests {
		if got := Fingerprint(tt.in); got != tt.want {
			t.Errorf("Fingerprint(%q) = %#016x, want %#016x", tt.in, got, tt.want)
		}
	}
}

// reference is a slow, direct implementation of the documented algorithm:
// strip link targets and URLs, split into tokens, hash, collect the set of
// shingles, count every bit. Fingerprint must agree with it exactly.
var (
	refLinkTarget = regexp.MustCompile(`\](?:\((?:[^()\n]|\([^()\n]*\))*\))`)
	refAutolink   = regexp.MustCompile(`<[A-Za-z]+:[^ \t\n<>]*>`)
	refBareURL    = regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}\p{Mn}])https?://[^ \n\t\r)\]>"'<]*`)
)

func reference(s string) uint64 {
	s = refLinkTarget.ReplaceAllString(s, "] ")
	s = refAutolink.ReplaceAllString(s, " ")
	s = refBareURL.ReplaceAllString(s, "$1 ")
	var toks []uint64
	var cur []rune
	flush := func() {
		if len(cur) == 0 {
			return
		}
		h := uint64(fnvOffset)
		num := true
		for _, r := range cur {
			h = (h ^ uint64(r)) * fnvPrime
			num = num && r >= '0' && r <= '9'
		}
		if num {
			h = numberToken
		}
		toks = append(toks, h)
		cur = cur[:0]
	}
	for _, r := range s {
		switch {
		case isCJK(r):
			flush()
			toks = append(toks, (fnvOffset^uint64(r))*fnvPrime)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if r < 128 {
				r = unicode.ToLower(r)
			} else if unicode.IsLetter(r) || unicode.IsDigit(r) {
				r = unicode.ToLower(r)
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	switch {
	case len(toks) == 0:
		return 0
	case len(toks) < 3:
		var a, b uint64
		if len(toks) == 1 {
			b = toks[0]
		} else {
			a, b = toks[0], toks[1]
		}
		return nonZero(mix64(a*0x9e3779b97f4a7c15 ^ bits.RotateLeft64(b, 21)))
	}
	set := map[uint64]bool{}
	for i := 2; i < len(toks); i++ {
		set[shingle(toks[i-2], toks[i-1], toks[i])] = true
	}
	var out uint64
	for k := range 64 {
		ones := 0
		for h := range set {
			ones += int(h >> k & 1)
		}
		if 2*ones > len(set) {
			out |= 1 << k
		}
	}
	return nonZero(out)
}

func nonZero(x uint64) uint64 {
	if x == 0 {
		return 1
	}
	return x
}

func TestMatchesReference(t *testing.T) {
	inputs := []string{
		"", "a", "a b", "a b c", "A, b; C!", "x x x x x x x x",
		"Hello **world** and _friends_, see [the docs](http://x.example/a(b)?sid=1) or <https://y.example/z>.",
		"Bare link https://example.com/?PHPSESSID=abc123 in prose, then more words follow here.",
		"Prices: 12.50 EUR, 1999 USD; call 0800-123-456 today.",
		"中文文本没有空格，每个汉字都是一个词。カタカナとひらがな。한국어 텍스트.",
		"Décomposé: cafe\u0301 vs café; ΑΘΗΝΑ Αθήνα; Москва МОСКВА.",
		strings.Repeat("spam spam eggs ", 200) + "and a little ham at the end",
	}
	inputs = append(inputs, corpusTexts(t, 60)...)
	for _, in := range inputs {
		if got, want := Fingerprint(in), reference(in); got != want {
			t.Errorf("Fingerprint = %#016x, reference = %#016x for %.80q", got, want, in)
		}
	}
}

func TestProperties(t *testing.T) {
	body := "Near duplicate detection compares documents by the set of their overlapping word shingles rather than by exact bytes."
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"emphasis markup vanishes", "**Near** duplicate _detection_ compares `documents`", "Near duplicate detection compares documents", true},
		{"headings and lists vanish", "# Title\n\n- one two\n- three", "Title one two three", true},
		{"link target ignored", "see [the page](https://a.example/x?sid=1) now", "see [the page](https://b.example/y?sid=2) now", true},
		{"image source ignored", "![a cat](cat.png) sits here", "![a cat](https://cdn.example/cat-2.png) sits here", true},
		{"autolink ignored", "mail <mailto:a@b.example> or visit us", "mail <mailto:c@d.example> or visit us", true},
		{"bare URL ignored", "go to http://x.example/?s=1 today please", "go to https://x.example/?s=2 today please", true},
		{"case folded", "HELLO World Again", "hello world again", true},
		{"numbers are one token", "updated on 2024 05 06 by staff", "updated on 2025 11 30 by staff", true},
		{"repeats vote once", body + strings.Repeat(" buy cheap now", 2000), body + strings.Repeat(" buy cheap now", 3), true},
		{"word change moves print", body, strings.Replace(body, "documents", "pictures", 1), false},
		{"CJK runes are tokens", "東京は日本の首都", "大阪は日本の都市", false},
		{"word order matters", "alpha beta gamma delta", "delta gamma beta alpha", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fa, fb := Fingerprint(tt.a), Fingerprint(tt.b)
			if (fa == fb) != tt.same {
				t.Errorf("Fingerprint(a)=%#016x Fingerprint(b)=%#016x, want same=%v", fa, fb, tt.same)
			}
		})
	}
	for _, s := range []string{"", "   ", "**", "---\n***\n", "[](http://x.example/only-a-link)", "https://only.example/url"} {
		if f := Fingerprint(s); f != 0 {
			t.Errorf("Fingerprint(%q) = %#x, want 0 (no tokens)", s, f)
		}
	}
	for _, s := range []string{"a", "ab cd", "東"} {
		if Fingerprint(s) == 0 {
			t.Errorf("Fingerprint(%q) = 0, want a print for short text", s)
		}
	}
}

// Real pages: 50 concurrent repeats give identical prints; near-duplicate
// captures named by the corpus truth file land much closer than unrelated
// pages.
func TestCorpusDeterministicAndNear(t *testing.T) {
	pages := corpusPages(t)
	want := make(map[string]uint64, len(pages))
	for id, p := range pages {
		want[id] = Fingerprint(p.text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 1)
	for range 50 {
		wg.Go(func() {
			for id, p := range pages {
				if got := Fingerprint(p.text); got != want[id] {
					select {
					case errs <- id:
					default:
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if id, ok := <-errs; ok {
		t.Fatalf("Fingerprint of %s changed between repeats", id)
	}

	var near, far []int
	var ids []string
	for id := range pages {
		ids = append(ids, id)
	}
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			pa, pb := pages[a], pages[b]
			if len(pa.text) < 2000 || len(pb.text) < 2000 {
				continue
			}
			d := bits.OnesCount64(want[a] ^ want[b])
			switch {
			case pa.near != "" && pa.near == pb.near && (pb.variation == "session" || pa.variation == "session"):
				// Session ids live in link targets and URLs, which are not
				// text; reencoded variants need charset decoding this crude
				// tag stripper does not do.
				near = append(near, d)
				if d > 3 {
					t.Logf("%s/%s", pa.variation, pb.variation)
				}
			case pa.near == "" && pb.near == "" && pa.exact == "" && pb.exact == "":
				far = append(far, d)
			}
		}
	}
	if len(near) == 0 || len(far) == 0 {
		t.Fatalf("corpus gave %d near and %d unrelated pairs; expected both", len(near), len(far))
	}
	for _, d := range near {
		if d > 3 {
			t.Errorf("session variant at distance %d, want <= 3", d)
		}
	}
	sum := 0
	for _, d := range far {
		sum += d
		if d <= 3 {
			t.Errorf("unrelated pages at distance %d", d)
		}
	}
	if mean := float64(sum) / float64(len(far)); mean < 24 || mean > 40 {
		t.Errorf("unrelated pages at mean distance %.1f, want about 32", mean)
	}
}

func FuzzFingerprint(f *testing.F) {
	f.Add("Hello **world** [x](http://y) 2024")
	f.Add("東京は日本の首都です")
	f.Add("](((\n<a:b> http://")
	f.Fuzz(func(t *testing.T, s string) {
		a := Fingerprint(s)
		if b := Fingerprint(s); a != b {
			t.Fatalf("not deterministic: %#x vs %#x", a, b)
		}
		// Surrounding whitespace and emphasis never change the print.
		if b := Fingerprint(" " + s + "\n"); b != a {
			t.Fatalf("whitespace moved the print: %#x vs %#x", a, b)
		}
	})
}

func BenchmarkFingerprint(b *testing.B) {
	texts := corpusTexts(b, 0)
	total := 0
	for _, s := range texts {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, s := range texts {
			Fingerprint(s)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(total)*float64(b.N)/sec/1e6, "MB/s")
	b.ReportMetric(float64(len(texts))*float64(b.N)/sec, "pages/s")
}

// --- corpus helpers ---

type page struct {
	text, near, variation, exact string
}

func sharedDir(tb testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	shared := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(shared); err != nil {
		tb.Skip("../shared/corpus not present; skipping corpus test")
	}
	return shared
}

var (
	reScript = regexp.MustCompile(`(?is)<(script|style|noscript)\b.*?</(script|style|noscript)>`)
	reTag    = regexp.MustCompile(`(?s)<[^>]*>`)
)

// corpusPages reads the small corpus WARC and returns the visible text of
// every HTML response, keyed by record id, with its truth labels.
func corpusPages(tb testing.TB) map[string]page {
	dir := sharedDir(tb)
	path := filepath.Join(dir, "small.warc.gz")
	var truth struct {
		Captures []struct {
			RecordID   string `json:"record_id"`
			Kind       string `json:"kind"`
			NearGroup  string `json:"near_group"`
			NearVar    string `json:"near_variation"`
			ExactGroup string `json:"exact_group"`
		} `json:"captures"`
	}
	tj, err := os.ReadFile(path + ".truth.json")
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(tj, &truth); err != nil {
		tb.Fatal(err)
	}
	labels := map[string]page{}
	for _, c := range truth.Captures {
		if c.Kind == "html" {
			labels[c.RecordID] = page{near: c.NearGroup, variation: c.NearVar, exact: c.ExactGroup}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	br := bufio.NewReader(gz)
	out := map[string]page{}
	for {
		line, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if !strings.HasPrefix(line, "WARC/") {
			continue
		}
		hdr := map[string]string{}
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				tb.Fatal(err)
			}
			l = strings.TrimRight(l, "\r\n")
			if l == "" {
				break
			}
			k, v, _ := strings.Cut(l, ":")
			hdr[strings.ToLower(k)] = strings.TrimSpace(v)
		}
		n, err := strconv.Atoi(hdr["content-length"])
		if err != nil {
			tb.Fatal(err)
		}
		block := make([]byte, n)
		if _, err := io.ReadFull(br, block); err != nil {
			tb.Fatal(err)
		}
		p, ok := labels[hdr["warc-record-id"]]
		if !ok || hdr["warc-type"] != "response" {
			continue
		}
		_, body, _ := strings.Cut(string(block), "\r\n\r\n")
		body = reScript.ReplaceAllString(body, " ")
		p.text = html.UnescapeString(reTag.ReplaceAllString(body, " "))
		out[hdr["warc-record-id"]] = p
	}
	if len(out) == 0 {
		tb.Fatal("no HTML pages read from the corpus")
	}
	return out
}

func corpusTexts(tb testing.TB, limit int) []string {
	var out []string
	for _, p := range corpusPages(tb) {
		out = append(out, p.text)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	return out
}
