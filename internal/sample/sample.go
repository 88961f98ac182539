// Package sample builds the sample shard that ships in testdata/: a small
// Common Crawl-shaped WARC (sample.warc.gz) of pages the project wrote
// itself, in fifteen languages, with exact and near duplicates, one page
// per charset case and the usual non-rows (redirect, 404, binary, text,
// revisit, near-empty page), plus sample.answers.json describing every
// capture so tests across the project can assert against it.
//
// Regenerate both files with
//
//	go run ./internal/sample/gen -out testdata/sample.warc.gz
//
// The output is deterministic (fixed dates, record IDs derived from a
// counter and the URL, fixed gzip level, hand-built binary payloads), and
// TestGoldenBytes fails when the committed files and the generator
// disagree, so nobody edits one without the other.
//
// It deliberately does not fetch, copy or imitate real sites: every text
// is original, every host is a reserved example domain, and the file is
// not a statistical model of a crawl (ccgen in ../shared covers that).
package sample

import (
	"bytes"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/klauspost/compress/gzip"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"

	"github.com/open-markdown/ccrawl/warc"
)

const (
	// CrawlID is the isPartOf value of the sample's warcinfo record.
	CrawlID = "CC-MAIN-2026-30"
	// WARCFilename is the WARC-Filename the sample claims, in Common
	// Crawl's naming scheme.
	WARCFilename = "CC-MAIN-20260712093107-20260712123107-00000.warc.gz"
	// TruthSchema names the layout of sample.answers.json. Field names
	// follow ../shared's ccgen-truth/1 where the two overlap, so one test
	// helper can read both.
	TruthSchema = "ccrawl-sample-truth/1"
)

// Truth is sample.answers.json.
type Truth struct {
	Schema      string    `json:"schema"`
	Notes       []string  `json:"notes"`
	WARC        WARCInfo  `json:"warc"`
	Counts      Counts    `json:"counts"`
	Captures    []Capture `json:"captures"`
	ExactGroups []Group   `json:"exact_groups"`
	NearGroups  []Group   `json:"near_groups"`
	TextGroups  []Group   `json:"text_groups"`
}

// WARCInfo describes the file as a whole.
type WARCInfo struct {
	File              string `json:"file"`
	WARCFilename      string `json:"warc_filename"`
	WarcinfoID        string `json:"warcinfo_id"`
	WarcinfoLength    int64  `json:"warcinfo_length"`
	IsPartOf          string `json:"is_part_of"`
	Records           int    `json:"records"`
	Captures          int    `json:"captures"`
	CompressedBytes   int64  `json:"compressed_bytes"`
	UncompressedBytes int64  `json:"uncompressed_bytes"`
}

// Counts are totals over the captures; tests compare pipeline stats to
// them.
type Counts struct {
	ByKind            map[string]int `json:"by_kind"`
	ByWARCType        map[string]int `json:"by_warc_type"`
	ByStatus          map[string]int `json:"by_status"`
	ByLanguage        map[string]int `json:"by_language"` // kind html only
	ByActualCharset   map[string]int `json:"by_actual_charset"`
	HTML              int            `json:"html"` // kind html: status 200 pages with real text
	Tiny              int            `json:"tiny"`
	Mislabeled        int            `json:"mislabeled"`
	ExactRemovable    int            `json:"exact_removable"`
	NearRemovable     int            `json:"near_removable"`
	HTMLAfterDedup    int            `json:"html_after_dedup"`
	HTMLAfterTextDups int            `json:"html_after_text_dedup"`
}

// Capture is one fetch: its request, response (or revisit) and metadata
// records. Offset and Length are those of the response or revisit
// record's gzip member, as a CDX index holds them.
type Capture struct {
	Index          int    `json:"index"`
	RecordID       string `json:"record_id"`
	WARCType       string `json:"warc_type"`
	RequestID      string `json:"request_id"`
	MetadataID     string `json:"metadata_id"`
	Offset         int64  `json:"offset"`
	Length         int64  `json:"length"`
	RequestOffset  int64  `json:"request_offset"`
	MetadataOffset int64  `json:"metadata_offset"`
	URL            string `json:"url"`
	Host           string `json:"host"`
	Date           string `json:"date"`
	Status         int    `json:"status"`
	// Kind is html, nonhtml, redirect, notfound, revisit or tiny; only
	// html captures should become dataset rows (tiny ones extract to
	// nothing or next to nothing).
	Kind           string `json:"kind"`
	Subkind        string `json:"subkind"`
	MIME           string `json:"mime"`
	IdentifiedMIME string `json:"identified_mime,omitempty"`
	PayloadDigest  string `json:"payload_digest,omitempty"`
	BlockDigest    string `json:"block_digest"`
	PayloadLength  int64  `json:"payload_length"`
	// CrawlerContentEncoding is set where the HTTP header carries
	// X-Crawler-Content-Encoding: the server sent it compressed, the WARC
	// stores it decoded.
	CrawlerContentEncoding string `json:"crawler_content_encoding,omitempty"`
	Location               string `json:"location,omitempty"`
	RefersToDate           string `json:"refers_to_date,omitempty"`
	Protocol               string `json:"protocol"`
	// Language is the ISO 639-3 code of the text as written; Lang the
	// ISO 639-1 code, as ccgen writes it.
	Language string   `json:"language,omitempty"`
	Lang     string   `json:"lang,omitempty"`
	Title    string   `json:"title,omitempty"`
	Charset  *Charset `json:"charset,omitempty"`
	Tiny     bool     `json:"tiny,omitempty"`
	// ExactDupOf and NearDupOf are the URL of the first copy in file order.
	ExactDupOf string `json:"exact_dup_of,omitempty"`
	NearDupOf  string `json:"near_dup_of,omitempty"`
	// TextProbe is a sentence of the main text the extracted Markdown
	// must contain; BoilerplateProbe a sentence of the chrome it must not.
	TextProbe        string `json:"text_probe,omitempty"`
	BoilerplateProbe string `json:"boilerplate_probe,omitempty"`
	// MainWords counts the words of the main text (for Chinese and
	// Japanese: Han and kana characters).
	MainWords int `json:"main_words,omitempty"`
}

