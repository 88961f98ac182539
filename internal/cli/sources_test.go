package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
	"github.com/open-markdown/ccrawl/dataset"
)

func corpusServer(t *testing.T) *cctest.Server {
	return cctest.NewServer(t, cctest.Config{Shards: []string{
		cctest.Corpus(t, "small.warc.gz"),
		cctest.Corpus(t, "small-b.warc.gz"),
		cctest.Corpus(t, "small-c.warc.gz"),
	}})
}

func journalEvents(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("journal line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestExportFromManifestAndResume(t *testing.T) {
	srv := corpusServer(t)
	out := t.TempDir()
	args := []string{"markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0-2", "--out", out, "--progress", "none", "--parallel", "2"}
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	for i := 0; i < 3; i++ {
		p := dataset.ShardPath(out, srv.Crawl, i)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	if !strings.Contains(stdout, "markdown: 3 committed, 0 skipped, 0 failed of 3 |") {
		t.Errorf("summary:\n%s", stdout)
	}
	events := journalEvents(t, filepath.Join(out, "run.jsonl"))
	var kinds []string
	for _, e := range events {
		kinds = append(kinds, e["event"].(string))
		if e["event"] == "shard" && (e["status"] != "ok" || e["rows"] == nil || e["warc_bytes"] == nil) {
			t.Errorf("shard event %v", e)
		}
		if kinds, _ := e["skipped_by_kind"].(map[string]any); e["event"] == "shard" && kinds["request"] == nil {
			t.Errorf("shard event lacks skip counts by kind: %v", e)
		}
	}
	if kinds[0] != "start" || kinds[len(kinds)-1] != "end" || strings.Count(strings.Join(kinds, " "), "shard") != 3 {
		t.Errorf("journal events %v", kinds)
	}
	requests := len(srv.Log())

	// Same command again: nothing recomputed, nothing written.
	stdout, stderr, code = runCLI(t, args...)
	if code != 0 {
		t.Fatalf("re-run exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "already records 3 committed shards") || !strings.Contains(stdout, "0 committed, 3 skipped, 0 failed of 3") {
		t.Errorf("re-run output:\n%s\n%s", stdout, stderr)
	}
	if n := len(srv.Log()); n != requests {
		t.Errorf("re-run made %d requests (manifest is cached, shards are committed)", n-requests)
	}
}

func TestExportRetriesFaults(t *testing.T) {
	srv := corpusServer(t)
	srv.Fail(srv.Paths[0], cctest.Fault{Kind: cctest.Unavailable, Times: 1, RetryAfter: "1"})
	srv.Fail(srv.Paths[1], cctest.Fault{Kind: cctest.TooMany, Times: 1, RetryAfter: "1"})
	srv.Fail(srv.Paths[2], cctest.Fault{Kind: cctest.Reset, Times: 1, After: 100000})
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "all", "--out", out, "--progress", "none")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "3 committed, 0 skipped, 0 failed of 3") {
		t.Errorf("summary:\n%s", stdout)
	}
	if len(srv.Ranges(srv.Paths[2])) == 0 {
		t.Error("no Range request after the reset: the download restarted from zero")
	}
}

func TestExportBrokenShardFailsAlone(t *testing.T) {
	srv := corpusServer(t)
	srv.Fail(srv.Paths[1], cctest.Fault{Kind: cctest.Truncate, After: 700000}) // permanent
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0-2", "--out", out, "--progress", "none")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "2 committed, 0 skipped, 1 failed of 3") {
		t.Errorf("summary:\n%s", stdout)
	}
	var failed []map[string]any
	for _, e := range journalEvents(t, filepath.Join(out, "run.jsonl")) {
		if e["event"] == "shard" && e["status"] == "failed" {
			failed = append(failed, e)
		}
	}
	if len(failed) != 1 || failed[0]["shard"] != float64(1) || !strings.Contains(failed[0]["error"].(string), "offset") {
		t.Errorf("failed shard events: %v", failed)
	}
	l, _ := os.ReadFile(filepath.Join(out, ".committed"))
	if strings.Count(string(l), "\n") != 2 {
		t.Errorf("ledger:\n%s", l)
	}
}

func TestShardSourceUsageErrors(t *testing.T) {
	srv := corpusServer(t)
	cases := [][]string{
		{"--shards", "0-9"}, // out of range: 3 shards
		{"--shards", "2-1"}, // reversed
		{"--shards", "x"},   // malformed
		{"--shards", "0", "--limit", "-1"},
	}
	for _, c := range cases {
		args := append([]string{"markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--out", t.TempDir(), "--progress", "none"}, c...)
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", c, code, stderr)
		}
	}
	for _, c := range [][]string{
		{"--shards", "0"}, // no --crawl
		{"--extractor", "trafilatura", "--source-kind", "wet", "x.warc.gz"},
		{"--extractor", "wet", "x.warc.gz"},
		{"--lang", "xxx", "x.warc.gz"},
		{"--progress", "fancy", "x.warc.gz"},
	} {
		args := append([]string{"markdown", "export", "--out", t.TempDir()}, c...)
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", c, code, stderr)
		}
	}
}

func TestExportLatestCrawl(t *testing.T) {
	srv := corpusServer(t)
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "markdown", "export", "--base-url", srv.URL, "--index-url", srv.URL, "--crawl", "latest", "--shards", "1", "--limit", "1", "--out", out, "--progress", "none")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(dataset.ShardPath(out, srv.Crawl, 1)); err != nil {
		t.Errorf("latest crawl %s shard 1 not written: %v", srv.Crawl, err)
	}
}
