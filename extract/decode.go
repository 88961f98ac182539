package extract

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/gogs/chardet"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// prescanLimit is how far WHATWG's prescan looks for a <meta> charset.
const prescanLimit = 1024

var boms = []struct {
	bom   []byte
	label string
}{
	{[]byte{0xEF, 0xBB, 0xBF}, "utf-8"},
	{[]byte{0xFE, 0xFF}, "utf-16be"},
	{[]byte{0xFF, 0xFE}, "utf-16le"},
}

// DecodeHTML converts an HTML payload in any charset to NFC-normalised UTF-8
// without soft hyphens, and returns the WHATWG name of the charset it used
// ("utf-8", "windows-1252", "shift_jis", ...).
//
// The order is WHATWG's: byte-order mark, the charset parameter of
// contentType, a <meta charset> or http-equiv declaration in the first 1024
// bytes, then a detector. Two deviations repair the mislabelling seen in
// crawls: a page declared as a legacy charset whose bytes are valid UTF-8 with
// non-ASCII characters is UTF-8 (a legacy text is practically never valid
// UTF-8 by accident, while servers defaulting to iso-8859-1 are common), and
// a page declared UTF-8 whose bytes are not valid UTF-8 goes to the detector.
//
// The result may share memory with body when no conversion is needed; do not
// modify it.
func DecodeHTML(body []byte, contentType string) (utf8Body []byte, charsetLabel string) {
	enc, label, body := chooseEncoding(body, contentType)
	if enc != nil {
		if out, _, err := transform.Bytes(enc.NewDecoder(), body); err == nil {
			body = out
		} else {
			// Decoders replace invalid bytes rather than fail; an error here
			// means a broken transformer, so keep the bytes as UTF-8.
			body, label = bytes.ToValidUTF8(body, []byte("\uFFFD")), "utf-8"
		}
	} else if !utf8.Valid(body) {
		body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	return normalize(body), label
}

// chooseEncoding returns the decoder to apply (nil for UTF-8), the charset
// name and body with any byte-order mark removed.
func chooseEncoding(body []byte, contentType string) (encoding.Encoding, string, []byte) {
	for _, b := range boms {
		if bytes.HasPrefix(body, b.bom) {
			body = body[len(b.bom):]
			if b.label == "utf-8" {
				return nil, "utf-8", body
			}
			e, name := lookup(b.label)
			return e, name, body
		}
	}
	declared := headerCharset(contentType)
	if declared == "" {
		declared = metaCharset(body)
	}
	if declared != "" {
		e, name := lookup(declared)
		switch {
		case e == nil:
			// Unknown label: as if none was given.
		case name == "utf-8":
			if mostlyUTF8(body) {
				return nil, "utf-8", body
			}
			return detect(body)
		case strings.HasPrefix(name, "utf-16"):
			// Without a BOM a UTF-16 label in ASCII-readable HTML is a lie
			// (WHATWG treats a meta utf-16 as utf-8); trust the bytes.
			return detect(body)
		default:
			if hasNonASCII(body) && utf8.Valid(body) {
				return nil, "utf-8", body
			}
			return e, name, body
		}
	}
	return detect(body)
}

// detect guesses the charset of an undeclared or mislabelled page. Valid
// UTF-8, or UTF-8 with a few stray bytes, is taken as UTF-8 (the common
// case, and chardet over a whole page costs more than parsing it).
func detect(body []byte) (encoding.Encoding, string, []byte) {
	if utf8.Valid(body) || mostlyUTF8(body) {
		return nil, "utf-8", body
	}
	if r, err := chardet.NewHtmlDetector().DetectBest(body); err == nil {
		if e, name := lookup(r.Charset); e != nil && name != "utf-8" && !strings.HasPrefix(name, "utf-16") {
			return e, name, body
		}
	}
	// Invalid UTF-8 the detector cannot place: windows-1252 is WHATWG's
	// default for legacy content and maps every byte.
	e, name := lookup("windows-1252")
	return e, name, body
}

// lookup maps a label to its WHATWG encoding and canonical name.
func lookup(label string) (encoding.Encoding, string) {
	e, err := htmlindex.Get(strings.TrimSpace(label))
	if err != nil {
		return nil, ""
	}
	name, err := htmlindex.Name(e)
	if err != nil {
		return nil, ""
	}
	name = strings.ToLower(name)
	if name == "utf-8" {
		return nil, name
	}
	return e, name
}

func headerCharset(contentType string) string {
	if contentType == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		// Servers send malformed headers such as "text/html; charset=utf-8;";
		// fall back to a plain search for the parameter.
		i := strings.Index(strings.ToLower(contentType), "charset=")
		if i < 0 {
			return ""
		}
		v := contentType[i+len("charset="):]
		if j := strings.IndexAny(v, "; "); j >= 0 {
			v = v[:j]
		}
		return strings.Trim(v, `"'`)
	}
	return params["charset"]
}

// metaCharset is WHATWG's prescan, reduced to what matters: the first
// <meta charset> or <meta http-equiv=content-type content="...charset=...">
// within the first 1024 bytes.
func metaCharset(body []byte) string {
	if len(body) > prescanLimit {
		body = body[:prescanLimit]
	}
	if !bytes.Contains(bytes.ToLower(body), []byte("<meta")) {
		return ""
	}
	z := html.NewTokenizer(bytes.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "meta" || !hasAttr {
				continue
			}
			var httpEquiv bool
			var content, cs string
			for {
				k, v, more := z.TagAttr()
				switch string(k) {
				case "charset":
					cs = string(v)
				case "http-equiv":
					httpEquiv = strings.EqualFold(string(v), "content-type")
				case "content":
					content = string(v)
				}
				if !more {
					break
				}
			}
			if cs != "" {
				return cs
			}
			if httpEquiv && content != "" {
				if c := headerCharset(content); c != "" {
					return c
				}
			}
		}
	}
}

// mostlyUTF8 tells a UTF-8 page with a few stray bytes (kept as UTF-8,
// the strays become U+FFFD) from a legacy page labelled UTF-8 (where
// multi-byte sequences are rare and invalid bytes common).
func mostlyUTF8(b []byte) bool {
	var multi, bad int
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		} else {
			multi++
		}
		i += size
	}
	return multi > 2*bad
}

func hasNonASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

var softHyphen = []byte("\u00AD")

// normalize applies NFC and drops soft hyphens, as go-shiori/dom.Parse does
// for go-trafilatura, so both see the same text. It avoids copies when the
// text is already clean.
func normalize(b []byte) []byte {
	if bytes.Contains(b, softHyphen) {
		b = bytes.ReplaceAll(b, softHyphen, nil)
	}
	if !norm.NFC.IsNormal(b) {
		b = norm.NFC.Bytes(b)
	}
	return b
}

// parseHTML decodes and parses a page once; every engine works on this tree
// so that no library re-detects the charset.
func parseHTML(body []byte, contentType string) (*html.Node, string, error) {
	b, label := DecodeHTML(body, contentType)
	doc, err := html.Parse(bytes.NewReader(b))
	return doc, label, err
}
