package extract

import (
	"fmt"
	nurl "net/url"

	readeck "codeberg.org/readeck/go-readability/v2"
	"github.com/go-shiori/dom"
	gt "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/open-markdown/ccrawl/internal/version"
)

const (
	trafilaturaModule = "github.com/markusmobius/go-trafilatura"
	readabilityModule = "codeberg.org/readeck/go-readability/v2"
	markdownModule    = "github.com/JohannesKaufmann/html-to-markdown/v2"
)

// prepare decodes and parses the page and works out its base URL.
func prepare(p Page) (*html.Node, *nurl.URL, error) {
	doc, _, err := parseHTML(p.Body, p.ContentType)
	if err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", p.URL, err)
	}
	base := baseURL(doc, p.URL)
	// Resolve links in the source tree, before any engine sees it:
	// go-trafilatura's own resolution treats the page path as a directory
	// ("a/page.html" + "b.html" -> "a/page.html/b.html").
	resolveLinks(doc, base)
	dropNoscript(doc)
	return doc, base, nil
}

// dropNoscript removes <noscript> elements. With scripting on (as
// html.Parse assumes) their content is raw markup text, which engines would
// copy into the Markdown as "<img src=...>" words; what they hold is
// tracking pixels and "enable JavaScript" notices, not content.
func dropNoscript(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode && c.Data == "noscript" {
			n.RemoveChild(c)
		} else {
			dropNoscript(c)
		}
		c = next
	}
}

// guard turns a library panic on a hostile page into an error, so one page
// cannot take down a worker pool.
func guard(url string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("extract %s: panic: %v", url, r)
	}
}

// trafilaturaEngine is go-trafilatura with readeck's readability as its only
// fallback candidate. go-trafilatura's built-in fallback runs go-shiori's
// readability and go-domdistiller, which cost more than the main extraction
// (0.85x the speed of a plain trafilatura.Extract); with readeck's candidate
// the engine scores the same F (0.910 on go-trafilatura's 983 benchmark
// pages) at 1.17-1.21x, and adding go-domdistiller back changed no result
// (bench/extractcmp).
type trafilaturaEngine struct {
	fallback bool
	links    bool
}

func (trafilaturaEngine) Name() string { return "trafilatura" }
func (trafilaturaEngine) Version() string {
	return "trafilatura@" + version.Module(trafilaturaModule)
}

func (e trafilaturaEngine) Extract(p Page) (md string, err error) {
	defer guard(p.URL, &err)
	doc, base, err := prepare(p)
	if err != nil {
		return "", err
	}
	// The page's spacing must be read before anything mutates the tree.
	text := newPageText(doc)
	opts := gt.Options{
		OriginalURL:     base,
		ExcludeComments: true,
		// Links come back from the page (pageText.link), not from
		// go-trafilatura, whose extraction is worse with IncludeLinks.
		HtmlDateMode: gt.Disabled, // a dataset row has no date column from here
		// Nor metadata or go-trafilatura's own language guess: ccrawl's
		// patch skips them (third_party/go-trafilatura/PATCH.md), 28 % of
		// ExtractDocument's time, content unchanged.
		SkipMetadata: true,
	}
	if e.fallback {
		// An empty element stands in for a candidate we do not want computed
		// (an absent one would make go-trafilatura run its own).
		none := &html.Node{Type: html.ElementNode, Data: "div"}
		cand := readabilityNode(dom.Clone(doc, true), base)
		if cand == nil {
			cand = none
		}
		opts.EnableFallback = true
		opts.FallbackCandidates = &gt.FallbackCandidates{Readability: cand, Distiller: none}
	}
	res, err := gt.ExtractDocument(doc, opts)
	if err != nil || res == nil || res.ContentNode == nil {
		return "", ErrEmpty
	}
	text.respace(res.ContentNode, e.links)
	return render(res.ContentNode)
}

// readabilityNode runs readeck's readability on doc (which it mutates).
func readabilityNode(doc *html.Node, base *nurl.URL) *html.Node {
	p := readeck.NewParser() // a Parser holds per-document state: one per call
	art, err := p.ParseAndMutate(doc, base)
	if err != nil {
		return nil
	}
	return art.Node
}

type readabilityEngine struct{}

func (readabilityEngine) Name() string { return "readability" }
func (readabilityEngine) Version() string {
	return "readability@" + version.Module(readabilityModule)
}

func (readabilityEngine) Extract(p Page) (md string, err error) {
	defer guard(p.URL, &err)
	doc, base, err := prepare(p)
	if err != nil {
		return "", err
	}
	n := readabilityNode(doc, base)
	if n == nil {
		return "", ErrEmpty
	}
	return render(n)
}

// rawEngine renders the whole page, boilerplate included: the control that
// shows what the content engines remove.
type rawEngine struct{}

func (rawEngine) Name() string    { return "raw" }
func (rawEngine) Version() string { return "raw@" + version.Module(markdownModule) }

func (rawEngine) Extract(p Page) (md string, err error) {
	defer guard(p.URL, &err)
	doc, _, err := prepare(p)
	if err != nil {
		return "", err
	}
	if b := dom.QuerySelector(doc, "body"); b != nil {
		return render(b)
	}
	return render(doc)
}
