package hub_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/internal/testutil"

	"github.com/open-markdown/ccrawl/hub"
	"github.com/open-markdown/ccrawl/hub/hubtest"
)

const testRepo = "open-markdown/test-set"

// corpus returns paths of the shared WARC corpus, found by walking up to
// the module root; tests skip without it.
func corpus(t testing.TB, names ...string) []string {
	t.Helper()
	dir := testutil.RepoRoot(t)
	var out []string
	for _, n := range names {
		p := filepath.Join(dir, "..", "shared", "corpus", n)
		if _, err := os.Stat(p); err != nil {
			t.Skipf("shared corpus missing (%v); these tests need ../shared/corpus", err)
		}
		out = append(out, p)
	}
	return out
}

// sleeps records the client's backoff waits instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func newClient(srv *hubtest.Server, sl *sleeps) *hub.Client {
	return &hub.Client{Endpoint: srv.URL, Token: "hf_test", HTTP: srv.Client(), Sleep: sl.sleep}
}

func newServer(t *testing.T, opts hubtest.Options) *hubtest.Server {
	t.Helper()
	if opts.Token == "" {
		opts.Token = "hf_test"
	}
	srv := hubtest.New(opts)
	t.Cleanup(srv.Close)
	return srv
}

func shardOps(paths []string) []hub.Operation {
	ops := make([]hub.Operation, len(paths))
	for i, p := range paths {
		ops[i] = hub.Operation{LocalPath: p, RepoPath: "data/crawl=CC-MAIN-2025-43/" + filepath.Base(p) + ".parquet"}
	}
	return ops
}

