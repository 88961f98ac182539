package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/open-markdown/ccrawl/lang"
	"github.com/spf13/cobra"
)

type langDetectOptions struct {
	Inputs        []string // files; "-" or none means standard input
	Whole         bool     // one identification per input instead of per line
	Markdown      bool     // clean input as Markdown (lang.Sample) before judging
	Output        string   // "tsv" or "jsonl"
	MinConfidence float64  // labels below this are printed empty
	Workers       int
}

// maxLine bounds one input line; extracted pages can be one long line.
const maxLine = 64 << 20

// wholeLimit is how much of each file --whole reads.
const wholeLimit = 1 << 20

func newLangCmd(streams IO) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lang",
		Short: "Identify the language of text",
		Example: `  echo "Hà Nội là thủ đô của Việt Nam" | ccrawl lang detect
  ccrawl lang detect --whole -o jsonl page1.md page2.md`,
	}
	cmd.AddCommand(newLangDetectCmd(streams))
	return cmd
}

func newLangDetectCmd(streams IO) *cobra.Command {
	opts := langDetectOptions{}
	cmd := &cobra.Command{
		Use:   "detect [FILE|-]...",
		Short: "Print the ISO 639-3 language and confidence of each line (or whole file)",
		Long: `Identify the language of each input line, or of each whole file with --whole,
and print "code<TAB>confidence<TAB>text" (with --whole the text column is the
file name), or with -o jsonl one {"language","confidence","text"} object per
line. The language is empty when the text is too short to tell or, with
--min-confidence, when the identifier is less sure than that. Output order is
input order.`,
		Example: `  echo "Hà Nội là thủ đô của Việt Nam" | ccrawl lang detect
  ccrawl lang detect -o jsonl --min-confidence 0.8 sentences.txt
  ccrawl lang detect --whole --markdown page1.md page2.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Inputs = args
			return runLangDetect(cmd.Context(), opts, streams)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Whole, "whole", false, "identify each input file as a whole (its first MiB) instead of line by line")
	f.BoolVar(&opts.Markdown, "markdown", false, "treat input as Markdown: drop link targets, URLs and markup before judging")
	f.StringVarP(&opts.Output, "output", "o", "tsv", "output format: tsv or jsonl")
	f.Float64Var(&opts.MinConfidence, "min-confidence", 0, "print an empty language when confidence is below this (0..1)")
	f.IntVar(&opts.Workers, "workers", runtime.GOMAXPROCS(0), "lines identified in parallel")
	return cmd
}

func runLangDetect(ctx context.Context, opts langDetectOptions, streams IO) error {
	if opts.Output != "tsv" && opts.Output != "jsonl" {
		return usagef("--output %q: want tsv or jsonl", opts.Output)
	}
	if opts.MinConfidence < 0 || opts.MinConfidence > 1 {
		return usagef("--min-confidence %v: want a number from 0 to 1", opts.MinConfidence)
	}
	if opts.Workers < 1 {
		return usagef("--workers %d: want at least 1", opts.Workers)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	inputs := opts.Inputs
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	w := bufio.NewWriterSize(streams.Out, 1<<16)
	for _, name := range inputs {
		if err := detectInput(ctx, opts, streams, name, w); err != nil {
			w.Flush()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}

func detectInput(ctx context.Context, opts langDetectOptions, streams IO, name string, w *bufio.Writer) error {
	var r io.Reader = streams.In
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("open input: %w", err)
		}
		defer f.Close()
		r = f
	}
	if r == nil {
		return usagef("no input: pass a FILE or pipe text to standard input")
	}
	if opts.Whole {
		// The identifier looks at the first few KB at most; a bound here
		// keeps a huge file from being read whole for nothing.
		b, err := io.ReadAll(io.LimitReader(r, wholeLimit))
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
		return writeResult(w, opts, identify(opts, string(b)), name)
	}
	return detectLines(ctx, opts, r, name, w)
}

func identify(opts langDetectOptions, text string) lang.Result {
	var res lang.Result
	if opts.Markdown {
		res, _ = lang.DetectMarkdown(text)
	} else {
		res = lang.Detect(text)
	}
	if res.Confidence < opts.MinConfidence {
		res.Code = ""
	}
	return res
}

// batch is a run of consecutive lines identified by one worker; batches are
// written in the order they were read, so output order is input order.
type batch struct {
	lines   []string
	results []lang.Result
	done    chan struct{}
}

const batchLines = 256

func detectLines(ctx context.Context, opts langDetectOptions, r io.Reader, name string, w *bufio.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)

	work := make(chan *batch)
	ordered := make(chan *batch, 2*opts.Workers)
	for i := 0; i < opts.Workers; i++ {
		go func() {
			for b := range work {
				b.results = make([]lang.Result, len(b.lines))
				for j, l := range b.lines {
					b.results[j] = identify(opts, l)
				}
				close(b.done)
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(ordered)
		defer close(work)
		b := &batch{done: make(chan struct{})}
		for sc.Scan() {
			b.lines = append(b.lines, sc.Text())
			if len(b.lines) == batchLines {
				if !send(ctx, work, ordered, b) {
					readErr <- ctx.Err()
					return
				}
				b = &batch{done: make(chan struct{})}
			}
		}
		if len(b.lines) > 0 && !send(ctx, work, ordered, b) {
			readErr <- ctx.Err()
			return
		}
		if err := sc.Err(); err != nil {
			readErr <- fmt.Errorf("read %s: %w (lines are limited to %d MiB)", name, err, maxLine>>20)
			return
		}
		readErr <- nil
	}()
	var writeErr error
	for b := range ordered {
		<-b.done
		if b.results == nil { // cancelled before a worker took it
			continue
		}
		for j, l := range b.lines {
			if writeErr == nil {
				writeErr = writeResult(w, opts, b.results[j], l)
			}
		}
	}
	if err := <-readErr; err != nil {
		return err
	}
	return writeErr
}

func send(ctx context.Context, work, ordered chan<- *batch, b *batch) bool {
	select {
	case ordered <- b:
	case <-ctx.Done():
		return false
	}
	select {
	case work <- b:
		return true
	case <-ctx.Done():
		close(b.done)
		return false
	}
}

func writeResult(w *bufio.Writer, opts langDetectOptions, r lang.Result, text string) error {
	var err error
	if opts.Output == "jsonl" {
		var line []byte
		line, err = json.Marshal(struct {
			Language   string  `json:"language"`
			Confidence float64 `json:"confidence"`
			Text       string  `json:"text"`
		}{r.Code, r.Confidence, text})
		if err == nil {
			line = append(line, '\n')
			_, err = w.Write(line)
		}
	} else {
		_, err = fmt.Fprintf(w, "%s\t%s\t%s\n", r.Code, strconv.FormatFloat(r.Confidence, 'f', 4, 64), text)
	}
	if err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	return nil
}
