package commoncrawl

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/open-markdown/ccrawl/commoncrawl/cctest"
)

// sleeps records the waits a Client asks for instead of waiting, so tests
// check backoff and Retry-After without depending on the wall clock.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) all() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// testClient points a Client at srv with fast, recorded retries.
func testClient(t testing.TB, srv *cctest.Server) (*Client, *sleeps) {
	rec := &sleeps{}
	return &Client{
		BaseURL:      srv.URL,
		IndexURL:     srv.URL,
		HTTP:         srv.Client(),
		CacheDir:     t.TempDir(),
		UserAgent:    "ccrawl-test",
		Retry:        Retry{Attempts: 4, BaseDelay: 10 * time.Millisecond, MaxDelay: 40 * time.Millisecond, MaxRetryAfter: time.Minute},
		StallTimeout: 10 * time.Second,
		Sleep:        rec.sleep,
	}, rec
}
