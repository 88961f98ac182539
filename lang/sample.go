package lang

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

const (
	// SampleBytes bounds Sample's output: a few KB decide the language of
	// any page, so long pages cost no more than short ones.
	SampleBytes = 4096
	// maxSampleInput bounds how much Markdown Sample reads looking for
	// SampleBytes of text, for pages that are almost all links or code.
	maxSampleInput = 256 << 10
)

// Sample returns the text of a Markdown document that is worth judging:
// link and image targets, bare URLs, autolinks, HTML tags, code blocks and
// Markdown punctuation are dropped, link and image text stays, whitespace
// is collapsed, and the result is NFC-normalised (decomposed Vietnamese
// would otherwise look like a different alphabet) and at most SampleBytes.
func Sample(markdown string) string {
	if len(markdown) > maxSampleInput {
		markdown = markdown[:maxSampleInput]
	}
	var b strings.Builder
	b.Grow(min(len(markdown), SampleBytes) + 8)
	fence := ""
	for line := range strings.Lines(markdown) {
		if b.Len() >= SampleBytes {
			break
		}
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		if isRefDefinition(t) {
			continue
		}
		cleanInline(&b, t)
		b.WriteByte(' ')
	}
	s := collapse(b.String())
	s = norm.NFC.String(s)
	if len(s) > SampleBytes {
		cut := SampleBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return strings.TrimSpace(s)
}

// DetectMarkdown identifies the language of a Markdown document and also
// returns the sample it judged, for logging and debugging.
func DetectMarkdown(md string) (Result, string) {
	s := Sample(md)
	return Detect(s), s
}

// isRefDefinition matches a link reference definition: `[id]: url`.
func isRefDefinition(t string) bool {
	if !strings.HasPrefix(t, "[") {
		return false
	}
	i := strings.Index(t, "]:")
	return i > 0 && !strings.ContainsAny(t[:i], "[]")
}

// cleanInline writes s without link targets, URLs, tags and Markdown
// punctuation. Link text is processed recursively so an image inside a
// link keeps its alt text and loses both URLs.
func cleanInline(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '!' && i+1 < len(s) && s[i+1] == '[':
			i++
		case c == '[':
			end := matching(s, i, '[', ']')
			if end < 0 {
				b.WriteByte(' ')
				i++
				continue
			}
			cleanInline(b, s[i+1:end])
			i = end + 1
			if i < len(s) && s[i] == '(' {
				if e := matching(s, i, '(', ')'); e >= 0 {
					i = e + 1
				}
			} else if i < len(s) && s[i] == '[' {
				if e := strings.IndexByte(s[i:], ']'); e >= 0 {
					i += e + 1
				}
			}
			b.WriteByte(' ')
		case c == '<':
			// Autolinks and HTML tags: <https://x>, <a href=...>, </p>.
			if e := strings.IndexByte(s[i:], '>'); e > 0 && i+1 < len(s) && (isASCIILetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!') {
				i += e + 1
				b.WriteByte(' ')
				continue
			}
			b.WriteByte(' ')
			i++
		case (c == 'h' || c == 'w' || c == 'H' || c == 'W') && (i == 0 || !isWordByte(s[i-1])) && isURLStart(s[i:]):
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != ')' && s[i] != ']' {
				i++
			}
			b.WriteByte(' ')
		case c == '&' && entityLen(s[i:]) > 0:
			i += entityLen(s[i:])
			b.WriteByte(' ')
		case c < utf8.RuneSelf && strings.IndexByte("#*_`~|>=\\{}[]()", c) >= 0:
			b.WriteByte(' ')
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b.WriteRune(utf8.RuneError) // keep the evidence of bad bytes for Detect
			} else {
				b.WriteString(s[i : i+n])
			}
			i += n
		}
	}
}

// matching returns the index of the bracket closing the one at s[i], or -1.
func matching(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// entityLen returns the length of an HTML entity (&amp; &#233; &#xE9;) at
// the start of s, or 0; converters leave some, and their letters are noise.
func entityLen(s string) int {
	for j := 1; j < len(s) && j < 12; j++ {
		c := s[j]
		switch {
		case c == ';':
			if j > 1 {
				return j + 1
			}
			return 0
		case c == '#' && j == 1, isASCIILetter(c), c >= '0' && c <= '9':
		default:
			return 0
		}
	}
	return 0
}

func isURLStart(s string) bool {
	if len(s) > 12 {
		s = s[:12]
	}
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "www.")
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isWordByte(c byte) bool { return isASCIILetter(c) || c >= '0' && c <= '9' || c >= utf8.RuneSelf }

// collapse turns runs of whitespace into one space and drops list and
// table-rule dashes that stand alone.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, f := range strings.FieldsFunc(s, unicode.IsSpace) {
		if strings.Trim(f, "-+:.") == "" {
			continue
		}
		if !space {
			b.WriteByte(' ')
		}
		b.WriteString(f)
		space = false
	}
	return b.String()
}
