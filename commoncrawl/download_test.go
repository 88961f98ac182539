package commoncrawl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
)

// shardServer serves small.warc.gz as the only shard and returns its bytes.
func shardServer(t *testing.T) (*cctest.Server, string, []byte) {
	t.Helper()
	src := cctest.Corpus(t, "small.warc.gz")
	want, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	srv := cctest.NewServer(t, cctest.Config{Shards: []string{src}})
	return srv, srv.Paths[0], want
}

// checkDownloaded asserts dest holds exactly want and no .part is left.
func checkDownloaded(t *testing.T, dest string, n int64, want []byte) {
	t.Helper()
	got, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(want)) || !bytes.Equal(got, want) {
		t.Fatalf("downloaded %d bytes (returned %d), want the %d source bytes unchanged", len(got), n, len(want))
	}
	if _, err := os.Stat(dest + ".part"); !os.IsNotExist(err) {
		t.Fatalf(".part left after success: %v", err)
	}
}

func TestDownloadHappyPath(t *testing.T) {
	srv, path, want := shardServer(t)
	c, rec := testClient(t, srv)
	dest := filepath.Join(t.TempDir(), "shards", "0.warc.gz") // parent created on demand
	var got atomic.Int64
	n, err := c.Download(context.Background(), path, dest, func(d int64) { got.Add(d) })
	if err != nil {
		t.Fatal(err)
	}
	checkDownloaded(t, dest, n, want)
	if got.Load() != int64(len(want)) {
		t.Fatalf("progress summed to %d, want %d", got.Load(), len(want))
	}
	if r := srv.Ranges(path); len(r) != 0 || srv.Requests(path) != 1 {
		t.Fatalf("fresh download made %d requests with ranges %q, want 1 without", srv.Requests(path), r)
	}
	if len(rec.all()) != 0 {
		t.Fatalf("waited %v on a clean download", rec.all())
	}
	// A nil progress func is allowed, and an existing dest is replaced.
	if _, err := c.Download(context.Background(), "/"+path, dest, nil); err != nil {
		t.Fatal(err)
	}
	checkDownloaded(t, dest, n, want)
}

// TestDownloadResumes breaks the transfer in different ways and checks the
// retry resumes from the right place and the result is byte-identical.
func TestDownloadResumes(t *testing.T) {
	tests := []struct {
		name      string
		faults    []cctest.Fault
		requests  int
		ranges    func(size int) []string // Range headers expected; nil skips the check
		minTraffc func(size int) int64    // lower bound on progress total
	}{
		{
			name:     "reset mid-body",
			faults:   []cctest.Fault{{Kind: cctest.Reset, Times: 1, After: 300_000}},
			requests: 2,
			// An RST may discard bytes still in the client's socket buffer,
			// so the resume point is at most the bytes sent.
			ranges: nil,
		},
		{
			name:     "short body",
			faults:   []cctest.Fault{{Kind: cctest.Short, Times: 1, After: 1000}},
			requests: 2,
			ranges:   func(int) []string { return []string{"bytes=1000-"} },
		},
		{
			name:     "short twice",
			faults:   []cctest.Fault{{Kind: cctest.Short, Times: 2, After: 5000}},
			requests: 3,
			ranges:   func(int) []string { return []string{"bytes=5000-", "bytes=10000-"} },
		},
		{
			name:     "short then server ignores range",
			faults:   []cctest.Fault{{Kind: cctest.Short, Times: 1, After: 4096}, {Kind: cctest.IgnoreRange, Times: 1}},
			requests: 2,
			ranges:   func(int) []string { return []string{"bytes=4096-"} },
			minTraffc: func(size int) int64 {
				return int64(size) + 4096 // the start was fetched twice
			},
		},
		{
			name:     "stall then resume",
			faults:   []cctest.Fault{{Kind: cctest.Slow, Times: 1, After: 2000, Delay: time.Hour}},
			requests: 2,
			ranges:   nil, // the stalled response may have delivered more than After
		},
		{
			name:     "503 then short then ok",
			faults:   []cctest.Fault{{Kind: cctest.Unavailable, Times: 1}, {Kind: cctest.Short, Times: 1, After: 777}},
			requests: 3,
			ranges:   func(int) []string { return []string{"bytes=777-"} },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, path, want := shardServer(t)
			c, _ := testClient(t, srv)
			c.StallTimeout = 200 * time.Millisecond
			for _, f := range tt.faults {
				srv.Fail(path, f)
			}
			dest := filepath.Join(t.TempDir(), "shard.warc.gz")
			var traffic atomic.Int64
			n, err := c.Download(context.Background(), path, dest, func(d int64) { traffic.Add(d) })
			if err != nil {
				t.Fatal(err)
			}
			checkDownloaded(t, dest, n, want)
			if got := srv.Requests(path); got != tt.requests {
				t.Fatalf("%d requests, want %d; log %+v", got, tt.requests, srv.Log())
			}
			ranges := srv.Ranges(path)
			if tt.ranges != nil {
				if w := tt.ranges(len(want)); !slices.Equal(ranges, w) {
					t.Fatalf("Range headers %q, want %q", ranges, w)
				}
			} else if len(ranges) != 1 || !strings.HasPrefix(ranges[0], "bytes=") {
				t.Fatalf("Range headers %q, want one resume request", ranges)
			}
			if tt.minTraffc != nil && traffic.Load() < tt.minTraffc(len(want)) {
				t.Fatalf("progress total %d, want >= %d", traffic.Load(), tt.minTraffc(len(want)))
			}
		})
	}
}

