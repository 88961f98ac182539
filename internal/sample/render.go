package sample

import (
	"fmt"
	"html"
	"regexp"
	"strings"
)

// site is the chrome a page is served in: the same article appears on
// different sites (charset twins, near duplicates), which changes the
// boilerplate but not the main text.
type site struct {
	name   string
	lang   string // ISO 639-3, picks the boilerplate
	footer string // replaces the language's footer sentence when set
}

// pageOpts are the per-page variations that matter to decoders.
type pageOpts struct {
	charsetTag string // the <meta> that declares the charset, "" for none
	xhtml      bool   // well-formed XHTML with an XML declaration
	date       string // replaces the article's date line when set
}

var htmlLang = map[string]string{
	"eng": "en", "deu": "de", "fra": "fr", "spa": "es", "por": "pt", "ita": "it",
	"pol": "pl", "nld": "nl", "vie": "vi", "rus": "ru", "jpn": "ja", "zho": "zh-CN",
	"ind": "id", "tur": "tr", "ara": "ar",
}

var (
	linkRE = regexp.MustCompile(`\[([^\]]+)\]\(([^)]+)\)`)
	boldRE = regexp.MustCompile(`\*\*([^*]+)\*\*`)
)

// inline escapes text and then turns [text](url) and **b** into HTML.
func inline(s string) string {
	s = html.EscapeString(s)
	s = linkRE.ReplaceAllString(s, `<a href="$2">$1</a>`)
	return boldRE.ReplaceAllString(s, `<strong>$1</strong>`)
}

// bodyHTML renders the article markup described in content.go.
func bodyHTML(markup string) string {
	var b strings.Builder
	var para []string
	inList, inCode := false, false
	var table [][]string
	flushPara := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	flushList := func() {
		if inList {
			b.WriteString("</ul>\n")
			inList = false
		}
	}
	flushTable := func() {
		if len(table) == 0 {
			return
		}
		b.WriteString("<table>\n")
		for i, row := range table {
			cell := "td"
			if i == 0 {
				cell = "th"
				b.WriteString("<thead>")
			}
			if i == 1 {
				b.WriteString("<tbody>\n")
			}
			b.WriteString("<tr>")
			for _, c := range row {
				b.WriteString("<" + cell + ">" + inline(c) + "</" + cell + ">")
			}
			b.WriteString("</tr>")
			if i == 0 {
				b.WriteString("</thead>")
			}
			b.WriteString("\n")
		}
		if len(table) > 1 {
			b.WriteString("</tbody>\n")
		}
		b.WriteString("</table>\n")
		table = nil
	}
	flush := func() { flushPara(); flushList(); flushTable() }
	for _, line := range strings.Split(markup, "\n") {
		switch {
		case line == "```":
			flush()
			if inCode {
				b.WriteString("</code></pre>\n")
			} else {
				b.WriteString("<pre><code>")
			}
			inCode = !inCode
		case inCode:
			b.WriteString(html.EscapeString(line) + "\n")
		case strings.TrimSpace(line) == "":
			flush()
		case strings.HasPrefix(line, "## "):
			flush()
			b.WriteString("<h2>" + inline(line[3:]) + "</h2>\n")
		case strings.HasPrefix(line, "- "):
			flushPara()
			flushTable()
			if !inList {
				b.WriteString("<ul>\n")
				inList = true
			}
			b.WriteString("<li>" + inline(line[2:]) + "</li>\n")
		case strings.HasPrefix(line, "| "):
			flushPara()
			flushList()
			var row []string
			for _, c := range strings.Split(strings.Trim(line, "| "), " | ") {
				row = append(row, strings.TrimSpace(c))
			}
			table = append(table, row)
		default:
			flushList()
			flushTable()
			para = append(para, line)
		}
	}
	flush()
	return b.String()
}