// Charset describes how an HTML payload is encoded and labelled.
type Charset struct {
	Case   string `json:"case"`
	Actual string `json:"actual"` // WHATWG name of the real encoding
	Header string `json:"header,omitempty"`
	Meta   string `json:"meta,omitempty"`
	// XMLDecl is the encoding of an XML declaration, BOM a byte order mark.
	XMLDecl      string `json:"xml_decl,omitempty"`
	BOM          bool   `json:"bom,omitempty"`
	Mislabeled   bool   `json:"mislabeled"`
	MislabelKind string `json:"mislabel_kind,omitempty"`
	// UTF8Twin is the URL of the capture holding the same article text as
	// UTF-8, for pages in another encoding or mislabelled.
	UTF8Twin string `json:"utf8_twin,omitempty"`
}

// Group is a set of captures that dedup should collapse to Keep.
type Group struct {
	ID            string   `json:"id"`
	URLs          []string `json:"urls"`
	Records       []string `json:"records"`
	Keep          string   `json:"keep"`
	PayloadDigest string   `json:"payload_digest,omitempty"`
}

// ReadTruth decodes sample.answers.json.
func ReadTruth(r io.Reader) (*Truth, error) {
	var t Truth
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("sample: decoding truth: %w", err)
	}
	if t.Schema != TruthSchema {
		return nil, fmt.Errorf("sample: truth schema is %q, want %q: regenerate with go run ./internal/sample/gen", t.Schema, TruthSchema)
	}
	return &t, nil
}

// Paths returns the committed sample files, found by walking up from dir
// to the directory holding go.mod; tests pass "." (their package dir).
func Paths(dir string) (warcPath, truthPath string, err error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("sample: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("sample: no go.mod above %s", dir)
		}
		d = parent
	}
	return filepath.Join(d, "testdata", "sample.warc.gz"), filepath.Join(d, "testdata", "sample.answers.json"), nil
}

// TruthPath derives the truth file name from the WARC file name:
// x.warc.gz -> x.answers.json.
func TruthPath(warcPath string) string {
	base := strings.TrimSuffix(strings.TrimSuffix(warcPath, ".gz"), ".warc")
	return base + ".answers.json"
}

// spec is one capture before it is written.
type spec struct {
	url, kind, subkind string
	status             int
	revisit            bool
	ctype, mime        string // Content-Type header value and its media type
	identified         string
	payload            []byte
	language           string
	title              string
	charset            *Charset
	gzipped, chunked   bool
	location           string
	exactOf, nearOf    string
	probe, boilerProbe string
	words              int
	textKey            string // article key: captures sharing it share the text
}

// charset encoders; the sample fails to build rather than substitute a
// character the target charset lacks.
var encoders = map[string]encoding.Encoding{
	"windows-1252": charmap.Windows1252,
	"iso-8859-1":   charmap.ISO8859_1,
	"windows-1251": charmap.Windows1251,
	"shift_jis":    japanese.ShiftJIS,
	"gbk":          simplifiedchinese.GBK,
}

func encode(s, cs string) ([]byte, error) {
	if cs == "utf-8" {
		return []byte(s), nil
	}
	out, err := encoders[cs].NewEncoder().String(s)
	if err != nil {
		return nil, fmt.Errorf("sample: encoding page as %s: %w", cs, err)
	}
	return []byte(out), nil
}

func articleByKey(key string) (article, error) {
	for _, a := range articles {
		if a.key == key {
			return a, nil
		}
	}
	return article{}, fmt.Errorf("sample: no article %q in content.go", key)
}

func relatedTo(a article) []article {
	var out []article
	for _, r := range articles {
		if r.lang == a.lang && r.key != a.key && len(out) < 2 {
			out = append(out, r)
		}
	}
	return out
}

