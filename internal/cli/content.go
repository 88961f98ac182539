package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/open-markdown/ccrawl/extract"
	"github.com/open-markdown/ccrawl/fetch"
	"github.com/open-markdown/ccrawl/lang"
	"github.com/spf13/cobra"
)

type contentLangOptions struct {
	URL          string
	Timeout      time.Duration
	Extractor    string
	Lang         string
	MinLangConf  float64
	IgnoreRobots bool
	fetchOptions fetch.Options // tests inject a resolver/dialer
}

func newContentCmd(streams IO) *cobra.Command {
	content := &cobra.Command{
		Use:     "content",
		Short:   "Inspect how ccrawl sees one live page",
		Example: "  ccrawl content lang https://example.org/article --lang eng",
	}
	o := &contentLangOptions{}
	langCmd := &cobra.Command{
		Use:   "lang <url>",
		Short: "Fetch one page, extract it, and show the language verdict and the text judged",
		Long: `Fetches the page live (following redirects, with a User-Agent naming ccrawl),
extracts it with the same engine as an export, and prints the language code,
name and confidence, whether the row would pass --lang and the confidence
floor, and the cleaned sample the identifier judged: how to find out why a
page was kept or dropped.`,
		Example: `  ccrawl content lang https://vnexpress.net/
  ccrawl content lang https://example.org/article --lang vie --min-lang-confidence 0.9`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.URL = args[0]
			return runContentLang(cmd.Context(), o, streams)
		},
	}
	f := langCmd.Flags()
	f.DurationVar(&o.Timeout, "timeout", 30*time.Second, "time limit for the fetch")
	f.StringVar(&o.Extractor, "extractor", "trafilatura", "extraction engine: "+strings.Join(extract.Names(), ", "))
	f.StringVar(&o.Lang, "lang", "", "check the verdict against this language (ISO 639-3)")
	f.Float64Var(&o.MinLangConf, "min-lang-confidence", 0.8, "confidence floor")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "do not honour robots.txt")
	content.AddCommand(langCmd)
	return content
}

func runContentLang(ctx context.Context, o *contentLangOptions, streams IO) error {
	if err := validateLang(o.Lang, o.MinLangConf); err != nil {
		return err
	}
	if !strings.HasPrefix(o.URL, "http://") && !strings.HasPrefix(o.URL, "https://") {
		return usagef("%q: give an http:// or https:// URL", o.URL)
	}
	ex, err := extract.New(o.Extractor)
	if err != nil {
		return usagef("--extractor: %v", err)
	}
	fo := o.fetchOptions
	fo.Workers, fo.Timeout, fo.UserAgent, fo.IgnoreRobots = 1, o.Timeout, userAgent(), o.IgnoreRobots
	if fo.MaxBodyBytes == 0 {
		fo.MaxBodyBytes = 16 << 20
	}
	f, err := fetch.New(fo)
	if err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	r := f.Fetch(ctx, o.URL)
	if r.ErrClass != "" {
		return fmt.Errorf("fetch %s: %s: %v", o.URL, r.ErrClass, r.Err)
	}
	md, err := ex.Extract(extract.Page{URL: r.FinalURL, Body: r.Body, ContentType: r.ContentType})
	if err != nil && err != extract.ErrEmpty {
		return fmt.Errorf("extract %s: %v", r.FinalURL, err)
	}
	res, sample := lang.DetectMarkdown(md)
	name := lang.Name(res.Code)
	if res.Code == "" {
		name = "undetermined (too little text)"
	}
	fmt.Fprintf(streams.Out, "url:        %s\n", o.URL)
	if r.FinalURL != o.URL {
		fmt.Fprintf(streams.Out, "final url:  %s\n", r.FinalURL)
	}
	fmt.Fprintf(streams.Out, "status:     %d %s, %d bytes, markdown %d bytes (%s)\n", r.Status, r.ContentType, len(r.Body), len(md), ex.Version())
	fmt.Fprintf(streams.Out, "language:   %s (%s)\n", or(res.Code, "-"), name)
	fmt.Fprintf(streams.Out, "confidence: %.3f\n", res.Confidence)
	verdict := "kept"
	switch {
	case o.Lang == "" && res.Code == "":
		verdict = "no language: a --lang filter would drop it"
	case o.Lang == "" && res.Confidence < o.MinLangConf:
		verdict = fmt.Sprintf("below the %.2f floor: --lang %s would drop it", o.MinLangConf, res.Code)
	case o.Lang == "":
		verdict = fmt.Sprintf("--lang %s would keep it (confidence >= %.2f)", res.Code, o.MinLangConf)
	case res.Code != o.Lang:
		verdict = fmt.Sprintf("--lang %s would drop it (detected %s)", o.Lang, or(res.Code, "nothing"))
	case res.Confidence < o.MinLangConf:
		verdict = fmt.Sprintf("--lang %s would drop it (confidence %.3f < %.2f)", o.Lang, res.Confidence, o.MinLangConf)
	default:
		verdict = fmt.Sprintf("--lang %s would keep it", o.Lang)
	}
	fmt.Fprintf(streams.Out, "verdict:    %s\n", verdict)
	fmt.Fprintf(streams.Out, "sample judged (%d bytes):\n%s\n", len(sample), sample)
	return nil
}
