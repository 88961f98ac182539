package extract

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func mustParse(t *testing.T, s string) *html.Node {
	t.Helper()
	n, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestRespace feeds respace a page and a content tree with the white space
// go-trafilatura typically trims, and checks the rendered Markdown.
func TestRespace(t *testing.T) {
	tests := []struct {
		name, page, content, want string
	}{
		{"space after inline code", `<p>in your <code>Dockerfile</code> to ensure</p>`,
			`<p>in your<code>Dockerfile</code>to ensure</p>`, "in your `Dockerfile` to ensure"},
		{"no space before punctuation", `<p>Eat <a href="/x">Flammkuchen</a>, morgen</p>`,
			`<p>Eat<a href="/x">Flammkuchen</a>, morgen</p>`, "Eat [Flammkuchen](/x), morgen"},
		{"word split by markup stays whole", `<p>foo<b>bar</b> baz</p>`,
			`<p>foo<b>bar</b>baz</p>`, "foo**bar** baz"},
		{"space outside a code span", `<p>with <kbd>C-c</kbd> press</p>`,
			`<p>with<kbd>C-c</kbd>press</p>`, "with `C-c` press"},
		{"cells merged into one text", "<table><tr><td>30. Auflage</td>\n<td>Tabellen-</td></tr></table>",
			`<p>30. AuflageTabellen-</p>`, "30\\. Auflage Tabellen-"},
		{"dropped text between nodes", `<p>Read <a>this</a><span class=ad>AD</span>now</p>`,
			`<p>Read<a>this</a>now</p>`, "Read [this]() now"},
		{"link restored from the page", `<p>See the <a href="https://e.com/g">pegboard guide</a> first.</p>`,
			`<p>See the pegboard guide first.</p>`, "See the [pegboard guide](https://e.com/g) first."},
		{"link over two text nodes", `<p>Buy <a href="/s">hooks <b>and</b> pegs</a> here</p>`,
			`<p>Buy hooks <b>and</b> pegs here</p>`, "Buy [hooks](/s) [**and**](/s) [pegs](/s) here"},
		{"anchors and scripts are no links", `<p><a href="#top">Back to top</a> or <a href="javascript:x()">run this</a></p>`,
			`<p>Back to top or run this</p>`, "Back to top or run this"},
		{"code block untouched", "<pre>a  b</pre>", "<pre>a  b</pre>", "```\na  b\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pt := newPageText(mustParse(t, tt.page))
			content := mustParse(t, tt.content)
			pt.respace(content, true)
			got, err := render(content)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
