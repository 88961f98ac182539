package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/hub/hubtest"
	"github.com/open-markdown/ccrawl/internal/testutil"
	"github.com/open-markdown/ccrawl/pipeline"
	"go.yaml.in/yaml/v3"
)

func threeShards(t *testing.T) []string {
	return []string{
		testutil.Shared(t, "corpus/small.warc.gz"),
		testutil.Shared(t, "corpus/small-b.warc.gz"),
		testutil.Shared(t, "corpus/small-c.warc.gz"),
	}
}

// cardTotals reads ccrawl_totals back from a card's front matter.
func cardTotals(t *testing.T, card []byte) map[string]any {
	t.Helper()
	s := string(card)
	if !strings.HasPrefix(s, "---\n") {
		t.Fatalf("card has no front matter:\n%s", s)
	}
	end := strings.Index(s[4:], "\n---")
	var meta map[string]any
	if err := yaml.Unmarshal([]byte(s[4:4+end]), &meta); err != nil {
		t.Fatal(err)
	}
	tot, ok := meta["ccrawl_totals"].(map[string]any)
	if !ok {
		t.Fatalf("no ccrawl_totals in front matter: %v", meta)
	}
	return tot
}

func TestPublishToFakeHub(t *testing.T) {
	inputs := threeShards(t)
	srv := hubtest.New(hubtest.Options{Token: "secret"})
	defer srv.Close()
	t.Setenv("HF_TOKEN", "secret")
	t.Setenv("HUGGINGFACE_TOKEN", "")

	out := t.TempDir()
	args := append([]string{"markdown", "export", "--out", out, "--progress", "none", "--repo", "test/ds", "--hub-url", srv.URL, "--commit-batch", "2", "--keep-parquet"}, inputs...)
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	files := srv.Files("test/ds")
	local, _ := dataset.FindFiles([]string{filepath.Join(out, "data")})
	if len(local) != 3 {
		t.Fatalf("local files %v", local)
	}
	parquetOnHub := 0
	for path := range files {
		if strings.HasSuffix(path, ".parquet") {
			parquetOnHub++
		}
	}
	if parquetOnHub != 3 || files["README.md"] == nil {
		t.Fatalf("hub files: %v", keys(files))
	}
	var rows, size int64
	for _, f := range local {
		rel, _ := filepath.Rel(out, f)
		b, _ := os.ReadFile(f)
		if !bytes.Equal(files[filepath.ToSlash(rel)], b) {
			t.Errorf("%s: hub bytes differ from local", rel)
		}
		r, _ := dataset.ReadAll[dataset.Row](f)
		rows += int64(len(r))
		size += int64(len(b))
	}
	if n := len(srv.Commits("test/ds")); n != 2 {
		t.Errorf("%d commits, want 2", n)
	}
	// The card's totals equal the sums over the files.
	tot := cardTotals(t, files["README.md"])
	if tot["rows"] != int(rows) || tot["shards"] != 3 || tot["parquet_bytes"] != int(size) {
		t.Errorf("card totals %v; files hold rows=%d bytes=%d", tot, rows, size)
	}
	l, _ := pipeline.OpenLedger(filepath.Join(out, ".committed"))
	if l.Len() != 3 {
		t.Errorf("ledger has %d shards", l.Len())
	}

	// A re-run uploads nothing.
	before := len(srv.Requests())
	stdout, stderr, code = runCLI(t, args...)
	if code != 0 || !strings.Contains(stderr, "already records 3 committed shards") || !strings.Contains(stdout, "0 committed, 3 skipped") {
		t.Fatalf("re-run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, r := range srv.Requests()[before:] {
		if r.Endpoint == hubtest.EndpointLFSUpload || r.Endpoint == hubtest.EndpointCommit {
			t.Errorf("re-run sent %s %s", r.Method, r.Path)
		}
	}
}

func TestPublishSurvivesHubFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on Retry-After")
	}
	inputs := threeShards(t)
	srv := hubtest.New(hubtest.Options{Token: "secret"})
	defer srv.Close()
	srv.Inject(hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.TooManyRequests, Count: 1, RetryAfter: "1"})
	srv.Inject(hubtest.Fault{Endpoint: hubtest.EndpointLFSBatch, Kind: hubtest.ServerError, Count: 1})
	srv.Inject(hubtest.Fault{Endpoint: hubtest.EndpointLFSUpload, Kind: hubtest.Reset, Count: 1})
	t.Setenv("HF_TOKEN", "secret")
	out := t.TempDir()
	args := append([]string{"markdown", "export", "--out", out, "--progress", "none", "--repo", "test/ds", "--hub-url", srv.URL}, inputs...)
	stdout, stderr, code := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	seen := map[string]int{}
	for _, c := range srv.Commits("test/ds") {
		for _, op := range c.Ops {
			if strings.HasSuffix(op.Path, ".parquet") {
				seen[op.Path]++
			}
		}
	}
	if len(seen) != 3 {
		t.Fatalf("committed %v", seen)
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%s committed %d times", p, n)
		}
	}
	// Without --keep-parquet the local copies are gone once committed.
	if local, _ := dataset.FindFiles([]string{filepath.Join(out, "data")}); len(local) != 0 {
		t.Errorf("local parquet left: %v", local)
	}
}

func TestPublishNeedsToken(t *testing.T) {
	in := testutil.Shared(t, "corpus/small.warc.gz")
	t.Setenv("HF_TOKEN", "")
	t.Setenv("HUGGINGFACE_TOKEN", "")
	out := t.TempDir()
	_, stderr, code := runCLI(t, "markdown", "export", in, "--out", out, "--repo", "test/ds", "--hub-url", "http://127.0.0.1:1")
	if code != 4 || !strings.Contains(stderr, "HF_TOKEN") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("work was done before the token check: %v", entries)
	}
	// --push=false never asks for one, and writes the card locally.
	_, stderr, code = runCLI(t, "markdown", "export", in, "--out", out, "--repo", "test/ds", "--push=false", "--progress", "none")
	if code != 0 {
		t.Fatalf("--push=false: exit %d %s", code, stderr)
	}
	card, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	local, _ := dataset.FindFiles([]string{filepath.Join(out, "data")})
	rows, _ := dataset.ReadAll[dataset.Row](local[0])
	if tot := cardTotals(t, card); tot["rows"] != len(rows) {
		t.Errorf("local card rows %v, file has %d", tot["rows"], len(rows))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