func TestDownloadRetryAfter(t *testing.T) {
	date := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name  string
		fault cctest.Fault
		check func(d time.Duration) bool
		want  string
	}{
		{"503 seconds", cctest.Fault{Kind: cctest.Unavailable, Times: 2, RetryAfter: "7"}, func(d time.Duration) bool { return d == 7*time.Second }, "7s"},
		{"429 seconds", cctest.Fault{Kind: cctest.TooMany, Times: 2, RetryAfter: "2"}, func(d time.Duration) bool { return d == 2*time.Second }, "2s"},
		{"429 http date capped", cctest.Fault{Kind: cctest.TooMany, Times: 2, RetryAfter: date}, func(d time.Duration) bool { return d == time.Minute }, "the 1m cap"},
		{"503 huge capped", cctest.Fault{Kind: cctest.Unavailable, Times: 2, RetryAfter: "999999"}, func(d time.Duration) bool { return d == time.Minute }, "the 1m cap"},
		{"403 no header backs off", cctest.Fault{Kind: cctest.Status, Status: 403, Times: 2}, func(d time.Duration) bool { return d >= 5*time.Millisecond && d <= 40*time.Millisecond }, "backoff in [5ms, 40ms]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, path, want := shardServer(t)
			c, rec := testClient(t, srv)
			srv.Fail(path, tt.fault)
			dest := filepath.Join(t.TempDir(), "s.warc.gz")
			n, err := c.Download(context.Background(), path, dest, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkDownloaded(t, dest, n, want)
			waits := rec.all()
			if len(waits) != 2 || !tt.check(waits[0]) || !tt.check(waits[1]) {
				t.Fatalf("waits %v, want two of %s", waits, tt.want)
			}
			if srv.Requests(path) != 3 {
				t.Fatalf("%d requests, want 3", srv.Requests(path))
			}
		})
	}
	t.Run("http date honoured", func(t *testing.T) {
		srv, path, _ := shardServer(t)
		c, rec := testClient(t, srv)
		c.Retry.MaxRetryAfter = 5 * time.Hour
		srv.Fail(path, cctest.Fault{Kind: cctest.Unavailable, Times: 1, RetryAfter: time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)})
		if _, err := c.Download(context.Background(), path, filepath.Join(t.TempDir(), "s"), nil); err != nil {
			t.Fatal(err)
		}
		// HTTP dates have one-second resolution; allow a minute of slack
		// for a slow machine, far below the hour asked for.
		if w := rec.all(); len(w) != 1 || w[0] < 59*time.Minute || w[0] > time.Hour {
			t.Fatalf("waits %v, want one of about an hour", w)
		}
	})
}