// countWords counts whitespace-separated words, or Han and kana
// characters for scripts written without spaces.
func countWords(text, lang string) int {
	if lang == "jpn" || lang == "zho" {
		n := 0
		for _, r := range text {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
				n++
			}
		}
		return n
	}
	return len(strings.Fields(text))
}

// variant says how one capture of an article is served.
type variant struct {
	url      string
	site     site
	cs       string // actual encoding
	header   string // charset parameter of Content-Type, "" for none
	tag      string // charset-declaring tag, "" for none
	meta     string // what tag declares, for the truth
	caseName string
	mislabel string
	twin     string // URL of the UTF-8 original
	date     string
	bom      bool
	xhtml    bool
	gzipped  bool
	chunked  bool
	exactOf  string
	nearOf   string
	subkind  string
}

func articleSpec(key string, v variant) (spec, error) {
	a, err := articleByKey(key)
	if err != nil {
		return spec{}, err
	}
	o := pageOpts{charsetTag: v.tag, xhtml: v.xhtml, date: v.date}
	page := articlePage(a, v.site, o, relatedTo(a))
	payload, err := encode(page, v.cs)
	if err != nil {
		return spec{}, fmt.Errorf("%s: %w", v.url, err)
	}
	if v.bom {
		payload = append([]byte("\xEF\xBB\xBF"), payload...)
	}
	mime := "text/html"
	if v.xhtml {
		mime = "application/xhtml+xml"
	}
	ctype := mime
	if v.header != "" {
		ctype += "; charset=" + v.header
	}
	cs := &Charset{Case: v.caseName, Actual: v.cs, Header: strings.ToLower(v.header), Meta: v.meta,
		BOM: v.bom, Mislabeled: v.mislabel != "", MislabelKind: v.mislabel, UTF8Twin: v.twin}
	if v.xhtml {
		cs.XMLDecl = "utf-8"
	}
	sub := v.subkind
	if sub == "" {
		sub = "page"
	}
	return spec{
		url: v.url, kind: "html", subkind: sub, status: 200, ctype: ctype, mime: mime, identified: mime,
		payload: payload, language: a.lang, title: a.title, charset: cs,
		gzipped: v.gzipped, chunked: v.chunked, exactOf: v.exactOf, nearOf: v.nearOf,
		probe: firstSentence(a.body), boilerProbe: boilers[v.site.lang].cookie,
		words: countWords(plainText(a.body), a.lang), textKey: a.key,
	}, nil
}

// utf8Page is the common case: UTF-8, declared in the header and in
// <meta charset>.
func utf8Page(url, name, lang string) variant {
	return variant{url: url, site: site{name: name, lang: lang}, cs: "utf-8", header: "utf-8",
		tag: `<meta charset="utf-8">`, meta: "utf-8", caseName: "utf-8"}
}

