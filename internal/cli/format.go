package cli

import (
	"fmt"
	"time"

	"github.com/open-markdown/ccrawl/pipeline"
)

// humanBytes prints decimal MB below a GiB and GiB above, as the summary
// line's examples do ("html=12.3 MB", "html=61.2 GiB").
func humanBytes(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

func humanDuration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// summaryLine is the honest last line of a run: every number is a sum over
// the files written.
func summaryLine(prefix string, r pipeline.RunResult) string {
	s := fmt.Sprintf("%s: %d committed, %d skipped, %d failed of %d | %d rows | html=%s md=%s parquet=%s | %s elapsed",
		prefix, r.Committed, r.Skipped, r.Failed, r.Total, r.Stats.Rows,
		humanBytes(r.Stats.HTMLBytes), humanBytes(r.Stats.MarkdownBytes), humanBytes(r.Stats.ParquetBytes),
		humanDuration(r.Elapsed))
	if r.Total > 1 && r.Elapsed > 0 {
		s += fmt.Sprintf(" (%.1f shards/hour)", float64(r.Committed+r.Failed)/r.Elapsed.Hours())
	}
	return s
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