// checkPublished asserts every op's bytes are in the repo and every path
// was committed exactly once over the repo's history.
func checkPublished(t *testing.T, srv *hubtest.Server, ops []hub.Operation) {
	t.Helper()
	files := srv.Files(testRepo)
	times := map[string]int{}
	for _, c := range srv.Commits(testRepo) {
		for _, op := range c.Ops {
			times[op.Path]++
		}
	}
	for _, op := range ops {
		want := op.Content
		if op.LocalPath != "" {
			var err error
			if want, err = os.ReadFile(op.LocalPath); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(files[op.RepoPath], want) {
			t.Errorf("%s: repo holds %d bytes, want the %d local bytes", op.RepoPath, len(files[op.RepoPath]), len(want))
		}
		if times[op.RepoPath] != 1 {
			t.Errorf("%s committed %d times, want exactly once", op.RepoPath, times[op.RepoPath])
		}
	}
}

func TestCommitTwoCommitsThenSkipIdentical(t *testing.T) {
	paths := corpus(t, "small.warc.gz", "small-b.warc.gz", "small-c.warc.gz")
	srv := newServer(t, hubtest.Options{})
	c := newClient(srv, &sleeps{})
	ctx := context.Background()
	if err := c.CreateRepo(ctx, testRepo, true); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateRepo(ctx, testRepo, true); err != nil {
		t.Fatalf("second CreateRepo must accept 409 already-exists: %v", err)
	}
	ops := shardOps(paths)
	card := hub.Operation{RepoPath: "README.md", Content: []byte("---\npretty_name: x\n---\n# x\n")}
	first, err := c.Commit(ctx, testRepo, "Add shards 0, 1", "first", append(ops[:2:2], card))
	if err != nil {
		t.Fatal(err)
	}
	if first.OID == "" || len(first.Uploaded) != 3 || len(first.Skipped) != 0 {
		t.Fatalf("first commit = %+v, want an OID and 3 uploaded", first)
	}
	var wantLFS int64
	for _, p := range paths[:2] {
		st, _ := os.Stat(p)
		wantLFS += st.Size()
	}
	if first.LFSBytes != wantLFS {
		t.Errorf("LFSBytes = %d, want %d", first.LFSBytes, wantLFS)
	}
	second, err := c.Commit(ctx, testRepo, "Add shard 2", "", ops[2:])
	if err != nil {
		t.Fatal(err)
	}
	if second.OID == "" || second.OID == first.OID {
		t.Fatalf("second commit OID %q, first %q", second.OID, first.OID)
	}
	commits := srv.Commits(testRepo)
	if len(commits) != 2 || commits[0].Summary != "Add shards 0, 1" || commits[1].Summary != "Add shard 2" {
		t.Fatalf("commits = %+v", commits)
	}
	kinds := map[string]string{}
	for _, op := range commits[0].Ops {
		kinds[op.Path] = op.Kind
	}
	if kinds["README.md"] != "file" || kinds[ops[0].RepoPath] != "lfsFile" {
		t.Errorf("README.md must go inline and shards via LFS, got %v", kinds)
	}
	checkPublished(t, srv, append(ops, card))

	// Identical content again: nothing uploaded, no commit.
	uploadsBefore := srv.Count(hubtest.EndpointLFSUpload)
	again, err := c.Commit(ctx, testRepo, "Add shards again", "", append(ops, card))
	if err != nil {
		t.Fatal(err)
	}
	if again.OID != "" || len(again.Skipped) != 4 || len(again.Uploaded) != 0 || again.LFSBytes != 0 {
		t.Errorf("re-commit of identical files = %+v, want all 4 skipped", again)
	}
	if n := len(srv.Commits(testRepo)); n != 2 {
		t.Errorf("re-commit made a commit: %d commits", n)
	}
	if n := srv.Count(hubtest.EndpointLFSUpload); n != uploadsBefore {
		t.Errorf("re-commit sent %d LFS uploads", n-uploadsBefore)
	}

	// Changed content at an existing path is uploaded.
	card2 := hub.Operation{RepoPath: "README.md", Content: []byte("---\npretty_name: y\n---\n# y\n")}
	upd, err := c.Commit(ctx, testRepo, "Update card", "", append(ops, card2))
	if err != nil {
		t.Fatal(err)
	}
	if len(upd.Uploaded) != 1 || upd.Uploaded[0] != "README.md" || len(upd.Skipped) != 3 {
		t.Errorf("card update = %+v, want only README.md uploaded", upd)
	}
	if got := srv.Files(testRepo)["README.md"]; !bytes.Equal(got, card2.Content) {
		t.Errorf("README.md = %q", got)
	}
}

func TestCommitSurvivesFaults(t *testing.T) {
	paths := corpus(t, "small.warc.gz", "small-b.warc.gz")
	tests := []struct {
		name  string
		fault hubtest.Fault
		opts  hubtest.Options
	}{
		{"429 on commit", hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.TooManyRequests, Count: 2, RetryAfter: "7"}, hubtest.Options{}},
		{"500 on preupload", hubtest.Fault{Endpoint: hubtest.EndpointPreupload, Kind: hubtest.ServerError, Count: 3}, hubtest.Options{}},
		{"500 on paths-info", hubtest.Fault{Endpoint: hubtest.EndpointPathsInfo, Kind: hubtest.ServerError, Count: 1}, hubtest.Options{}},
		{"429 on lfs batch", hubtest.Fault{Endpoint: hubtest.EndpointLFSBatch, Kind: hubtest.TooManyRequests, Count: 1}, hubtest.Options{}},
		{"reset mid-upload", hubtest.Fault{Endpoint: hubtest.EndpointLFSUpload, Kind: hubtest.Reset, Count: 2}, hubtest.Options{}},
		{"reset mid-part", hubtest.Fault{Endpoint: hubtest.EndpointLFSUpload, Kind: hubtest.Reset, Count: 2}, hubtest.Options{ChunkSize: 700 << 10}},
		{"500 on multipart completion", hubtest.Fault{Endpoint: hubtest.EndpointLFSComplete, Kind: hubtest.ServerError, Count: 1}, hubtest.Options{ChunkSize: 700 << 10}},
		{"500 on verify", hubtest.Fault{Endpoint: hubtest.EndpointLFSVerify, Kind: hubtest.ServerError, Count: 2}, hubtest.Options{}},
		{"reset during commit", hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.Reset, Count: 1}, hubtest.Options{}},
		{"commit lands, reply lost", hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.ResetAfter, Count: 1}, hubtest.Options{}},
		{"500 after commit lands", hubtest.Fault{Endpoint: hubtest.EndpointCommit, Kind: hubtest.ServerErrorAfter, Count: 1}, hubtest.Options{NoVerify: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.opts)
			srv.CreateRepo(testRepo)
			sl := &sleeps{}
			c := newClient(srv, sl)
			srv.Inject(tt.fault)
			ops := shardOps(paths)
			if _, err := c.Commit(context.Background(), testRepo, "Add shards", "", ops); err != nil {
				t.Fatal(err)
			}
			checkPublished(t, srv, ops)
			if n := len(srv.Commits(testRepo)); n != 1 {
				t.Errorf("%d commits, want 1", n)
			}
			faulted := 0
			for _, r := range srv.Requests() {
				if r.Faulted {
					faulted++
				}
			}
			if faulted != tt.fault.Count {
				t.Errorf("%d requests hit the fault, want %d", faulted, tt.fault.Count)
			}
			if got := len(sl.all()); got < tt.fault.Count {
				t.Errorf("slept %d times for %d faults, want backoff before each retry", got, tt.fault.Count)
			}
			if tt.fault.RetryAfter == "7" {
				for _, d := range sl.all() {
					if d != 7*time.Second {
						t.Errorf("slept %v, want the server's Retry-After of 7s", d)
					}
				}
			}
			if tt.opts.ChunkSize > 0 && srv.Count(hubtest.EndpointLFSComplete) < 2 {
				t.Errorf("multipart was offered but %d completions were sent", srv.Count(hubtest.EndpointLFSComplete))
			}
		})
	}
}

