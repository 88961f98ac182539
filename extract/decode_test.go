package extract

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func page(head, body string) string {
	return "<!DOCTYPE html><html><head>" + head + "<title>t</title></head><body><p>" + body + "</p></body></html>"
}

// Long enough for a detector to have something to go on.
const (
	german   = "Größere Übungen für Bäcker: Brötchen, Brezeln und süße Teilchen schmecken früh am Morgen besonders gut. Die Straße ist lang."
	japan    = "日本語のテキストです。東京は日本の首都であり、多くの人々が住んでいます。今日は晴れて、とても暖かい一日でした。"
	chinese  = "这是一个中文测试页面。北京是中华人民共和国的首都，也是全国的政治和文化中心。今天天气很好，我们去公园散步。"
	cyrillic = "Это тестовая страница на русском языке. Москва является столицей России и крупнейшим городом страны. Сегодня хорошая погода."
)

func TestDecodeHTML(t *testing.T) {
	tests := []struct {
		name        string
		body        []byte
		contentType string
		wantLabel   string
		wantText    string
	}{
		{"utf-8 undeclared", []byte(page("", german)), "", "utf-8", german},
		{"ascii undeclared", []byte(page("", "plain words")), "", "utf-8", "plain words"},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, page("", german)...), "text/html; charset=iso-8859-1", "utf-8", german},
		{"utf-16le bom", encode(t, unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), page("", german)), "text/html", "utf-16le", german},
		{"utf-16be bom", encode(t, unicode.UTF16(unicode.BigEndian, unicode.UseBOM), page("", german)), "", "utf-16be", german},
		{"header windows-1252", encode(t, charmap.Windows1252, page("", german)), "text/html; charset=windows-1252", "windows-1252", german},
		{"header iso-8859-1 is windows-1252", encode(t, charmap.Windows1252, page("", german+" – “quoted”")), "text/html;charset=ISO-8859-1", "windows-1252", german + " – “quoted”"},
		{"header quoted and malformed", encode(t, charmap.Windows1252, page("", german)), `text/html; charset="windows-1252";`, "windows-1252", german},
		{"header wins over meta", encode(t, charmap.Windows1252, page(`<meta charset="shift_jis">`, german)), "text/html; charset=windows-1252", "windows-1252", german},
		{"meta charset", encode(t, charmap.Windows1252, page(`<meta charset="windows-1252">`, german)), "text/html", "windows-1252", german},
		{"meta http-equiv", encode(t, charmap.ISO8859_15, page(`<meta content="text/html; charset=iso-8859-15" http-equiv="Content-Type">`, german)), "", "iso-8859-15", german},
		{"meta after 1024 bytes is not seen", []byte(page(strings.Repeat(" ", 1100)+`<meta charset="windows-1251">`, german)), "", "utf-8", german},
		{"mislabelled: utf-8 bytes declared latin1", []byte(page(`<meta charset="iso-8859-1">`, german)), "text/html; charset=iso-8859-1", "utf-8", german},
		{"mislabelled: utf-8 bytes declared windows-1251", []byte(page("", cyrillic)), "text/html; charset=windows-1251", "utf-8", cyrillic},
		{"mislabelled: windows-1252 bytes declared utf-8", encode(t, charmap.Windows1252, page(`<meta charset="utf-8">`, german)), "text/html; charset=UTF-8", "windows-1252", german},
		{"ascii declared latin1 stays declared", []byte(page("", "plain words")), "text/html; charset=iso-8859-1", "windows-1252", "plain words"},
		{"shift_jis via meta", encode(t, japanese.ShiftJIS, page(`<meta charset="Shift_JIS">`, japan)), "text/html", "shift_jis", japan},
		{"shift_jis detected", encode(t, japanese.ShiftJIS, page("", japan)), "text/html", "shift_jis", japan},
		{"gbk via header gb2312", encode(t, simplifiedchinese.GBK, page("", chinese)), "text/html; charset=gb2312", "gbk", chinese},
		{"gbk detected", encode(t, simplifiedchinese.GBK, page("", chinese)), "", "gb18030", chinese},
		{"windows-1251 via header", encode(t, charmap.Windows1251, page("", cyrillic)), "text/html; charset=windows-1251", "windows-1251", cyrillic},
		{"windows-1251 detected", encode(t, charmap.Windows1251, page("", cyrillic)), "", "windows-1251", cyrillic},
		{"unknown label ignored", []byte(page(`<meta charset="x-klingon">`, german)), "", "utf-8", german},
		{"soft hyphens dropped", []byte(page("", "Donau\u00addampf\u00adschiff")), "", "utf-8", "Donaudampfschiff"},
		{"NFC", []byte(page("", "Cafe\u0301 cre\u0300me")), "", "utf-8", "Café crème"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, label := DecodeHTML(tt.body, tt.contentType)
			if label != tt.wantLabel {
				t.Errorf("label = %q, want %q", label, tt.wantLabel)
			}
			if !utf8.Valid(got) {
				t.Errorf("output is not valid UTF-8")
			}
			if !bytes.Contains(got, []byte(tt.wantText)) {
				t.Errorf("decoded text lacks %q:\n%s", tt.wantText, got)
			}
			if hasMojibake(string(got)) {
				t.Errorf("mojibake in %s", got)
			}
		})
	}
}

// hasMojibake spots UTF-8 decoded as windows-1252 ("Ã¤" for "ä", "â€" for
// curly quotes and dashes).
func hasMojibake(s string) bool {
	for _, m := range []string{"Ã¤", "Ã¶", "Ã¼", "ÃŸ", "Ã©", "Ã¨", "Ã„", "Ã–", "Ãœ", "â€", "Ã¡", "Ã³", "Ã±"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func FuzzDecodeHTML(f *testing.F) {
	f.Add([]byte(page(`<meta charset="shift_jis">`, "x")), "text/html")
	f.Add([]byte{0xFF, 0xFE, 0x41}, "")
	f.Add([]byte("<meta http-equiv=content-type content='text/html; charset=gbk'>\xb0\xa1"), "text/html; charset=")
	f.Add([]byte("\xe4\xf6\xfc"), "text/html; charset=utf-8")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		got, label := DecodeHTML(body, contentType)
		if !utf8.Valid(got) {
			t.Fatalf("invalid UTF-8 output for %q", body)
		}
		if label == "" {
			t.Fatalf("empty label for %q", body)
		}
	})
}

func BenchmarkDecodeHTML(b *testing.B) {
	utf := []byte(strings.Repeat(page("", german), 100))
	latin, _ := charmap.Windows1252.NewEncoder().Bytes(utf)
	for _, c := range []struct {
		name string
		body []byte
	}{{"utf-8", utf}, {"windows-1252-undeclared", latin}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				DecodeHTML(c.body, "text/html")
			}
			b.ReportMetric(float64(b.N)*float64(len(c.body))/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}