// plainText is the article's main text without markup: what an extractor
// should keep, used for word counts and probes.
func plainText(markup string) string {
	var out []string
	for _, line := range strings.Split(markup, "\n") {
		if line == "```" {
			continue
		}
		line = strings.TrimPrefix(line, "## ")
		line = strings.TrimPrefix(line, "- ")
		line = linkRE.ReplaceAllString(line, "$1")
		line = boldRE.ReplaceAllString(line, "$1")
		line = strings.ReplaceAll(strings.Trim(line, "| "), " | ", " ")
		if line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// firstSentence is the opening sentence of the article's first paragraph,
// a string the extracted Markdown must contain.
func firstSentence(markup string) string {
	p, _, _ := strings.Cut(markup, "\n")
	p = linkRE.ReplaceAllString(p, "$1")
	for i, r := range p {
		if (r == '.' || r == '。' || r == '?' || r == '!') && i > 20 {
			return p[:i+len(string(r))]
		}
	}
	return p
}

// chrome renders everything around the main content: head, header, nav,
// cookie notice, and after main the footer.
func chrome(title, lang string, s site, o pageOpts, main string) string {
	bp := boilers[s.lang]
	footer := bp.footer
	if s.footer != "" {
		footer = s.footer
	}
	end := ">"
	if o.xhtml {
		end = " />"
	}
	var b strings.Builder
	if o.xhtml {
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	}
	b.WriteString("<!DOCTYPE html>\n")
	attrs := fmt.Sprintf(`lang="%s"`, htmlLang[lang])
	if o.xhtml {
		attrs = fmt.Sprintf(`xmlns="http://www.w3.org/1999/xhtml" lang="%s" xml:lang="%s"`, htmlLang[lang], htmlLang[lang])
	}
	if lang == "ara" {
		attrs += ` dir="rtl"`
	}
	b.WriteString("<html " + attrs + ">\n<head>\n")
	if o.charsetTag != "" {
		b.WriteString(o.charsetTag + "\n")
	}
	b.WriteString("<title>" + html.EscapeString(title) + " | " + html.EscapeString(s.name) + "</title>\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1"` + end + "\n")
	b.WriteString(`<link rel="stylesheet" href="/assets/site.css"` + end + "\n")
	b.WriteString("</head>\n<body>\n")
	b.WriteString(`<header class="site-header">` + "\n")
	b.WriteString(`<a class="logo" href="/">` + html.EscapeString(s.name) + "</a>\n")
	b.WriteString(`<nav class="main-nav"><ul>`)
	for i, href := range []string{"/", "/topics/", "/about/", "/contact/"} {
		b.WriteString(`<li><a href="` + href + `">` + html.EscapeString(bp.nav[i]) + "</a></li>")
	}
	b.WriteString("</ul></nav>\n</header>\n")
	b.WriteString(`<div class="cookie-notice" role="dialog"><p>` + html.EscapeString(bp.cookie) + `</p><button type="button">OK</button></div>` + "\n")
	b.WriteString(main)
	b.WriteString(`<footer class="site-footer">` + "\n")
	b.WriteString("<p>&#169; 2026 " + html.EscapeString(s.name) + ". " + html.EscapeString(footer) + "</p>\n")
	b.WriteString(`<p><a href="/privacy/">` + html.EscapeString(bp.nav[2]) + `</a> &#183; <a href="/contact/">` + html.EscapeString(bp.nav[3]) + "</a></p>\n")
	b.WriteString("</footer>\n</body>\n</html>\n")
	return b.String()
}

// articlePage renders a in site s. related lists other articles of the
// same language for the aside, so the page links out like a real one.
func articlePage(a article, s site, o pageOpts, related []article) string {
	date := a.date
	if o.date != "" {
		date = o.date
	}
	var m strings.Builder
	m.WriteString("<main>\n<article>\n")
	m.WriteString("<h1>" + html.EscapeString(a.title) + "</h1>\n")
	m.WriteString(`<p class="dateline">` + html.EscapeString(date) + "</p>\n")
	m.WriteString(bodyHTML(a.body))
	m.WriteString("</article>\n")
	if len(related) > 0 {
		m.WriteString(`<aside class="related"><h2>` + html.EscapeString(boilers[s.lang].related) + "</h2><ul>\n")
		for _, r := range related {
			m.WriteString(`<li><a href="/` + r.key + `/">` + html.EscapeString(r.title) + "</a></li>\n")
		}
		m.WriteString("</ul></aside>\n")
	}
	m.WriteString("</main>\n")
	return chrome(a.title, a.lang, s, o, m.String())
}

// newsHomePage renders the Vietnamese front page of headline links.
func newsHomePage(s site) string {
	var m strings.Builder
	m.WriteString("<main>\n<h1>" + html.EscapeString(newsHome.title) + "</h1>\n")
	for _, sec := range newsHome.sections {
		m.WriteString(`<section class="category">` + "\n<h2>" + html.EscapeString(sec.name) + "</h2>\n<ul>\n")
		for _, l := range sec.links {
			m.WriteString(`<li><a href="` + l.href + `">` + html.EscapeString(l.text) + "</a></li>\n")
		}
		m.WriteString("</ul>\n</section>\n")
	}
	m.WriteString("</main>\n")
	return chrome(newsHome.title, "vie", s, pageOpts{charsetTag: `<meta charset="utf-8">`}, m.String())
}

// newsHomeText is the headline text of the news front page.
func newsHomeText() string {
	var out []string
	for _, sec := range newsHome.sections {
		out = append(out, sec.name)
		for _, l := range sec.links {
			out = append(out, l.text)
		}
	}
	return strings.Join(out, "\n")
}

const notFoundPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>404 Not Found</title>
</head>
<body>
<h1>Page not found</h1>
<p>The recipe you are looking for has been moved or no longer exists.</p>
<p><a href="/">Back to the front page</a></p>
</body>
</html>
`

const comingSoonPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Coming soon</title>
<style>body{font-family:sans-serif;text-align:center;margin-top:20vh}</style>
</head>
<body>
<h1>Coming soon</h1>
<p>Something new is on its way.</p>
</body>
</html>
`

const robotsText = `# robots.txt for tintuc.example (ccrawl sample)
User-agent: *
Disallow: /tim-kiem/
Disallow: /dang-nhap/
Allow: /

Sitemap: https://tintuc.example/sitemap.xml
`
