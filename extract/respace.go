package extract

import (
	"bytes"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// pageText is the visible text of the source document with its white space
// squeezed out, plus, for every remaining byte, whether the page separated it
// from the previous one (white space, a block boundary or a <br>).
//
// go-trafilatura trims the text around inline elements ("in your
// <code>Dockerfile</code>to ensure"), which glues words in any rendering of
// its content node. Comparing the content's text with the page's own spacing
// restores exactly the separations the page had and adds none it did not,
// so the repair cannot invent or split words.
//
// The same alignment gives links back: go-trafilatura's content selection is
// better without its link handling (see Links), so links are taken from the
// page's <a href> spans over the aligned text instead.
type pageText struct {
	sq    []byte     // non-space bytes of the page text, in document order
	sep   []bool     // sep[i]: the page had a separation right before sq[i]
	links []linkSpan // the page's links over sq, ordered by start
	// budget is how many more bytes of sq find may scan.
	budget int
}

// linkSpan is an <a href> of the page covering sq[start:end].
type linkSpan struct {
	start, end int
	href       string
}

func newPageText(doc *html.Node) *pageText {
	p := &pageText{sq: make([]byte, 0, 4096), sep: make([]bool, 0, 4096)}
	pending := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			s := n.Data
			for i := 0; i < len(s); {
				r, size := utf8.DecodeRuneInString(s[i:])
				if unicode.IsSpace(r) {
					pending = true
				} else {
					for k := 0; k < size; k++ {
						p.sq = append(p.sq, s[i+k])
						p.sep = append(p.sep, pending && k == 0)
					}
					pending = false
				}
				i += size
			}
			return
		case html.ElementNode:
			switch n.Data {
			case "script", "style", "noscript", "template", "head":
				return
			}
			if !isInline(n.Data) {
				pending = true
			}
		}
		start := len(p.sq)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type == html.ElementNode {
			if !isInline(n.Data) {
				pending = true
			} else if n.Data == "a" && len(p.sq) > start {
				if href := linkTarget(n); href != "" {
					p.links = append(p.links, linkSpan{start, len(p.sq), href})
				}
			}
		}
	}
	walk(doc)
	p.budget = 64*len(p.sq) + 1<<20
	return p
}

// linkTarget is the href worth keeping in a dataset: not empty, not an
// in-page anchor, not script.
func linkTarget(a *html.Node) string {
	for _, at := range a.Attr {
		if at.Key != "href" {
			continue
		}
		v := strings.TrimSpace(at.Val)
		if v == "" || strings.HasPrefix(v, "#") || strings.HasPrefix(strings.ToLower(v), "javascript:") {
			return ""
		}
		return v
	}
	return ""
}

// find locates the squeezed text s at or after from, else anywhere.
// Content mostly follows page order, so a search rarely scans far; the
// budget (64 passes over the page) keeps a page whose content cannot be
// located from costing len(content nodes) x len(page).
func (p *pageText) find(s []byte, from int) int {
	if p.budget <= 0 {
		return -1
	}
	if from < len(p.sq) {
		if i := bytes.Index(p.sq[from:], s); i >= 0 {
			p.budget -= i + len(s)
			return from + i
		}
		p.budget -= len(p.sq) - from
	}
	p.budget -= len(p.sq)
	return bytes.Index(p.sq, s)
}

// respace restores the page's spacing in the text nodes of content, in place,
// and with withLinks also the page's links around the text they covered.
func (p *pageText) respace(content *html.Node, withLinks bool) {
	type located struct {
		n *html.Node
		m int
	}
	var linkable []located
	var (
		cursor  int
		prev    *html.Node // previous text node in the same block, if any
		prevEnd = -1       // its end in sq, -1 if it was not found
		squeeze []byte
		had     []bool
	)
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if strings.TrimSpace(n.Data) == "" {
				if n.Data != "" && prev != nil {
					prev = nil // white space already separates the neighbours
				}
				return
			}
			squeeze, had = squeezeText(n.Data, squeeze[:0], had[:0])
			m := p.find(squeeze, cursor)
			if m >= 0 {
				n.Data = p.restore(n.Data, m, had)
				cursor = m + len(squeeze)
				// Very short texts are located ambiguously; do not link them.
				if withLinks && len(squeeze) >= 3 && !inside(n, "a", "code", "kbd", "samp", "tt") {
					linkable = append(linkable, located{n, m})
				}
			}
			if prev != nil && glued(prev.Data, n.Data) {
				// A boundary between two text nodes: separate them when the
				// page did, or when they were not adjacent in the page
				// (something trafilatura dropped stood between them).
				// Unlocated text (rare) is separated only between two word
				// characters, where gluing would surely make a new word.
				var sep bool
				if m >= 0 && prevEnd >= 0 {
					sep = prevEnd != m || p.sep[m]
				} else {
					sep = isWordRune(lastRune(prev.Data)) && isWordRune(firstRune(n.Data))
				}
				if sep {
					separate(prev, n)
				}
			}
			prev = n
			prevEnd = -1
			if m >= 0 {
				prevEnd = m + len(squeeze)
			}
			return
		case html.ElementNode:
			switch n.Data {
			case "pre":
				prev = nil
				return // code keeps its own white space
			case "br", "hr":
				prev = nil // rendered as a line break
			}
			// Other elements are not boundaries: go-trafilatura leaves table
			// cells and blocks in places where the renderer writes them
			// inline, and a space at a real block start is dropped by it.
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(content)
	// Linking splits text nodes, so it runs after the walk.
	for _, l := range linkable {
		p.link(l.n, l.m)
	}
}

