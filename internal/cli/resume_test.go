package cli

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/internal/testutil"
)

// buildBinary compiles ccrawl for tests that need a real process to kill.
func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ccrawl")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/ccrawl")
	cmd.Dir = testutil.RepoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func dataFiles(t *testing.T, out string) map[string][]byte {
	t.Helper()
	files, _ := dataset.FindFiles([]string{filepath.Join(out, "data")})
	m := map[string][]byte{}
	for _, f := range files {
		rel, _ := filepath.Rel(out, f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m[rel] = b
	}
	return m
}

func TestKilledRunResumesToSameOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	srv := corpusServer(t)
	// Shard 2 stalls half-way so the kill lands while it is in flight.
	srv.Fail(srv.Paths[2], cctest.Fault{Kind: cctest.Slow, Times: 1, After: 500000, Delay: 20 * time.Second})
	args := func(out string) []string {
		return []string{"markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0-2", "--out", out, "--progress", "none", "--parallel", "1"}
	}
	killed := t.TempDir()
	cmd := exec.Command(bin, args(killed)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(killed, ".committed")
	deadline := time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(ledger)
		if strings.Count(string(b), "\n") >= 2 && srv.Requests(srv.Paths[2]) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("run did not reach shard 2; stderr:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	// Re-run the same command: it resumes and finishes.
	stdout, errOut, code := runCLI(t, args(killed)...)
	if code != 0 || !strings.Contains(errOut, "already records 2 committed shards") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, errOut)
	}
	// An uninterrupted run of the same command gives the same bytes.
	clean := t.TempDir()
	if _, errOut, code := runCLI(t, args(clean)...); code != 0 {
		t.Fatalf("clean run: %d %s", code, errOut)
	}
	a, b := dataFiles(t, killed), dataFiles(t, clean)
	if len(a) != 3 || len(a) != len(b) {
		t.Fatalf("files: resumed %d, clean %d", len(a), len(b))
	}
	for k, v := range b {
		if !bytes.Equal(a[k], v) {
			t.Errorf("%s differs between the resumed and the clean run", k)
		}
	}
	noTemps(t, killed)
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestMetricsMoveDuringRun(t *testing.T) {
	srv := corpusServer(t)
	srv.Fail(srv.Paths[1], cctest.Fault{Kind: cctest.Slow, Times: 1, After: 200000, Delay: 3 * time.Second})
	addr := freePort(t)
	out := t.TempDir()
	done := make(chan int)
	go func() {
		_, _, code := runCLI(t, "markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0-2", "--out", out, "--progress", "none", "--metrics-addr", addr)
		done <- code
	}()
	okRe := regexp.MustCompile(`ccrawl_shards_total\{pipeline="markdown.export",status="ok"\} (\d+)`)
	seen := map[string]bool{}
	deadline := time.After(2 * time.Minute)
	for code := -1; code == -1; {
		select {
		case code = <-done:
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
		case <-deadline:
			t.Fatal("run did not finish")
		case <-time.After(100 * time.Millisecond):
			resp, err := http.Get("http://" + addr + "/metrics")
			if err != nil {
				continue
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if m := okRe.FindSubmatch(body); m != nil {
				seen[string(m[1])] = true
			}
			if !strings.Contains(string(body), "ccrawl_rows_total") {
				t.Errorf("no rows counter in:\n%.400s", body)
			}
		}
	}
	if !seen["0"] && !seen["1"] || len(seen) < 2 {
		t.Errorf("ok-shard counter values seen while running: %v (want it to move)", seen)
	}
}

func TestMetricsBusyPortFailsFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	out := t.TempDir()
	in := testutil.Shared(t, "corpus/small.warc.gz")
	_, stderr, code := runCLI(t, "markdown", "export", in, "--out", out, "--metrics-addr", ln.Addr().String())
	if code != 1 || !strings.Contains(stderr, "--metrics-addr") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if files, _ := dataset.FindFiles([]string{out}); len(files) != 0 {
		t.Errorf("work done before the port check: %v", files)
	}
}

func TestSIGTERMStopsCleanlyAndSaysHowToResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	srv := corpusServer(t)
	srv.Fail(srv.Paths[1], cctest.Fault{Kind: cctest.Slow, Times: 1, After: 300000, Delay: 20 * time.Second})
	out := t.TempDir()
	cmd := exec.Command(bin, "markdown", "export", "--base-url", srv.URL, "--crawl", srv.Crawl, "--shards", "0-2", "--out", out, "--progress", "none")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for srv.Requests(srv.Paths[1]) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("shard 1 never started")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command again to resume") {
		t.Errorf("no resume hint:\n%s", stderr.String())
	}
	noTemps(t, out)
	events := journalEvents(t, filepath.Join(out, "run.jsonl"))
	if last := events[len(events)-1]; last["event"] != "end" || last["error"] != "interrupted" {
		t.Errorf("last journal event %v", last)
	}
	// Only complete shards have files, and the ledger lists exactly them.
	files := dataFiles(t, out)
	l, _ := os.ReadFile(filepath.Join(out, ".committed"))
	if strings.Count(string(l), "\n") != len(files) {
		t.Errorf("%d files, ledger:\n%s", len(files), l)
	}
}
