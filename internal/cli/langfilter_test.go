package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/internal/testutil"
)

func TestExportLanguageColumnsAndFilter(t *testing.T) {
	_, all, _ := exportSmall(t)
	counts := map[string]int{}
	for _, r := range all {
		if r.Language == "" && r.LanguageConfidence != 0 {
			t.Errorf("%s: empty language with confidence %v", r.URL, r.LanguageConfidence)
		}
		if r.Language != "" && (r.LanguageConfidence <= 0 || r.LanguageConfidence > 1) {
			t.Errorf("%s: %s confidence %v", r.URL, r.Language, r.LanguageConfidence)
		}
		counts[r.Language]++
	}
	if counts["deu"] == 0 || counts["eng"] == 0 {
		t.Fatalf("language mix %v: the corpus is mostly German and English", counts)
	}

	_, kept, stdout := exportSmall(t, "--lang", "eng")
	for _, r := range kept {
		if r.Language != "eng" || r.LanguageConfidence < 0.8 {
			t.Errorf("%s: %s %.3f passed --lang eng", r.URL, r.Language, r.LanguageConfidence)
		}
	}
	want := fmt.Sprintf("language: --lang eng kept %d of %d documents, dropped %d (", len(kept), len(all), len(all)-len(kept))
	if !strings.Contains(stdout, want) {
		t.Errorf("want %q in:\n%s", want, stdout)
	}
	if !strings.Contains(stdout, fmt.Sprintf("| %d rows |", len(kept))) {
		t.Errorf("summary rows != file rows %d:\n%s", len(kept), stdout)
	}
	if !strings.Contains(stdout, "language: detected deu=") {
		t.Errorf("no detected line:\n%s", stdout)
	}
}

func TestExportUnknownLangBeforeAnyWork(t *testing.T) {
	in := testutil.Shared(t, "corpus/small.warc.gz")
	out := t.TempDir()
	_, stderr, code := runCLI(t, "markdown", "export", in, "--out", out, "--lang", "xxx")
	if code != 2 || !strings.Contains(stderr, "vie") || !strings.Contains(stderr, "eng") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := rowsUnder(t, out); n != 0 {
		t.Errorf("%d rows written", n)
	}
}