func TestDownloadPermanentFailure(t *testing.T) {
	tests := []struct {
		name     string
		fault    cctest.Fault
		requests int
		notFound bool
		msg      string
	}{
		{"always 500", cctest.Fault{Kind: cctest.Status}, 4, false, "gave up after 4 attempts"},
		{"always 503", cctest.Fault{Kind: cctest.Unavailable, RetryAfter: "1"}, 4, false, "503 Service Unavailable"},
		{"always reset at 0", cctest.Fault{Kind: cctest.Reset, After: 0}, 4, false, "gave up after 4 attempts"},
		{"404", cctest.Fault{Kind: cctest.Status, Status: 404}, 1, true, "404 Not Found"},
		{"410", cctest.Fault{Kind: cctest.Status, Status: 410}, 1, true, "410 Gone"},
		{"400", cctest.Fault{Kind: cctest.Status, Status: 400}, 1, false, "400 Bad Request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, path, _ := shardServer(t)
			c, _ := testClient(t, srv)
			srv.Fail(path, tt.fault)
			dest := filepath.Join(t.TempDir(), "s.warc.gz")
			n, err := c.Download(context.Background(), path, dest, nil)
			if err == nil {
				t.Fatalf("Download succeeded with %d bytes", n)
			}
			msg := err.Error()
			if !strings.Contains(msg, path) || !strings.Contains(msg, tt.msg) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q should be one line naming %s and %q", msg, path, tt.msg)
			}
			if errors.Is(err, ErrNotFound) != tt.notFound {
				t.Fatalf("errors.Is(err, ErrNotFound) = %v, want %v", !tt.notFound, tt.notFound)
			}
			if got := srv.Requests(path); got != tt.requests {
				t.Fatalf("%d requests, want %d", got, tt.requests)
			}
			for _, p := range []string{dest, dest + ".part"} {
				if _, err := os.Stat(p); !os.IsNotExist(err) {
					t.Fatalf("%s exists after a failure that fetched nothing", p)
				}
			}
		})
	}
}

