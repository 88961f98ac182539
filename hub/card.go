package hub

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxFilesPerFolder is the Hub's recommended ceiling for files in one
// folder; past it the web UI and the datasets library slow down.
const MaxFilesPerFolder = 10000

// TermsURL is Common Crawl's terms of use, which bind the published data.
const TermsURL = "https://commoncrawl.org/terms-of-use"

// Column documents one Parquet column in the card's schema table. Taking
// columns as data lets export and refetch schemas share one renderer.
type Column struct {
	Name    string
	Type    string
	Meaning string
}

// Totals are the dataset-wide sums the card reports. They are also written
// into the front matter under ccrawl_totals so tools can check them
// against the files.
type Totals struct {
	Rows          int64            `yaml:"rows" json:"rows"`
	Shards        int64            `yaml:"shards" json:"shards"`
	ParquetBytes  int64            `yaml:"parquet_bytes" json:"parquet_bytes"`
	DigestDropped int64            `yaml:"digest_dropped" json:"digest_dropped"`
	Languages     map[string]int64 `yaml:"languages" json:"languages"` // language code → rows
}

// CardData is everything RenderCard needs.
type CardData struct {
	Repo        string   // org/name
	PrettyName  string   // "" means the repo name
	Description string   // optional paragraph under the title
	Schema      string   // e.g. open-markdown-v3
	Crawls      []string // Common Crawl ids present, e.g. CC-MAIN-2026-30
	Columns     []Column
	Extractor   string   // e.g. trafilatura
	ToolVersion string   // ccrawl version
	Filters     []string // human-readable filters applied, e.g. "language=de,en"
	Totals      Totals
}

// frontMatter is the YAML metadata block. Field order is output order.
type frontMatter struct {
	PrettyName     string       `yaml:"pretty_name"`
	License        string       `yaml:"license"`
	LicenseName    string       `yaml:"license_name"`
	LicenseLink    string       `yaml:"license_link"`
	Language       []string     `yaml:"language,omitempty"`
	SizeCategories []string     `yaml:"size_categories"`
	TaskCategories []string     `yaml:"task_categories"`
	Tags           []string     `yaml:"tags"`
	Configs        []cardConfig `yaml:"configs"`
	CcrawlTotals   Totals       `yaml:"ccrawl_totals"`
}

type cardConfig struct {
	ConfigName string          `yaml:"config_name"`
	DataFiles  []cardDataFiles `yaml:"data_files"`
}

type cardDataFiles struct {
	Split string `yaml:"split"`
	Path  string `yaml:"path"`
}

// DataFilesGlob is where shards live in the repo; one folder per crawl.
const DataFilesGlob = "data/crawl=*/*.parquet"