// specs lists the captures in file order. Originals come before their
// duplicates and charset twins, so "first in file order" is the original.
func specs() ([]spec, error) {
	var out []spec
	var err error
	add := func(key string, v variant) {
		if err != nil {
			return
		}
		var s spec
		s, err = articleSpec(key, v)
		out = append(out, s)
	}
	raw := func(s spec) {
		if err == nil {
			out = append(out, s)
		}
	}

	const (
		sourdough = "https://kitchen.example/blog/2026/06/sourdough-starter-summer"
		garten    = "https://hinterhof.example/garten/erstes-jahr"
		atelier   = "https://quartier.example/vie-locale/atelier-reparation"
		biblio    = "https://vecinos.example/biblioteca-de-barrio"
		bike      = "https://cycling.example.org/guides/ten-minute-check"
		manjer    = "https://hortaurbana.example/ervas/manjericao-varanda"
		regen     = "https://fietsen.example/tips/regen"
		palatka   = "https://pohod.example/snaryazhenie/palatka"
		miso      = "https://hakko.example/miso/hajimete"
		fanqie    = "https://caiyuan.example/yangtai/xiaofanqie"
		mercado   = "https://mercado.example.net/noticias/horario-verano"
		nachtzug  = "https://schiene.example/reise/nachtzuege"
	)

	add("en-sourdough", utf8Page(sourdough, "Kitchen Notes", "eng"))
	add("de-garten", utf8Page(garten, "Hinterhof Journal", "deu"))
	v := utf8Page(atelier, "Le Journal du Quartier", "fra")
	v.gzipped = true
	add("fr-atelier", v)
	raw(spec{url: "https://launch.example.com/", kind: "tiny", subkind: "coming-soon", status: 200,
		ctype: "text/html; charset=utf-8", mime: "text/html", identified: "text/html", payload: []byte(comingSoonPage),
		language: "eng", title: "Coming soon", charset: &Charset{Case: "utf-8", Actual: "utf-8", Header: "utf-8", Meta: "utf-8"}})
	add("es-biblioteca", utf8Page(biblio, "Vecinos del Sur", "spa"))
	add("en-bike", utf8Page(bike, "Cycling Commons", "eng"))
	raw(spec{url: "https://tintuc.example/", kind: "html", subkind: "link-list", status: 200,
		ctype: "text/html; charset=utf-8", mime: "text/html", identified: "text/html",
		payload: []byte(newsHomePage(site{name: "Tin Tức Mẫu", lang: "vie"})), language: "vie", title: newsHome.title,
		charset: &Charset{Case: "utf-8", Actual: "utf-8", Header: "utf-8", Meta: "utf-8"}, gzipped: true,
		probe: newsHome.sections[1].links[0].text, boilerProbe: boilers["vie"].cookie,
		words: countWords(newsHomeText(), "vie"), textKey: "vi-news"})
	add("pt-manjericao", utf8Page(manjer, "Horta Urbana", "por"))
	raw(spec{url: "http://fietsen.example/tips/regen", kind: "redirect", subkind: "301", status: 301,
		ctype: "text/html", mime: "text/html", location: regen})
	add("nl-regen", utf8Page(regen, "Fietsen Vandaag", "nld"))
	add("it-caffe", utf8Page("https://cucina.example/caffe/moka", "Cucina di Casa", "ita"))
	add("ru-palatka", utf8Page(palatka, "Поход и природа", "rus"))
	add("ja-miso", utf8Page(miso, "発酵ごはん", "jpn"))
	raw(spec{url: "https://coastnotes.example.com/img/anemone-thumb.png", kind: "nonhtml", subkind: "png", status: 200,
		ctype: "image/png", mime: "image/png", identified: "image/png", payload: tinyPNG()})
	add("zh-fanqie", utf8Page(fanqie, "阳台菜园", "zho"))
	add("es-mercado", utf8Page(mercado, "Mercado Central", "spa"))
	v = utf8Page(nachtzug, "Schiene und Reise", "deu")
	v.chunked = true
	add("de-nachtzug", v)
	raw(spec{url: "https://schiene.example/downloads/fahrplan-nachtzug.pdf", kind: "nonhtml", subkind: "pdf", status: 200,
		ctype: "application/pdf", mime: "application/pdf", identified: "application/pdf", payload: tinyPDF()})
	v = utf8Page("https://coastnotes.example.com/notes/tide-pools", "Coast Notes", "eng")
	v.gzipped = true
	add("en-tidepools", v)
	add("fr-rando", utf8Page("https://sentiers.example.org/conseils/moyenne-montagne", "Sentiers et Sommets", "fra"))
	add("fr-atelier", variant{url: "http://ancien.quartier.example/atelier.htm", site: site{name: "Archives du Quartier", lang: "fra"},
		cs: "windows-1252", header: "windows-1252", caseName: "windows-1252-header-only", twin: atelier, subkind: "page+charset"})
	add("pl-ogorki", utf8Page("https://spizarnia.example/przetwory/ogorki-kiszone", "Domowa Spiżarnia", "pol"))
	raw(spec{url: "https://kitchen.example/blog/2025/old-recipe-removed", kind: "notfound", subkind: "html", status: 404,
		ctype: "text/html; charset=utf-8", mime: "text/html", identified: "text/html", payload: []byte(notFoundPage),
		language: "eng", title: "404 Not Found", charset: &Charset{Case: "utf-8", Actual: "utf-8", Header: "utf-8", Meta: "utf-8"}})
	add("de-garten", variant{url: "https://nachbarn.example.net/archiv/gemeinschaftsgarten.html", site: site{name: "Nachbarschaftsarchiv", lang: "deu"},
		cs: "iso-8859-1", tag: `<meta charset="iso-8859-1">`, meta: "iso-8859-1", caseName: "iso-8859-1-meta-only", twin: garten, subkind: "page+charset"})
	v = utf8Page("https://amthuc.example/do-uong/ca-phe-phin.html", "Ẩm Thực Việt", "vie")
	v.gzipped = true
	add("vi-caphe", v)
	v = utf8Page("http://cycling.example.org/guides/ten-minute-check", "Cycling Commons", "eng")
	v.exactOf = bike
	add("en-bike", v)
	add("id-listrik", utf8Page("https://rumah.example/hemat-listrik", "Rumah Hemat", "ind"))
	add("ru-palatka", variant{url: "http://turist-arhiv.example.net/palatka.html", site: site{name: "Архив туриста", lang: "rus"},
		cs: "windows-1251", header: "windows-1251", tag: `<meta charset="windows-1251">`, meta: "windows-1251",
		caseName: "windows-1251-header-and-meta", twin: palatka, subkind: "page+charset"})
	raw(spec{url: "https://tintuc.example/robots.txt", kind: "nonhtml", subkind: "text", status: 200,
		ctype: "text/plain; charset=utf-8", mime: "text/plain", identified: "text/plain", payload: []byte(robotsText)})
	add("tr-vapur", utf8Page("https://gezi.example/istanbul/vapur", "Gezi Defteri", "tur"))
	add("ja-miso", variant{url: "http://old.hakko.example/miso.html", site: site{name: "発酵ごはん旧館", lang: "jpn"},
		cs: "shift_jis", tag: `<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`, meta: "shift_jis",
		caseName: "shift_jis-meta-http-equiv", twin: miso, subkind: "page+charset"})
	v = utf8Page("https://taallam.example/barmaja/bidaya", "تعلّم معنا", "ara")
	v.gzipped = true
	add("ar-barmaja", v)
	add("zh-fanqie", variant{url: "http://www.caiyuan-jiu.example.com/fanqie.htm", site: site{name: "旧版阳台菜园", lang: "zho"},
		cs: "gbk", caseName: "gbk-undeclared", twin: fanqie, subkind: "page+charset"})
	v = utf8Page(mercado+"?utm_source=x", "Mercado Central", "spa")
	v.exactOf = mercado
	add("es-mercado", v)
	v = utf8Page("https://kitchen.example/print/sourdough-starter-summer", "Kitchen Notes", "eng")
	v.site.footer = "Printed from Kitchen Notes. Recipes may be shared with credit to the author."
	v.date, v.nearOf = "Published 14 June 2026, updated 30 June 2026 by Mara Linden", sourdough
	add("en-sourdough", v)
	add("es-biblioteca", variant{url: "http://vecinos-archivo.example.com/biblioteca.html", site: site{name: "Archivo Vecinal", lang: "spa"},
		cs: "utf-8", header: "ISO-8859-1", caseName: "utf-8-labelled-iso-8859-1", mislabel: "utf8-as-latin1", twin: biblio, subkind: "page+mislabeled"})
	raw(spec{url: "https://cycling.example.org/guides/", kind: "revisit", subkind: "server-not-modified", status: 304, revisit: true,
		ctype: "text/html; charset=utf-8", mime: "text/html"})
	add("it-laghi", utf8Page("https://viaggi.example.org/treno-laghi", "Viaggi Lenti", "ita"))
	add("pt-manjericao", variant{url: "http://jardim-antigo.example.com/manjericao.html", site: site{name: "Jardim Antigo", lang: "por"},
		cs: "windows-1252", header: "UTF-8", tag: `<meta charset="utf-8">`, meta: "utf-8",
		caseName: "windows-1252-labelled-utf-8", mislabel: "cp1252-as-utf8", twin: manjer, subkind: "page+mislabeled"})
	add("it-bom", variant{url: "https://dispensa.example/olio/etichetta", site: site{name: "La Dispensa", lang: "ita"},
		cs: "utf-8", bom: true, caseName: "utf-8-bom-only", subkind: "page+charset"})
	v = utf8Page("https://schiene.example/archiv/2026/nachtzuege", "Schiene und Reise", "deu")
	v.site.footer = "Archivfassung. Preise und Fahrzeiten können sich inzwischen geändert haben."
	v.date, v.nearOf = "Stand: 25. Juni 2026", nachtzug
	add("de-nachtzug", v)
	add("nl-warmtepomp", variant{url: "https://wonen.example.org/energie/warmtepomp.xhtml", site: site{name: "Slim Wonen", lang: "nld"},
		cs: "utf-8", xhtml: true, caseName: "xhtml-xml-declaration", subkind: "page+charset"})
	return out, err
}