// TestDownloadProgressResetsAttempts: a link that breaks every time but
// delivers bytes each time still completes, since attempts only count
// failures that made no progress.
func TestDownloadProgressResetsAttempts(t *testing.T) {
	srv, path, want := shardServer(t)
	c, _ := testClient(t, srv)
	srv.Fail(path, cctest.Fault{Kind: cctest.Short, Times: 10, After: 100_000})
	dest := filepath.Join(t.TempDir(), "s.warc.gz")
	n, err := c.Download(context.Background(), path, dest, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkDownloaded(t, dest, n, want)
	if got := srv.Requests(path); got != 11 {
		t.Fatalf("%d requests, want 11", got)
	}
}

func TestDownloadKeepsPartForNextRun(t *testing.T) {
	srv, path, want := shardServer(t)
	c, _ := testClient(t, srv)
	dest := filepath.Join(t.TempDir(), "s.warc.gz")

	// First run: 1000 bytes arrive, then the server fails for good.
	srv.Fail(path, cctest.Fault{Kind: cctest.Short, Times: 1, After: 1000})
	// The short attempt made progress, so it starts a fresh count of
	// Attempts (4): it and three 500s exhaust it.
	srv.Fail(path, cctest.Fault{Kind: cctest.Status, Times: 3})
	if _, err := c.Download(context.Background(), path, dest, nil); err == nil {
		t.Fatalf("first run succeeded against a failing server: %+v", srv.Log())
	}
	if n := srv.Requests(path); n != 4 {
		t.Fatalf("first run made %d requests, want 4", n)
	}
	if fi, err := os.Stat(dest + ".part"); err != nil || fi.Size() != 1000 {
		t.Fatalf(".part after failed run: %v %v, want 1000 bytes", fi, err)
	}
	if _, err := os.Stat(dest); !os.IsNotExist(err) {
		t.Fatal("dest exists after a failed run")
	}

	// Second run resumes where the first stopped.
	before := len(srv.Log())
	n, err := c.Download(context.Background(), path, dest, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkDownloaded(t, dest, n, want)
	if r := srv.Log()[before:]; len(r) != 1 || r[0].Range != "bytes=1000-" {
		t.Fatalf("second run sent %+v, want one request with Range bytes=1000-", r)
	}
}

func TestDownloadExistingPart(t *testing.T) {
	tests := []struct {
		name     string
		part     func(want []byte) []byte
		requests int
		ranges   func(size int) []string
	}{
		{"complete part, crash before rename", func(w []byte) []byte { return w }, 1, func(n int) []string { return []string{fmt.Sprintf("bytes=%d-", n)} }},
		{"part longer than file", func(w []byte) []byte { return append(slices.Clone(w), "junk"...) }, 2, func(n int) []string { return []string{fmt.Sprintf("bytes=%d-", n+4)} }},
		{"half part", func(w []byte) []byte { return w[:len(w)/2] }, 1, func(n int) []string { return []string{fmt.Sprintf("bytes=%d-", n/2)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, path, want := shardServer(t)
			c, _ := testClient(t, srv)
			dest := filepath.Join(t.TempDir(), "s.warc.gz")
			if err := os.WriteFile(dest+".part", tt.part(want), 0o644); err != nil {
				t.Fatal(err)
			}
			n, err := c.Download(context.Background(), path, dest, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkDownloaded(t, dest, n, want)
			if got := srv.Requests(path); got != tt.requests {
				t.Fatalf("%d requests, want %d: %+v", got, tt.requests, srv.Log())
			}
			if r := srv.Ranges(path); !slices.Equal(r, tt.ranges(len(want))) {
				t.Fatalf("Range headers %q, want %q", r, tt.ranges(len(want)))
			}
		})
	}
}

func TestDownloadTruncatedFileIsServersWord(t *testing.T) {
	// Download trusts the server's declared length: a file the server
	// itself serves truncated downloads "successfully", and the gzip
	// reader downstream is what notices. This pins that contract.
	srv, path, want := shardServer(t)
	c, _ := testClient(t, srv)
	srv.Fail(path, cctest.Fault{Kind: cctest.Truncate, After: 12345})
	dest := filepath.Join(t.TempDir(), "s.warc.gz")
	n, err := c.Download(context.Background(), path, dest, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkDownloaded(t, dest, n, want[:12345])
}

func TestDownloadContextCancel(t *testing.T) {
	t.Run("during a stalled body", func(t *testing.T) {
		srv, path, _ := shardServer(t)
		c, _ := testClient(t, srv)
		c.StallTimeout = time.Hour
		srv.Fail(path, cctest.Fault{Kind: cctest.Slow, After: 5000, Delay: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		dest := filepath.Join(t.TempDir(), "s.warc.gz")
		_, err := c.Download(ctx, path, dest, func(int64) { cancel() }) // cancel once bytes flow
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
			t.Fatalf("error %v, want context.Canceled naming the path", err)
		}
		if srv.Requests(path) != 1 {
			t.Fatalf("%d requests after cancel, want 1", srv.Requests(path))
		}
		if _, err := os.Stat(dest); !os.IsNotExist(err) {
			t.Fatal("dest exists after cancel")
		}
	})
	t.Run("during backoff", func(t *testing.T) {
		srv, path, _ := shardServer(t)
		c, _ := testClient(t, srv)
		c.Sleep = nil // the real timer: it must give way to ctx
		c.Retry.BaseDelay, c.Retry.MaxDelay = time.Hour, time.Hour
		srv.Fail(path, cctest.Fault{Kind: cctest.Unavailable})
		ctx, cancel := context.WithCancel(context.Background())
		c.HTTP = &http.Client{Transport: cancelAfter{rt: srv.Client().Transport, cancel: cancel}}
		_, err := c.Download(ctx, path, filepath.Join(t.TempDir(), "s"), nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if !strings.Contains(err.Error(), "503") {
			t.Fatalf("error %q should carry the last cause", err)
		}
	})
	t.Run("before start", func(t *testing.T) {
		srv, path, _ := shardServer(t)
		c, _ := testClient(t, srv)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Download(ctx, path, filepath.Join(t.TempDir(), "s"), nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want context.Canceled", err)
		}
		if n := srv.Requests(path); n != 0 {
			t.Fatalf("%d requests with a cancelled context", n)
		}
	})
}

// cancelAfter cancels a context shortly after a response has arrived, so
// the cancellation lands in the wait that follows. If it lands earlier the
// test's assertions still hold; only the code path differs.
type cancelAfter struct {
	rt     http.RoundTripper
	cancel context.CancelFunc
}

func (c cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(r)
	time.AfterFunc(20*time.Millisecond, c.cancel) // by then the caller is most likely waiting
	return resp, err
}

func BenchmarkDownload(b *testing.B) {
	src := cctest.Corpus(b, "medium.warc.gz")
	srv := cctest.NewServer(b, cctest.Config{Shards: []string{src}})
	c := &Client{BaseURL: srv.URL, HTTP: srv.Client()}
	dest := filepath.Join(b.TempDir(), "m.warc.gz")
	var size int64
	b.ResetTimer()
	for b.Loop() {
		n, err := c.Download(context.Background(), srv.Paths[0], dest, nil)
		if err != nil {
			b.Fatal(err)
		}
		size = n
	}
	b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
}