func TestPermanentErrorsAreNotRetried(t *testing.T) {
	srv := newServer(t, hubtest.Options{})
	srv.CreateRepo(testRepo)
	sl := &sleeps{}
	c := newClient(srv, sl)
	c.Token = "wrong"
	_, err := c.Commit(context.Background(), testRepo, "x", "", []hub.Operation{{RepoPath: "a.txt", Content: []byte("a")}})
	var he *hub.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusUnauthorized {
		t.Fatalf("err = %v, want a 401 HTTPError", err)
	}
	if len(sl.all()) != 0 || len(srv.Requests()) != 1 {
		t.Errorf("401 was retried: %d sleeps, %d requests", len(sl.all()), len(srv.Requests()))
	}
	if bytes.Contains([]byte(err.Error()), []byte("\n")) {
		t.Errorf("error is not one line: %q", err)
	}
}

func TestRetriesGiveUp(t *testing.T) {
	srv := newServer(t, hubtest.Options{})
	srv.CreateRepo(testRepo)
	sl := &sleeps{}
	c := newClient(srv, sl)
	c.MaxAttempts = 3
	srv.Inject(hubtest.Fault{Endpoint: hubtest.EndpointPathsInfo, Kind: hubtest.ServerError, Count: 10})
	_, err := c.Commit(context.Background(), testRepo, "x", "", []hub.Operation{{RepoPath: "a.txt", Content: []byte("a")}})
	var he *hub.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusInternalServerError {
		t.Fatalf("err = %v, want a 500 HTTPError after retries", err)
	}
	if n := srv.Count(hubtest.EndpointPathsInfo); n != 3 {
		t.Errorf("%d attempts, want MaxAttempts=3", n)
	}
	// Backoff grows: each wait at least half the nominal 1s<<attempt.
	for i, d := range sl.all() {
		if nominal := time.Second << i; d < nominal/2 || d > nominal {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, d, nominal/2, nominal)
		}
	}
}

func TestMissingRepoAndBadRepoID(t *testing.T) {
	srv := newServer(t, hubtest.Options{})
	c := newClient(srv, &sleeps{})
	_, err := c.Commit(context.Background(), testRepo, "x", "", []hub.Operation{{RepoPath: "a.txt", Content: []byte("a")}})
	var he *hub.HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusNotFound {
		t.Fatalf("err = %v, want 404", err)
	}
	for _, bad := range []string{"noslash", "a/b/c", "/x", "a/", "a/../b", "a b/c"} {
		if err := hub.ValidateRepoID(bad); err == nil {
			t.Errorf("ValidateRepoID(%q) accepted", bad)
		}
	}
	if err := hub.ValidateRepoID("open-markdown/cc.main_2026-30"); err != nil {
		t.Error(err)
	}
}