var (
	baseTime = time.Date(2026, 7, 12, 9, 31, 7, 0, time.UTC)
	// uuidNS keeps the sample's record IDs apart from anyone else's
	// name-based UUIDs.
	uuidNS = "ccrawl-sample/1"
)

// recordID is a name-based (version 5 style) UUID of name, so IDs are
// stable across runs and differ between records.
func recordID(name string) string {
	h := sha1.Sum([]byte(uuidNS + "\x00" + name))
	u := h[:16]
	u[6] = u[6]&0x0f | 0x50
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func digest(b []byte) string {
	d, _ := warc.PayloadDigest(bytes.NewReader(b)) // a bytes.Reader cannot fail
	return d
}

// ipFor maps a host into TEST-NET-1 (192.0.2.0/24), an address range
// reserved for documentation.
func ipFor(host string) string {
	h := sha1.Sum([]byte(host))
	return "192.0.2." + strconv.Itoa(1+int(h[0])%254)
}

var servers = []string{"nginx", "Apache", "nginx/1.26.1", "LiteSpeed"}

// gzipLen is the length the server would have sent with gzip, for
// X-Crawler-Content-Length; level 6 fixed for determinism.
func gzipLen(p []byte) int {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, 6)
	zw.Write(p)
	zw.Close()
	return b.Len()
}

func reasonFor(status int) string {
	switch status {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 304:
		return "Not Modified"
	case 404:
		return "Not Found"
	}
	return ""
}