// RenderCard renders README.md: YAML front matter the Hub reads (license,
// languages, size, configs) followed by a human description with the
// schema, totals and how to load the data.
func RenderCard(c CardData) []byte {
	name := c.PrettyName
	if name == "" {
		_, name, _ = strings.Cut(c.Repo, "/")
	}
	totals := c.Totals
	if totals.Languages == nil {
		totals.Languages = map[string]int64{}
	}
	fm := frontMatter{
		PrettyName:     name,
		License:        "other",
		LicenseName:    "common-crawl-terms-of-use",
		LicenseLink:    TermsURL,
		Language:       LanguageTags(totals.Languages),
		SizeCategories: []string{SizeCategory(totals.Rows)},
		TaskCategories: []string{"text-generation"},
		Tags:           []string{"common-crawl", "markdown", "web"},
		Configs:        []cardConfig{{ConfigName: "default", DataFiles: []cardDataFiles{{Split: "train", Path: DataFilesGlob}}}},
		CcrawlTotals:   totals,
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	// Encoding plain structs of strings and ints cannot fail.
	_ = enc.Encode(fm)
	_ = enc.Close()
	b.WriteString("---\n\n")

	fmt.Fprintf(&b, "# %s\n\n", name)
	if c.Description != "" {
		b.WriteString(strings.TrimSpace(c.Description) + "\n\n")
	}
	fmt.Fprintf(&b, "Markdown extracted from [Common Crawl](https://commoncrawl.org) WARC files by "+
		"[ccrawl](https://github.com/open-markdown/ccrawl)")
	if c.ToolVersion != "" {
		fmt.Fprintf(&b, " %s", c.ToolVersion)
	}
	if c.Extractor != "" {
		fmt.Fprintf(&b, " using the `%s` extractor", c.Extractor)
	}
	b.WriteString(". One Parquet file (zstd) per WARC shard")
	if c.Schema != "" {
		fmt.Fprintf(&b, ", schema `%s`", c.Schema)
	}
	b.WriteString(".\n\n")

	b.WriteString("## Contents\n\n")
	b.WriteString("| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Rows | %s |\n", commas(totals.Rows))
	fmt.Fprintf(&b, "| Shards (Parquet files) | %s |\n", commas(totals.Shards))
	fmt.Fprintf(&b, "| Parquet bytes | %s (%s) |\n", commas(totals.ParquetBytes), humanBytes(totals.ParquetBytes))
	fmt.Fprintf(&b, "| Dropped as exact duplicates (digest) | %s |\n", commas(totals.DigestDropped))
	if len(c.Crawls) > 0 {
		fmt.Fprintf(&b, "| Crawls | %s |\n", cell(strings.Join(c.Crawls, ", ")))
	}
	filters := "none"
	if len(c.Filters) > 0 {
		filters = strings.Join(c.Filters, "; ")
	}
	fmt.Fprintf(&b, "| Filters | %s |\n\n", cell(filters))

	if len(totals.Languages) > 0 {
		b.WriteString("### Languages\n\n| Language | Rows | Share |\n|---|---:|---:|\n")
		for _, lc := range sortedLanguages(totals.Languages) {
			share := 0.0
			if totals.Rows > 0 {
				share = 100 * float64(lc.rows) / float64(totals.Rows)
			}
			fmt.Fprintf(&b, "| %s | %s | %.2f%% |\n", cell(lc.code), commas(lc.rows), share)
		}
		b.WriteString("\n")
	}

	if len(c.Columns) > 0 {
		b.WriteString("## Schema\n\n| Column | Type | Meaning |\n|---|---|---|\n")
		for _, col := range c.Columns {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", cell(col.Name), cell(col.Type), cell(col.Meaning))
		}
		b.WriteString("\n")
	}

	b.WriteString("## Loading\n\n```python\nfrom datasets import load_dataset\n\n")
	fmt.Fprintf(&b, "ds = load_dataset(%q)\n# or without downloading it all first:\nds = load_dataset(%q, split=\"train\", streaming=True)\n```\n\n", c.Repo, c.Repo)
	b.WriteString("With DuckDB:\n\n```sql\n")
	fmt.Fprintf(&b, "SELECT language, count(*) FROM 'hf://datasets/%s/%s' GROUP BY 1 ORDER BY 2 DESC;\n```\n\n", c.Repo, DataFilesGlob)
	b.WriteString("Files live under `data/crawl=<crawl id>/<shard>.parquet`, so Hive-aware readers such as DuckDB see `crawl` as a column.\n\n")

	b.WriteString("## License and terms\n\n")
	fmt.Fprintf(&b, "The text comes from web pages crawled by Common Crawl; use of it is subject to "+
		"[Common Crawl's terms of use](%s) and to the rights of the original page authors. "+
		"ccrawl adds no further terms.\n", TermsURL)
	return b.Bytes()
}

// SizeCategory buckets a row count the way the Hub's size_categories tag does.
func SizeCategory(rows int64) string {
	bounds := []struct {
		n     int64
		label string
	}{
		{1_000, "n<1K"},
		{10_000, "1K<n<10K"},
		{100_000, "10K<n<100K"},
		{1_000_000, "100K<n<1M"},
		{10_000_000, "1M<n<10M"},
		{100_000_000, "10M<n<100M"},
		{1_000_000_000, "100M<n<1B"},
		{10_000_000_000, "1B<n<10B"},
		{100_000_000_000, "10B<n<100B"},
		{1_000_000_000_000, "100B<n<1T"},
	}
	for _, b := range bounds {
		if rows < b.n {
			return b.label
		}
	}
	return "n>1T"
}

var langCodeRe = regexp.MustCompile(`^[a-z]{2,3}$`)

// LanguageTags turns the detected language mix into the card's language
// tags. The Hub accepts ISO 639-1 and 639-3 codes; we emit 639-1 where one
// exists because that is what its language filter lists, and keep 639-3
// otherwise. "und" and malformed codes are dropped; output is sorted by
// row count so the main languages come first.
func LanguageTags(mix map[string]int64) []string {
	rows := map[string]int64{}
	for code, n := range mix {
		c := strings.ToLower(strings.TrimSpace(code))
		if base, _, ok := strings.Cut(c, "-"); ok { // "zh-hant" → "zh"
			c = base
		}
		if two, ok := iso6393to1[c]; ok {
			c = two
		}
		if !langCodeRe.MatchString(c) || c == "und" || c == "zxx" || c == "mul" {
			continue
		}
		rows[c] += n
	}
	var out []string
	for _, lc := range sortedLanguages(rows) {
		out = append(out, lc.code)
	}
	return out
}

type langCount struct {
	code string
	rows int64
}

func sortedLanguages(m map[string]int64) []langCount {
	out := make([]langCount, 0, len(m))
	for k, v := range m {
		out = append(out, langCount{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].rows != out[j].rows {
			return out[i].rows > out[j].rows
		}
		return out[i].code < out[j].code
	})
	return out
}

// iso6393to1 maps the ISO 639-3 codes language detectors commonly emit to
// their 639-1 equivalents.
var iso6393to1 = map[string]string{
	"afr": "af", "amh": "am", "ara": "ar", "arb": "ar", "aze": "az", "bel": "be", "ben": "bn",
	"bos": "bs", "bul": "bg", "cat": "ca", "ces": "cs", "cmn": "zh", "cym": "cy", "dan": "da",
	"deu": "de", "ell": "el", "eng": "en", "epo": "eo", "est": "et", "eus": "eu", "fas": "fa",
	"pes": "fa", "fin": "fi", "fra": "fr", "gle": "ga", "glg": "gl", "guj": "gu", "heb": "he",
	"hin": "hi", "hrv": "hr", "hun": "hu", "hye": "hy", "ind": "id", "isl": "is", "ita": "it",
	"jav": "jv", "jpn": "ja", "kan": "kn", "kat": "ka", "kaz": "kk", "khm": "km", "kor": "ko",
	"lat": "la", "lav": "lv", "lit": "lt", "mal": "ml", "mar": "mr", "mkd": "mk", "mlt": "mt",
	"mon": "mn", "msa": "ms", "zsm": "ms", "mya": "my", "nep": "ne", "nld": "nl", "nob": "nb",
	"nno": "nn", "nor": "no", "ori": "or", "pan": "pa", "pol": "pl", "por": "pt", "ron": "ro",
	"rus": "ru", "sin": "si", "slk": "sk", "slv": "sl", "sna": "sn", "som": "so", "spa": "es",
	"sqi": "sq", "srp": "sr", "swa": "sw", "swe": "sv", "tam": "ta", "tel": "te", "tgl": "tl",
	"tha": "th", "tuk": "tk", "tur": "tr", "ukr": "uk", "urd": "ur", "uzb": "uz", "vie": "vi",
	"yid": "yi", "yor": "yo", "zho": "zh", "zul": "zu", "aka": "ak", "hau": "ha", "ibo": "ig",
	"kin": "rw", "xho": "xh", "tat": "tt", "kir": "ky", "tgk": "tg", "pus": "ps", "kur": "ku",
	"bre": "br", "fry": "fy", "ltz": "lb", "oci": "oc", "gla": "gd", "mri": "mi", "lao": "lo",
	"bod": "bo", "uig": "ug", "hat": "ht", "mlg": "mg", "nya": "ny", "sot": "st", "tsn": "tn",
}

// FolderWarning returns a one-line warning when a folder would hold more
// than MaxFilesPerFolder files, or "" when it is within the limit.
func FolderWarning(n int, folder string) string {
	if n <= MaxFilesPerFolder {
		return ""
	}
	return fmt.Sprintf("hub: %s would hold %d files, over the Hub's recommended %d per folder; "+
		"publish fewer, larger shards (merge WARC inputs per output file) or split the run across several crawl= folders "+
		"(--commit-batch does not help: it changes commits, not files)", folder, n, MaxFilesPerFolder)
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

func commas(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
