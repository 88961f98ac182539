package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runMain(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestLangDetectLines(t *testing.T) {
	in := "Hà Nội là thủ đô của nước Cộng hòa xã hội chủ nghĩa Việt Nam.\n" +
		"Die Bundesregierung hat am Mittwoch einen Gesetzentwurf beschlossen.\n" +
		"ok\n" +
		"\n" +
		"Правительство утвердило новую программу развития транспорта.\n"
	code, out, errOut := runMain(t, in, "lang", "detect")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{"vie", "deu", "", "", "rus"}
	inLines := strings.Split(strings.TrimSuffix(in, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, l := range lines {
		f := strings.SplitN(l, "\t", 3)
		if len(f) != 3 || f[0] != want[i] || f[2] != inLines[i] {
			t.Errorf("line %d = %q, want code %q and text %q", i, l, want[i], inLines[i])
		}
		if want[i] == "" && f[1] != "0.0000" {
			t.Errorf("line %d: empty code with confidence %s", i, f[1])
		}
	}
}

func TestLangDetectOrderAndJSONL(t *testing.T) {
	// Many batches across several workers: output must follow input.
	texts := []struct{ code, text string }{
		{"eng", "The committee will publish its final report next spring, %d members said."},
		{"fra", "Le conseil municipal a voté mardi soir la construction de %d logements."},
		{"pol", "Rada miasta zatwierdziła wczoraj budżet na remont %d ulic w centrum."},
	}
	var in strings.Builder
	n := 3000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&in, texts[i%3].text+"\n", i)
	}
	code, out, errOut := runMain(t, in.String(), "lang", "detect", "-o", "jsonl", "--workers", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("got %d lines, want %d", len(lines), n)
	}
	for i, l := range lines {
		var rec struct {
			Language   string  `json:"language"`
			Confidence float64 `json:"confidence"`
			Text       string  `json:"text"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, l)
		}
		if wantText := fmt.Sprintf(texts[i%3].text, i); rec.Text != wantText || rec.Language != texts[i%3].code {
			t.Fatalf("line %d = %+v, want %s %q", i, rec, texts[i%3].code, wantText)
		}
	}
}

func TestLangDetectWholeAndMinConfidence(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "page.md")
	md := "# Nachrichten\n\n[Die Stadt erneuert die alte Brücke über den Fluss](https://example.com/the-city-renews-the-old-bridge-over-the-river)\n\nDer Umbau soll im Frühjahr beginnen und zwei Jahre dauern.\n"
	if err := os.WriteFile(page, []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runMain(t, "", "lang", "detect", "--whole", "--markdown", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "deu\t") || !strings.HasSuffix(out, "\t"+page+"\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("--whole output = %q", out)
	}
	// A two-word line is identified with low confidence; the floor blanks it.
	code, out, _ = runMain(t, "casa grande\n", "lang", "detect", "--min-confidence", "0.9999")
	if code != 0 || !strings.HasPrefix(out, "\t") {
		t.Errorf("--min-confidence: exit %d, output %q, want an empty label", code, out)
	}
}

func TestLangDetectErrors(t *testing.T) {
	tests := []struct {
		args []string
		exit int
	}{
		{[]string{"lang", "detect", "-o", "xml"}, 2},
		{[]string{"lang", "detect", "--min-confidence", "1.5"}, 2},
		{[]string{"lang", "detect", "--workers", "0"}, 2},
		{[]string{"lang", "detect", "--bogus"}, 2},
		{[]string{"lang", "detect", filepath.Join(t.TempDir(), "missing.txt")}, 1},
	}
	for _, tt := range tests {
		code, _, errOut := runMain(t, "", tt.args...)
		if code != tt.exit {
			t.Errorf("%v: exit %d, want %d (%s)", tt.args, code, tt.exit, errOut)
		}
		if strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: want a one-line error, got %q", tt.args, errOut)
		}
	}
}