// Write generates the sample WARC into warcOut and its truth JSON into
// truthOut. The same build always writes the same bytes.
func Write(warcOut, truthOut io.Writer) error {
	ss, err := specs()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	ww := warc.NewWriter(&buf, true)
	t := &Truth{Schema: TruthSchema, Notes: truthNotes}

	infoID := recordID("warcinfo")
	info := []byte("isPartOf: " + CrawlID + "\r\n" +
		"publisher: ccrawl project (sample shard; not Common Crawl data)\r\n" +
		"description: Pages written by the ccrawl project for its tests, served on reserved example domains; nothing here was fetched\r\n" +
		"operator: ccrawl maintainers\r\n" +
		"hostname: sample-gen.example\r\n" +
		"software: ccrawl internal/sample/gen (github.com/open-markdown/ccrawl)\r\n" +
		"robots: not applicable (nothing was fetched)\r\n" +
		"format: WARC File Format 1.1\r\n" +
		"conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n")
	if err := ww.WriteRecord(warc.Header{
		{Name: "WARC-Type", Value: "warcinfo"},
		{Name: "WARC-Date", Value: baseTime.Format(time.RFC3339)},
		{Name: "WARC-Filename", Value: WARCFilename},
		{Name: "WARC-Record-ID", Value: infoID},
		{Name: "Content-Length", Value: strconv.Itoa(len(info))},
		{Name: "Content-Type", Value: "application/warc-fields"},
		{Name: "WARC-Block-Digest", Value: digest(info)},
	}, info); err != nil {
		return fmt.Errorf("sample: %w", err)
	}
	t.WARC = WARCInfo{File: "sample.warc.gz", WARCFilename: WARCFilename, WarcinfoID: infoID,
		WarcinfoLength: ww.Offset(), IsPartOf: CrawlID, Captures: len(ss)}
	records := 1

	for i, s := range ss {
		c, err := writeCapture(ww, i, s, infoID)
		if err != nil {
			return fmt.Errorf("sample: capture %d (%s): %w", i, s.url, err)
		}
		records += 3
		t.Captures = append(t.Captures, c)
	}
	// Each member's length is known once the next one starts.
	for i := range t.Captures {
		t.Captures[i].Length = t.Captures[i].MetadataOffset - t.Captures[i].Offset
	}
	t.WARC.Records = records
	t.WARC.CompressedBytes = int64(buf.Len())
	zr, err := gzip.NewReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		return fmt.Errorf("sample: rereading output: %w", err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil {
		return fmt.Errorf("sample: rereading output: %w", err)
	}
	t.WARC.UncompressedBytes = n
	groups(t, ss)
	count(t)

	if _, err := warcOut.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("sample: writing WARC: %w", err)
	}
	js, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return fmt.Errorf("sample: %w", err)
	}
	if _, err := truthOut.Write(append(js, '\n')); err != nil {
		return fmt.Errorf("sample: writing truth: %w", err)
	}
	return nil
}

var truthNotes = []string{
	"every text was written by the ccrawl project for this sample; hosts are reserved example domains",
	"offset/length: byte offset and compressed length of the response (or revisit) record's gzip member, as in a CDX index",
	"kind: html = status-200 page with real text (a dataset row); tiny = page that extracts to (almost) nothing; nonhtml, redirect, notfound, revisit are never rows",
	"language: ISO 639-3 of the text as written (lang: ISO 639-1); main_words counts Han and kana characters for zho and jpn",
	"exact_groups: identical payload bytes (WARC-Payload-Digest) at another URL; keep = first in file order",
	"near_groups: the same article with an edited date line and footer; keep = first in file order",
	"text_groups: captures with the same article text in different encodings or sites (charset twins); a dedup on extracted text collapses them too",
	"charset.actual is the encoding of the bytes (WHATWG name); header/meta/xml_decl/bom are what the page declares; mislabeled when a declaration is wrong",
	"redirect, 404 and revisit records would sit in Common Crawl's crawldiagnostics files; they are mixed in here on purpose",
}

