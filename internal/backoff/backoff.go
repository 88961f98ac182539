// Package backoff holds the retry arithmetic the network clients share
// (Common Crawl downloads, Hub uploads): exponential delays with jitter, the
// Retry-After header, and a sleep that a context can cut short. It decides
// nothing about what is worth retrying; that stays with each client.
package backoff

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Jittered is the wait before retry n (1-based): base doubled n-1 times,
// capped at max, with "equal jitter" (half fixed, half random) so many
// clients throttled at once spread out but never retry immediately.
func Jittered(base, max time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	return d/2 + rand.N(d/2+1)
}

// RetryAfter reads a Retry-After value: delay-seconds or an HTTP date. ok
// is false when the header is absent or malformed; a date in the past is 0;
// an absurdly large number saturates (callers cap it).
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return time.Duration(1<<63 - 1), true
			}
			return 0, false
		}
		if secs > int64((1<<63-1)/time.Second) {
			return time.Duration(1<<63 - 1), true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// Sleep waits d, returning early with ctx's error when it ends.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
