// Package extract turns one raw HTML payload into Markdown: it decodes the
// charset (WHATWG order, with repairs for mislabelled pages), parses the page
// once, picks the main content with an engine (go-trafilatura by default,
// readeck's readability, or the whole page) and renders it as GitHub-flavoured
// Markdown with html-to-markdown.
//
// It deliberately does not read WARC records, fetch pages, detect languages or
// decide which pages to keep: it sees one page at a time and keeps no state
// between pages, so any number of goroutines may share an Extractor.
package extract

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Page is one HTTP payload to extract.
type Page struct {
	URL         string // page URL (relative links are resolved against it)
	Body        []byte // raw HTTP payload bytes, any charset
	ContentType string // HTTP Content-Type header value ("" if none)
}

// Extractor turns a page into Markdown. Implementations are safe for
// concurrent use.
type Extractor interface {
	// Name is the engine name accepted by New.
	Name() string
	// Version is "name@<library module version>", for the dataset's
	// extractor column.
	Version() string
	// Extract returns the page's main content as Markdown, ErrEmpty when the
	// engine finds none.
	Extract(p Page) (markdown string, err error)
}

var (
	// ErrEmpty means the engine found no content in the page.
	ErrEmpty = errors.New("extract: no content")
	// ErrTimeout means the page took longer than the WithTimeout budget.
	ErrTimeout = errors.New("extract: timed out")
)

// engines maps each name to its constructor; the first in Names is the
// default.
var engines = map[string]func(config) Extractor{
	"trafilatura": func(c config) Extractor { return trafilaturaEngine{fallback: c.fallback, links: c.links} },
	"readability": func(config) Extractor { return readabilityEngine{} },
	"raw":         func(config) Extractor { return rawEngine{} },
}

// config holds the engine options; the zero Option list gives the measured
// defaults.
type config struct {
	fallback bool
	links    bool
}

// Option adjusts an engine; engines ignore options that do not apply.
type Option func(*config)

// Fallback sets whether the trafilatura engine weighs readability's result
// against its own (default true: F 0.910 instead of 0.902 on go-trafilatura's
// benchmark, for about 1.45x the CPU time; see bench/extractcmp).
func Fallback(on bool) Option { return func(c *config) { c.fallback = on } }

// Links sets whether the trafilatura engine keeps links as Markdown links
// (default true). They are restored from the page around the extracted
// text: go-trafilatura's own IncludeLinks changes its content selection,
// which cost 0.0016 F on its benchmark (0.9086 against 0.9102). The other
// engines always keep links.
func Links(on bool) Option { return func(c *config) { c.links = on } }

// Default is the engine used when none is named.
const Default = "trafilatura"

// Names lists the engine names New accepts, the default first.
func Names() []string {
	names := make([]string, 0, len(engines))
	for n := range engines {
		if n != Default {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{Default}, names...)
}

// New returns the named engine ("" selects Default).
func New(name string, opts ...Option) (Extractor, error) {
	if name == "" {
		name = Default
	}
	mk, ok := engines[name]
	if !ok {
		return nil, fmt.Errorf("unknown extractor %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	c := config{fallback: true, links: true}
	for _, o := range opts {
		o(&c)
	}
	return mk(c), nil
}

// WithTimeout bounds the time e may spend on one page. A page over budget
// returns ErrTimeout at once, but the extraction keeps running in its
// goroutine until it finishes on its own: the libraries offer no way to stop
// it, so a pathological page still costs its CPU time. The budget protects
// the caller's progress, not the machine.
func WithTimeout(e Extractor, d time.Duration) Extractor {
	if d <= 0 {
		return e
	}
	return timeoutExtractor{e: e, d: d}
}

type timeoutExtractor struct {
	e Extractor
	d time.Duration
}

func (t timeoutExtractor) Name() string    { return t.e.Name() }
func (t timeoutExtractor) Version() string { return t.e.Version() }

func (t timeoutExtractor) Extract(p Page) (string, error) {
	type result struct {
		md  string
		err error
	}
	ch := make(chan result, 1) // buffered: an abandoned goroutine must not block forever
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{err: fmt.Errorf("extract %s: panic: %v", p.URL, r)}
			}
		}()
		md, err := t.e.Extract(p)
		ch <- result{md, err}
	}()
	timer := time.NewTimer(t.d)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.md, r.err
	case <-timer.C:
		return "", fmt.Errorf("%s after %v: %w", p.URL, t.d, ErrTimeout)
	}
}
