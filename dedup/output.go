package dedup

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// urlsShown is how many members of each top cluster the text report lists.
const urlsShown = 3

// WriteText writes the human-readable report.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s rows in %s files\n", group(r.Rows), group(r.Files))
	line := func(label, n, rest string) { fmt.Fprintf(bw, "  %-20s%9s%s\n", label, n, rest) }
	line("exact duplicates", group(r.Exact.Rows), fmt.Sprintf(" in %s clusters, %s", group(r.Exact.Clusters), size(r.Exact.Bytes)))
	line("near duplicates", group(r.Near.Rows), fmt.Sprintf(" in %s clusters, %s  (distance <= %d)", group(r.Near.Clusters), size(r.Near.Bytes), r.Distance))
	line("redundant", group(r.Redundant), fmt.Sprintf("  (%.1f%% of rows)", 100*float64(r.Redundant)/float64(max(r.Rows, 1))))
	line("no fingerprint", group(r.NoFingerprint), "  (too short to hash, left alone)")
	if r.Fingerprinted > 0 {
		line("fingerprinted here", group(r.Fingerprinted), "  (no simhash column; computed while reading)")
	}
	if len(r.Top) > 0 {
		fmt.Fprintf(bw, "\nlargest clusters (%s in all):\n", group(r.Clusters))
	}
	for k, c := range r.Top {
		fmt.Fprintf(bw, "  %2d. %s rows (%d exact, %d near), %s removable\n", k+1, group(c.Size), c.Exact, c.Near, size(c.Bytes))
		for m, mem := range c.Members[:min(len(c.Members), urlsShown)] {
			verb := "drop"
			if m == 0 {
				verb = "keep"
			}
			fmt.Fprintf(bw, "      %s %s\n", verb, cmpOr(mem.URL, mem.DocID))
		}
		if more := c.Size - min(len(c.Members), urlsShown); more > 0 {
			fmt.Fprintf(bw, "      ... and %s more\n", group(more))
		}
	}
	if r.RedundantFile != "" {
		fmt.Fprintf(bw, "\n%s redundant doc_ids written to %s; anti-join on doc_id to drop them\n", group(r.Redundant), r.RedundantFile)
	}
	return bw.Flush()
}

// WriteJSON writes the whole report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteIDs writes ids as a one-column file for an anti-join: plain text, one
// per line, when path ends in .txt, otherwise Parquet with a single string
// column doc_id. The file appears complete or not at all.
func WriteIDs(path string, ids []string) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("dedup: writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if strings.HasSuffix(path, ".txt") {
		bw := bufio.NewWriter(tmp)
		for _, id := range ids {
			bw.WriteString(id)
			bw.WriteByte('\n')
		}
		err = bw.Flush()
	} else {
		type row struct {
			DocID string `parquet:"doc_id"`
		}
		pw := parquet.NewGenericWriter[row](tmp, parquet.Compression(&parquet.Zstd))
		batch := make([]row, 0, 4096)
		for k, id := range ids {
			batch = append(batch, row{id})
			if len(batch) == cap(batch) || k == len(ids)-1 {
				if _, err = pw.Write(batch); err != nil {
					break
				}
				batch = batch[:0]
			}
		}
		if err == nil {
			err = pw.Close()
		}
	}
	if err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("dedup: writing %s: %w", path, err)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// group formats n with thousands separators: 20861 -> "20,861".
func group(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + group(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// size formats bytes in decimal units, as the report's example does.
func size(n int64) string {
	f := float64(n)
	for _, u := range []string{"B", "kB", "MB", "GB"} {
		if f < 1000 || u == "GB" {
			if u == "B" {
				return fmt.Sprintf("%d B", n)
			}
			return fmt.Sprintf("%.1f %s", f, u)
		}
		f /= 1000
	}
	return ""
}
