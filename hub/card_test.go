package hub_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/hub"
	"go.yaml.in/yaml/v3"
)

// frontMatter splits README.md into its YAML block and body.
func frontMatter(t *testing.T, card []byte) (map[string]any, string) {
	t.Helper()
	s := string(card)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("card does not start with front matter:\n%s", s)
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		t.Fatalf("front matter not closed:\n%s", s)
	}
	var meta map[string]any
	if err := yaml.Unmarshal([]byte(s[4:4+end+1]), &meta); err != nil {
		t.Fatalf("front matter is not valid YAML: %v", err)
	}
	return meta, s[4+end+5:]
}

var exportColumns = []hub.Column{
	{"doc_id", "string", "stable id: sha256 of WARC-Record-ID"},
	{"url", "string", "page URL | as crawled"},
	{"markdown", "string", "extracted Markdown"},
	{"simhash", "uint64", "64-bit simhash of the Markdown"},
}

func TestRenderCard(t *testing.T) {
	totals := hub.Totals{
		Rows: 123_456, Shards: 7, ParquetBytes: 9_876_543, DigestDropped: 321,
		Languages: map[string]int64{"de": 80_000, "en": 40_000, "eng": 3_000, "und": 456},
	}
	card := hub.RenderCard(hub.CardData{
		Repo: "open-markdown/cc-2026-30", Schema: "open-markdown-v3", Crawls: []string{"CC-MAIN-2026-30"},
		Columns: exportColumns, Extractor: "trafilatura", ToolVersion: "v0.3.0",
		Filters: []string{"language=de,en", "min-markdown=200"}, Totals: totals,
	})
	meta, body := frontMatter(t, card)

	// Totals round-trip exactly through the machine-readable block.
	raw, err := yaml.Marshal(meta["ccrawl_totals"])
	if err != nil {
		t.Fatal(err)
	}
	var back hub.Totals
	if err := yaml.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, totals) {
		t.Errorf("ccrawl_totals = %+v, want %+v", back, totals)
	}

	checks := []struct {
		key  string
		want any
	}{
		{"license", "other"},
		{"license_link", hub.TermsURL},
		{"pretty_name", "cc-2026-30"},
		{"size_categories", []any{"100K<n<1M"}},
		{"task_categories", []any{"text-generation"}},
		// eng folds into en (43,000 rows), und is dropped.
		{"language", []any{"de", "en"}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(meta[c.key], c.want) {
			t.Errorf("%s = %#v, want %#v", c.key, meta[c.key], c.want)
		}
	}
	configs, _ := meta["configs"].([]any)
	if len(configs) != 1 {
		t.Fatalf("configs = %#v", meta["configs"])
	}
	df := configs[0].(map[string]any)["data_files"].([]any)[0].(map[string]any)
	if df["path"] != "data/crawl=*/*.parquet" || df["split"] != "train" {
		t.Errorf("data_files = %#v", df)
	}

	for _, want := range []string{
		"| `url` | string | page URL \\| as crawled |", // pipes escaped inside cells
		"| `simhash` | uint64 |",
		`load_dataset("open-markdown/cc-2026-30"`,
		"hf://datasets/open-markdown/cc-2026-30/data/crawl=*/*.parquet",
		"https://commoncrawl.org/terms-of-use",
		"| Rows | 123,456 |",
		"| Dropped as exact duplicates (digest) | 321 |",
		"language=de,en; min-markdown=200",
		"`trafilatura`", "v0.3.0", "CC-MAIN-2026-30",
		"| de | 80,000 | 64.80% |",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("card body lacks %q", want)
		}
	}
	// Deterministic: the same input renders the same bytes, so an
	// unchanged card is skipped by the content-hash check.
	if again := hub.RenderCard(hub.CardData{
		Repo: "open-markdown/cc-2026-30", Schema: "open-markdown-v3", Crawls: []string{"CC-MAIN-2026-30"},
		Columns: exportColumns, Extractor: "trafilatura", ToolVersion: "v0.3.0",
		Filters: []string{"language=de,en", "min-markdown=200"}, Totals: totals,
	}); !bytes.Equal(again, card) {
		t.Error("RenderCard is not deterministic")
	}
}

func TestRenderCardEmptyAndHostileInput(t *testing.T) {
	for _, cd := range []hub.CardData{
		{Repo: "a/b"},
		{Repo: "a/b", PrettyName: "x: y\n---\nlicense: mit", Filters: []string{"a|b\nc"},
			Totals: hub.Totals{Languages: map[string]int64{"": 1, "zh-Hant": 2, "xx-yy-zz": 3, "ZZZZ": 4}}},
	} {
		meta, _ := frontMatter(t, hub.RenderCard(cd))
		if meta["license"] != "other" {
			t.Errorf("%q: license = %v; front matter was corrupted", cd.PrettyName, meta["license"])
		}
		if cd.PrettyName != "" && meta["pretty_name"] != cd.PrettyName {
			t.Errorf("pretty_name = %q, want %q", meta["pretty_name"], cd.PrettyName)
		}
	}
}

func TestLanguageTags(t *testing.T) {
	tests := []struct {
		mix  map[string]int64
		want []string
	}{
		{nil, nil},
		{map[string]int64{"und": 5}, nil},
		{map[string]int64{"deu": 1, "de": 1, "fr": 5}, []string{"fr", "de"}},
		{map[string]int64{"zh-Hant": 3, "yue": 2, "EN": 1}, []string{"zh", "yue", "en"}},
		{map[string]int64{"x1": 9, "toolong": 9}, nil},
	}
	for _, tt := range tests {
		if got := hub.LanguageTags(tt.mix); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("LanguageTags(%v) = %v, want %v", tt.mix, got, tt.want)
		}
	}
}

func TestSizeCategory(t *testing.T) {
	tests := []struct {
		rows int64
		want string
	}{
		{0, "n<1K"}, {999, "n<1K"}, {1000, "1K<n<10K"}, {99_999, "10K<n<100K"},
		{100_000, "100K<n<1M"}, {5_000_000, "1M<n<10M"}, {10_000_000, "10M<n<100M"},
		{999_999_999, "100M<n<1B"}, {1_000_000_000, "1B<n<10B"}, {2_000_000_000_000, "n>1T"},
	}
	for _, tt := range tests {
		if got := hub.SizeCategory(tt.rows); got != tt.want {
			t.Errorf("SizeCategory(%d) = %q, want %q", tt.rows, got, tt.want)
		}
	}
}

func TestFolderWarning(t *testing.T) {
	if w := hub.FolderWarning(hub.MaxFilesPerFolder, "data/crawl=X"); w != "" {
		t.Errorf("at the limit: %q", w)
	}
	w := hub.FolderWarning(hub.MaxFilesPerFolder+1, "data/crawl=X")
	for _, want := range []string{"data/crawl=X", "10001", "10000", "larger shards", "crawl=", "--commit-batch"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if strings.Contains(w, "\n") {
		t.Errorf("warning is not one line: %q", w)
	}
}