// link wraps the parts of text node n (located at sq[m:]) that the page had
// inside links in <a href> elements.
func (p *pageText) link(n *html.Node, m int) {
	// For every squeezed byte, where its rune starts and ends in n.Data.
	var starts, ends []int
	for i := 0; i < len(n.Data); {
		r, size := utf8.DecodeRuneInString(n.Data[i:])
		if !unicode.IsSpace(r) {
			for k := 0; k < size; k++ {
				starts = append(starts, i)
				ends = append(ends, i+size)
			}
		}
		i += size
	}
	end := m + len(starts)
	// First link ending after m: links are ordered and do not overlap.
	i := sort.Search(len(p.links), func(i int) bool { return p.links[i].end > m })
	type cut struct {
		from, to int
		href     string
	}
	var cuts []cut
	for ; i < len(p.links) && p.links[i].start < end; i++ {
		l := p.links[i]
		a, b := max(l.start, m)-m, min(l.end, end)-m
		cuts = append(cuts, cut{starts[a], ends[b-1], l.href})
	}
	if len(cuts) == 0 {
		return
	}
	parent, next := n.Parent, n.NextSibling
	if parent == nil {
		return
	}
	data := n.Data
	parent.RemoveChild(n)
	add := func(node *html.Node) { parent.InsertBefore(node, next) }
	pos := 0
	for _, c := range cuts {
		if c.from > pos {
			add(&html.Node{Type: html.TextNode, Data: data[pos:c.from]})
		}
		a := &html.Node{Type: html.ElementNode, Data: "a", Attr: []html.Attribute{{Key: "href", Val: c.href}}}
		a.AppendChild(&html.Node{Type: html.TextNode, Data: data[c.from:c.to]})
		add(a)
		pos = c.to
	}
	if pos < len(data) {
		add(&html.Node{Type: html.TextNode, Data: data[pos:]})
	}
}

// inside reports whether n has an ancestor element with one of the tags.
func inside(n *html.Node, tags ...string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && slices.Contains(tags, p.Data) {
			return true
		}
	}
	return false
}

// separate puts a space between text nodes prev and cur, outside any inline
// element that cur opens: a space inside <code> or <kbd> would be trimmed by
// the renderer's code span (`with <kbd>C-c</kbd>` must not become "with`C-c`").
func separate(prev, cur *html.Node) {
	x := cur
	for p := x.Parent; p != nil && p.FirstChild == x && p.Type == html.ElementNode && isInline(p.Data) && !contains(p, prev); p = x.Parent {
		x = p
	}
	if x == cur {
		cur.Data = " " + cur.Data
		return
	}
	x.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: " "}, x)
}

func contains(n, d *html.Node) bool {
	for ; d != nil; d = d.Parent {
		if d == n {
			return true
		}
	}
	return false
}

// restore re-inserts, inside s (found at sq[m:]), a space wherever the page
// separated two characters that s has glued.
func (p *pageText) restore(s string, m int, had []bool) string {
	var b *strings.Builder
	j := 0 // index into the squeezed form
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			if b != nil {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		if j > 0 && !had[j] && p.sep[m+j] {
			if b == nil {
				b = &strings.Builder{}
				b.Grow(len(s) + 8)
				b.WriteString(s[:i])
			}
			b.WriteByte(' ')
		}
		if b != nil {
			b.WriteString(s[i : i+size])
		}
		i += size
		j += size
	}
	if b == nil {
		return s
	}
	return b.String()
}

// squeezeText drops the white space of s; had[j] tells whether s had white
// space right before squeezed byte j.
func squeezeText(s string, sq []byte, had []bool) ([]byte, []bool) {
	pending := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			pending = true
		} else {
			for k := 0; k < size; k++ {
				sq = append(sq, s[i+k])
				had = append(had, pending && k == 0)
			}
			pending = false
		}
		i += size
	}
	return sq, had
}

func glued(left, right string) bool {
	l, r := lastRune(left), firstRune(right)
	return l != utf8.RuneError && r != utf8.RuneError && !unicode.IsSpace(l) && !unicode.IsSpace(r)
}

func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }
func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isInline reports whether an element flows within a line of text; anything
// else separates the text around it.
func isInline(tag string) bool {
	switch tag {
	case "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font",
		"i", "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong",
		"sub", "sup", "time", "tt", "u", "var", "label", "img", "wbr", "big", "nobr", "hi":
		return true
	}
	return false
}
