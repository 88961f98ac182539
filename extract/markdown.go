package extract

import (
	"fmt"
	nurl "net/url"
	"regexp"
	"strings"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html"
)

// mdConv renders every engine's node the same way: CommonMark plus GitHub's
// tables and strikethrough. It keeps no per-document state, so one converter
// serves all goroutines. The list-end comment is off: html-to-markdown writes
// "<!--THE END-->" between adjacent lists to keep them apart, an artefact a
// dataset should not carry (merged adjacent lists lose nothing of the text).
var mdConv = converter.NewConverter(converter.WithPlugins(
	base.NewBasePlugin(),
	commonmark.NewCommonmarkPlugin(commonmark.WithListEndComment(false)),
	table.NewTablePlugin(),
	strikethrough.NewStrikethroughPlugin(),
))

// htmlComment catches any comment the renderer might still emit.
var htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// render converts n to Markdown.
func render(n *html.Node) (string, error) {
	if n == nil {
		return "", ErrEmpty
	}
	b, err := mdConv.ConvertNode(n)
	if err != nil {
		return "", fmt.Errorf("render markdown: %w", err)
	}
	s := string(b)
	if strings.Contains(s, "<!--") {
		s = htmlComment.ReplaceAllString(s, "")
	}
	s = tidy(s)
	if s == "" {
		return "", ErrEmpty
	}
	return s, nil
}

// tidy trims trailing white space of every line outside fenced code (the
// renderer writes no hard breaks, so no meaning is lost) and collapses the
// runs of blank lines left where comments were removed.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	blank := 0
	fence := ""
	for _, l := range lines {
		if t := strings.TrimLeft(l, " "); fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			fence = t[:3]
		} else if fence != "" {
			if strings.HasPrefix(t, fence) && strings.TrimSpace(strings.Trim(t, fence[:1])) == "" {
				fence = ""
			}
			out = append(out, l)
			blank = 0
			continue
		}
		l = strings.TrimRight(l, " \t\r\u00a0")
		if l == "" {
			blank++
			if blank > 1 {
				continue
			}
		} else {
			blank = 0
		}
		out = append(out, l)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

// resolveLinks makes href and src attributes absolute so the Markdown stands
// on its own outside the page.
func resolveLinks(n *html.Node, base *nurl.URL) {
	if base == nil {
		return
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "a" || n.Data == "img") {
			for i, a := range n.Attr {
				if a.Key != "href" && a.Key != "src" {
					continue
				}
				v := strings.TrimSpace(a.Val)
				if v == "" || strings.HasPrefix(v, "#") {
					continue
				}
				if u, err := base.Parse(v); err == nil {
					n.Attr[i].Val = u.String()
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
}

// baseURL is the page URL, or the document's <base href> resolved against it.
func baseURL(doc *html.Node, pageURL string) *nurl.URL {
	u, err := nurl.Parse(pageURL)
	if err != nil || !u.IsAbs() {
		u = nil
	}
	if href := findBase(doc); href != "" {
		if u != nil {
			if b, err := u.Parse(href); err == nil {
				return b
			}
		} else if b, err := nurl.Parse(href); err == nil && b.IsAbs() {
			return b
		}
	}
	return u
}

// findBase returns the first <base href> in the document's head.
func findBase(n *html.Node) string {
	if n.Type == html.ElementNode {
		switch n.Data {
		case "base":
			for _, a := range n.Attr {
				if a.Key == "href" {
					return a.Val
				}
			}
		case "body":
			return ""
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if h := findBase(c); h != "" {
			return h
		}
	}
	return ""
}
