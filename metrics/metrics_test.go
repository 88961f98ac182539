package metrics

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/pipeline"
)

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestCountersMove(t *testing.T) {
	m := New("markdown.export")
	addr, err := m.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	url := "http://" + addr.String() + "/metrics"
	before := scrape(t, url)
	if !strings.Contains(before, `ccrawl_shards_total{pipeline="markdown.export",status="ok"} 0`) {
		t.Fatalf("initial counters:\n%s", before)
	}
	m.ShardDone(pipeline.ShardResult{Status: pipeline.StatusOK, Stats: pipeline.ShardStats{Rows: 42, HTMLBytes: 1000, Skipped: map[string]int64{"empty": 3}}})
	m.Snapshot(pipeline.Snapshot{Inflight: 2, RatePerHour: 60})
	after := scrape(t, url)
	for _, want := range []string{
		`ccrawl_shards_total{pipeline="markdown.export",status="ok"} 1`,
		`ccrawl_rows_total{pipeline="markdown.export"} 42`,
		`ccrawl_bytes_total{kind="html",pipeline="markdown.export"} 1000`,
		`ccrawl_records_skipped_total{kind="empty",pipeline="markdown.export"} 3`,
		`ccrawl_shards_inflight{pipeline="markdown.export"} 2`,
	} {
		if !strings.Contains(after, want) {
			t.Errorf("missing %s", want)
		}
	}
}

func TestListenBusyPort(t *testing.T) {
	a := New("x")
	addr, err := a.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := New("x").Listen(addr.String()); err == nil {
		t.Fatal("second listener on a busy port succeeded")
	}
}