func TestPathsInfoReportsHashes(t *testing.T) {
	srv := newServer(t, hubtest.Options{})
	srv.CreateRepo(testRepo)
	c := newClient(srv, &sleeps{})
	ctx := context.Background()
	big := bytes.Repeat([]byte{0, 1, 2, 3}, 5000) // NUL bytes: stored via LFS
	ops := []hub.Operation{{RepoPath: "b.bin", Content: big}, {RepoPath: "t.txt", Content: []byte("hello\n")}}
	if _, err := c.Commit(ctx, testRepo, "x", "", ops); err != nil {
		t.Fatal(err)
	}
	info, err := c.PathsInfo(ctx, testRepo, []string{"b.bin", "t.txt", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if len(info) != 2 {
		t.Fatalf("info = %v", info)
	}
	// git's blob id of "hello\n" and sha256 of big, computed independently.
	if got := info["t.txt"].GitOID; got != "ce013625030ba8dba906f756967f9e9ca394464a" {
		t.Errorf("t.txt git oid = %s", got)
	}
	if info["t.txt"].SHA256 != "" || info["b.bin"].SHA256 == "" || info["b.bin"].Size != int64(len(big)) {
		t.Errorf("info = %+v", info)
	}
}

func TestTokenFromEnv(t *testing.T) {
	tests := []struct {
		hf, huggingface string
		want            string
		ok              bool
	}{
		{"", "", "", false},
		{"hf_a", "", "hf_a", true},
		{"", "hf_b", "hf_b", true},
		{"hf_a", "hf_b", "hf_a", true},
		{"  ", "hf_b", "hf_b", true},
	}
	for _, tt := range tests {
		t.Setenv("HF_TOKEN", tt.hf)
		t.Setenv("HUGGINGFACE_TOKEN", tt.huggingface)
		got, ok := hub.TokenFromEnv()
		if got != tt.want || ok != tt.ok {
			t.Errorf("HF_TOKEN=%q HUGGINGFACE_TOKEN=%q: got %q,%v want %q,%v", tt.hf, tt.huggingface, got, ok, tt.want, tt.ok)
		}
	}
	t.Setenv("HF_ENDPOINT", "")
	if got := hub.EndpointFromEnv(); got != hub.DefaultEndpoint {
		t.Errorf("EndpointFromEnv() = %q", got)
	}
	t.Setenv("HF_ENDPOINT", "http://127.0.0.1:9/")
	if got := hub.EndpointFromEnv(); got != "http://127.0.0.1:9" {
		t.Errorf("EndpointFromEnv() = %q", got)
	}
}

// BenchmarkCommit publishes one shard-sized file per iteration to the fake
// Hub on loopback: hashing, pre-upload, LFS PUT, verify and commit. Each
// file differs in its last bytes so storage never short-cuts the upload.
func BenchmarkCommit(b *testing.B) {
	paths := corpus(b, "small.warc.gz")
	data, err := os.ReadFile(paths[0])
	if err != nil {
		b.Fatal(err)
	}
	srv := hubtest.New(hubtest.Options{Token: "hf_test"})
	defer srv.Close()
	srv.CreateRepo(testRepo)
	c := &hub.Client{Endpoint: srv.URL, Token: "hf_test", HTTP: srv.Client()}
	ctx := context.Background()
	dir := b.TempDir()
	b.SetBytes(int64(len(data)) + 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := filepath.Join(dir, "shard.parquet")
		if err := os.WriteFile(p, fmt.Appendf(bytes.Clone(data), "%08d", i), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		op := hub.Operation{LocalPath: p, RepoPath: fmt.Sprintf("data/crawl=X/%06d.parquet", i)}
		if _, err := c.Commit(ctx, testRepo, "bench", "", []hub.Operation{op}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}
