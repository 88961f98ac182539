package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/spf13/cobra"
)

type headOptions struct {
	Paths  []string
	N      int
	Fields []string
	Output string
	Width  int
}

var defaultHeadFields = []string{"url", "language", "language_confidence", "markdown_length", "markdown"}

func newHeadCmd(streams IO) *cobra.Command {
	o := &headOptions{}
	cmd := &cobra.Command{
		Use:   "head <parquet|dir>...",
		Short: "Print the first rows of ccrawl Parquet files",
		Example: `  ccrawl head out                      # first 5 rows under out/, as a table
  ccrawl head out -n 20 --fields url,language,simhash
  ccrawl head out/data/crawl=local/000000.parquet -o jsonl -n 1 | jq -r .markdown`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Paths = args
			return runHead(cmd.Context(), o, streams)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&o.N, "n", "n", 5, "rows to print (0 = all)")
	f.StringSliceVar(&o.Fields, "fields", defaultHeadFields, "columns to print, comma-separated")
	f.StringVarP(&o.Output, "output", "o", "table", "table or jsonl")
	f.IntVar(&o.Width, "width", 60, "table mode: longest cell, in characters (markdown is shown on one line)")
	return cmd
}

func runHead(ctx context.Context, o *headOptions, streams IO) error {
	if o.Output != "table" && o.Output != "jsonl" {
		return usagef("-o %q: must be table or jsonl", o.Output)
	}
	if o.N < 0 {
		return usagef("-n must be >= 0")
	}
	files, err := dataset.FindFiles(o.Paths)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no .parquet files under %s", strings.Join(o.Paths, " "))
	}
	var tw *tabwriter.Writer
	if o.Output == "table" {
		tw = tabwriter.NewWriter(streams.Out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(o.Fields, "\t"))
	}
	printed := 0
	for _, path := range files {
		if o.N > 0 && printed >= o.N {
			break
		}
		f, err := dataset.Open(path)
		if err != nil {
			return err
		}
		err = f.EachRecord(o.Fields, func(rec map[string]any) error {
			if o.N > 0 && printed >= o.N {
				return io.EOF
			}
			printed++
			if tw == nil {
				ordered := make([]byte, 0, 256)
				ordered = append(ordered, '{')
				for i, k := range o.Fields {
					if i > 0 {
						ordered = append(ordered, ',')
					}
					kb, _ := json.Marshal(k)
					vb, _ := json.Marshal(rec[k])
					ordered = append(append(append(ordered, kb...), ':'), vb...)
				}
				ordered = append(ordered, '}', '\n')
				_, err := streams.Out.Write(ordered)
				return err
			}
			cells := make([]string, len(o.Fields))
			for i, k := range o.Fields {
				cells[i] = cell(rec[k], o.Width)
			}
			_, err := fmt.Fprintln(tw, strings.Join(cells, "\t"))
			return err
		})
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if tw != nil {
		return tw.Flush()
	}
	return nil
}

// cell renders a value on one line, cut to width runes.
func cell(v any, width int) string {
	var s string
	switch x := v.(type) {
	case nil:
		s = ""
	case float64:
		s = fmt.Sprintf("%.3f", x)
	case uint64:
		s = fmt.Sprintf("%016x", x)
	default:
		s = fmt.Sprint(x)
	}
	s = strings.Join(strings.Fields(s), " ")
	if width > 0 && utf8.RuneCountInString(s) > width {
		r := []rune(s)
		s = string(r[:width-1]) + "…"
	}
	return s
}