func writeCapture(ww *warc.Writer, i int, s spec, infoID string) (Capture, error) {
	u, err := url.Parse(s.url)
	if err != nil {
		return Capture{}, err
	}
	date := baseTime.Add(time.Duration(41+i*97+(i*i)%29) * time.Second)
	wdate := date.Format(time.RFC3339)
	hdate := date.Format(http1123)
	name := fmt.Sprintf("%03d %s", i, s.url)
	reqID, respID, metaID := recordID(name+" request"), recordID(name+" response"), recordID(name+" metadata")
	ip := ipFor(u.Host)

	proto, reason := []string{"http/1.1"}, reasonFor(s.status)
	cipher := ""
	if u.Scheme == "https" {
		if i%2 == 0 {
			proto, cipher, reason = []string{"h2", "tls/1.3"}, "TLS_AES_128_GCM_SHA256", ""
		} else {
			proto, cipher = []string{"http/1.1", "tls/1.2"}, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"
		}
	}
	protoFields := func(h warc.Header) warc.Header {
		for _, p := range proto {
			h = append(h, warc.Field{Name: "WARC-Protocol", Value: p})
		}
		if cipher != "" {
			h = append(h, warc.Field{Name: "WARC-Cipher-Suite", Value: cipher})
		}
		return h
	}

	// Request.
	path := u.RequestURI()
	var req strings.Builder
	req.WriteString("GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	req.WriteString("User-Agent: ccrawl-sample-gen/1 (+https://github.com/open-markdown/ccrawl; fixture, never sent)\r\n")
	req.WriteString("Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n")
	req.WriteString("Accept-Language: en-US,en;q=0.5\r\n")
	lastMod := baseTime.AddDate(0, 0, -20-i%9).Format(http1123)
	if s.revisit {
		req.WriteString("If-Modified-Since: " + lastMod + "\r\n")
	}
	req.WriteString("Accept-Encoding: br,gzip\r\nConnection: Keep-Alive\r\n\r\n")
	reqBlock := []byte(req.String())
	c := Capture{Index: i, RequestID: reqID, MetadataID: metaID, URL: s.url, Host: u.Hostname(),
		Date: wdate, Status: s.status, Kind: s.kind, Subkind: s.subkind, MIME: s.mime,
		Protocol: strings.Join(proto, "+"), Language: s.language, Title: s.title, Charset: s.charset,
		Tiny: s.kind == "tiny", ExactDupOf: s.exactOf, NearDupOf: s.nearOf, TextProbe: s.probe,
		BoilerplateProbe: s.boilerProbe, MainWords: s.words, Location: s.location}
	if s.language != "" {
		c.Lang = strings.Split(htmlLang[s.language], "-")[0]
	}
	c.RequestOffset = ww.Offset()
	h := warc.Header{
		{Name: "WARC-Type", Value: "request"},
		{Name: "WARC-Date", Value: wdate},
		{Name: "WARC-Record-ID", Value: reqID},
		{Name: "Content-Length", Value: strconv.Itoa(len(reqBlock))},
		{Name: "Content-Type", Value: "application/http; msgtype=request"},
		{Name: "WARC-Warcinfo-ID", Value: infoID},
		{Name: "WARC-IP-Address", Value: ip},
		{Name: "WARC-Target-URI", Value: s.url},
	}
	h = protoFields(h)
	h = append(h, warc.Field{Name: "WARC-Block-Digest", Value: digest(reqBlock)})
	if err := ww.WriteRecord(h, reqBlock); err != nil {
		return c, err
	}

	// Response or revisit: the HTTP header as Common Crawl stores it, the
	// payload decoded, encodings renamed to X-Crawler-*.
	var resp strings.Builder
	status := "HTTP/1.1 " + strconv.Itoa(s.status)
	if reason != "" {
		status += " " + reason
	}
	resp.WriteString(status + "\r\n")
	resp.WriteString("Date: " + hdate + "\r\n")
	resp.WriteString("Server: " + servers[i%len(servers)] + "\r\n")
	if s.revisit {
		resp.WriteString(`ETag: "` + fmt.Sprintf("%x", sha1.Sum([]byte(s.url)))[:12] + `"` + "\r\n")
	} else {
		resp.WriteString("Content-Type: " + s.ctype + "\r\n")
		if s.status == 200 {
			resp.WriteString("Last-Modified: " + lastMod + "\r\n")
		}
		if s.location != "" {
			resp.WriteString("Location: " + s.location + "\r\n")
		}
		if s.chunked {
			resp.WriteString("X-Crawler-Transfer-Encoding: chunked\r\n")
		}
		if s.gzipped {
			resp.WriteString("Vary: Accept-Encoding\r\nX-Crawler-Content-Encoding: gzip\r\n")
			resp.WriteString("X-Crawler-Content-Length: " + strconv.Itoa(gzipLen(s.payload)) + "\r\n")
			c.CrawlerContentEncoding = "gzip"
		}
		resp.WriteString("Content-Length: " + strconv.Itoa(len(s.payload)) + "\r\n")
	}
	resp.WriteString("\r\n")
	block := append([]byte(resp.String()), s.payload...)
	c.BlockDigest = digest(block)
	c.PayloadLength = int64(len(s.payload))
	c.Offset = ww.Offset()
	h = warc.Header{
		{Name: "WARC-Type", Value: "response"},
		{Name: "WARC-Date", Value: wdate},
		{Name: "WARC-Record-ID", Value: respID},
		{Name: "Content-Length", Value: strconv.Itoa(len(block))},
		{Name: "Content-Type", Value: "application/http; msgtype=response"},
		{Name: "WARC-Warcinfo-ID", Value: infoID},
		{Name: "WARC-Concurrent-To", Value: reqID},
		{Name: "WARC-IP-Address", Value: ip},
		{Name: "WARC-Target-URI", Value: s.url},
	}
	h = protoFields(h)
	if s.revisit {
		c.WARCType = "revisit"
		h[0].Value = "revisit"
		c.RefersToDate = baseTime.AddDate(0, -1, -3).Format(time.RFC3339)
		h = append(h,
			warc.Field{Name: "WARC-Profile", Value: "http://netpreserve.org/warc/1.1/revisit/server-not-modified"},
			warc.Field{Name: "WARC-Refers-To-Target-URI", Value: s.url},
			warc.Field{Name: "WARC-Refers-To-Date", Value: c.RefersToDate},
			warc.Field{Name: "WARC-Block-Digest", Value: c.BlockDigest})
	} else {
		c.WARCType = "response"
		c.PayloadDigest = digest(s.payload)
		h = append(h,
			warc.Field{Name: "WARC-Payload-Digest", Value: c.PayloadDigest},
			warc.Field{Name: "WARC-Block-Digest", Value: c.BlockDigest})
		// Nothing to identify in an empty body.
		if s.identified != "" && len(s.payload) > 0 {
			c.IdentifiedMIME = s.identified
			h = append(h, warc.Field{Name: "WARC-Identified-Payload-Type", Value: s.identified})
		}
	}
	c.RecordID = respID
	if err := ww.WriteRecord(h, block); err != nil {
		return c, err
	}

	// Metadata.
	meta := "fetchTimeMs: " + strconv.Itoa(40+(i*7919)%900) + "\r\n"
	if s.charset != nil {
		meta += "charset-detected: " + detectedName[s.charset.Actual] + "\r\n"
	}
	mblock := []byte(meta)
	c.MetadataOffset = ww.Offset()
	h = warc.Header{
		{Name: "WARC-Type", Value: "metadata"},
		{Name: "WARC-Date", Value: wdate},
		{Name: "WARC-Record-ID", Value: metaID},
		{Name: "Content-Length", Value: strconv.Itoa(len(mblock))},
		{Name: "Content-Type", Value: "application/warc-fields"},
		{Name: "WARC-Warcinfo-ID", Value: infoID},
		{Name: "WARC-Concurrent-To", Value: respID},
		{Name: "WARC-Target-URI", Value: s.url},
		{Name: "WARC-Block-Digest", Value: digest(mblock)},
	}
	return c, ww.WriteRecord(h, mblock)
}

const http1123 = "Mon, 02 Jan 2006 15:04:05 GMT"

var detectedName = map[string]string{
	"utf-8": "UTF-8", "windows-1252": "windows-1252", "iso-8859-1": "ISO-8859-1",
	"windows-1251": "windows-1251", "shift_jis": "Shift_JIS", "gbk": "GBK",
}

// groups fills the exact, near and text groups from the specs.
func groups(t *Truth, ss []spec) {
	byURL := map[string]int{}
	for i, s := range ss {
		byURL[s.url] = i
	}
	build := func(prefix string, of func(s spec) string) []Group {
		var out []Group
		idx := map[string]int{}
		for i, s := range ss {
			first := of(s)
			if first == "" {
				continue
			}
			g, ok := idx[first]
			if !ok {
				k := byURL[first]
				g = len(out)
				idx[first] = g
				out = append(out, Group{ID: fmt.Sprintf("%s%d", prefix, g+1), URLs: []string{first},
					Records: []string{t.Captures[k].RecordID}, Keep: t.Captures[k].RecordID})
			}
			out[g].URLs = append(out[g].URLs, s.url)
			out[g].Records = append(out[g].Records, t.Captures[i].RecordID)
		}
		return out
	}
	t.ExactGroups = build("x", func(s spec) string { return s.exactOf })
	for i := range t.ExactGroups {
		t.ExactGroups[i].PayloadDigest = t.Captures[byURL[t.ExactGroups[i].URLs[0]]].PayloadDigest
	}
	t.NearGroups = build("n", func(s spec) string { return s.nearOf })
	// Text groups: charset twins, keyed by the article they render.
	firstWithText := map[string]string{}
	t.TextGroups = build("t", func(s spec) string {
		if s.textKey == "" || s.exactOf != "" || s.nearOf != "" {
			return ""
		}
		if f, ok := firstWithText[s.textKey]; ok {
			return f
		}
		firstWithText[s.textKey] = s.url
		return ""
	})
}

func count(t *Truth) {
	c := Counts{ByKind: map[string]int{}, ByWARCType: map[string]int{"warcinfo": 1}, ByStatus: map[string]int{},
		ByLanguage: map[string]int{}, ByActualCharset: map[string]int{}}
	for _, x := range t.Captures {
		c.ByKind[x.Kind]++
		c.ByWARCType["request"]++
		c.ByWARCType[x.WARCType]++
		c.ByWARCType["metadata"]++
		c.ByStatus[strconv.Itoa(x.Status)]++
		if x.Charset != nil {
			c.ByActualCharset[x.Charset.Actual]++
			if x.Charset.Mislabeled {
				c.Mislabeled++
			}
		}
		if x.Kind == "html" {
			c.HTML++
			c.ByLanguage[x.Language]++
			if x.ExactDupOf != "" {
				c.ExactRemovable++
			}
			if x.NearDupOf != "" {
				c.NearRemovable++
			}
		}
		if x.Tiny {
			c.Tiny++
		}
	}
	c.HTMLAfterDedup = c.HTML - c.ExactRemovable - c.NearRemovable
	removable := 0
	for _, g := range t.TextGroups {
		removable += len(g.Records) - 1
	}
	c.HTMLAfterTextDups = c.HTMLAfterDedup - removable
	t.Counts = c
}
