package commoncrawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = 8
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = time.Second
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = time.Minute
	}
	if r.MaxDelay < r.BaseDelay {
		r.MaxDelay = r.BaseDelay
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = 5 * time.Minute
	}
	return r
}

// tempError marks a failure worth retrying: a transport error, a broken
// body, or a status the server uses for throttling and hiccups.
type tempError struct {
	err   error
	after time.Duration // server-requested wait (Retry-After), 0 if none
}

func (e *tempError) Error() string { return e.err.Error() }
func (e *tempError) Unwrap() error { return e.err }

func temporary(err error, after time.Duration) error { return &tempError{err: err, after: after} }

// statusError is an unexpected HTTP status.
type statusError struct {
	url    string
	status string
	code   int
}

func (e *statusError) Error() string {
	return fmt.Sprintf("GET %s: server returned %s", e.url, e.status)
}

func (e *statusError) Is(target error) bool {
	return target == ErrNotFound && (e.code == http.StatusNotFound || e.code == http.StatusGone)
}

// statusErr turns a non-success response into an error, temporary for the
// statuses Common Crawl's S3/CloudFront front end uses when throttling or
// briefly failing (403 is among them: CloudFront answers rate-limited
// clients with it). It drains a little of the body so the connection can be
// reused.
func statusErr(resp *http.Response) error {
	io.CopyN(io.Discard, resp.Body, 4<<10)
	err := &statusError{url: resp.Request.URL.String(), status: resp.Status, code: resp.StatusCode}
	switch c := resp.StatusCode; {
	case c == http.StatusForbidden, c == http.StatusRequestTimeout, c == http.StatusTooManyRequests, c >= 500 && c <= 599:
		after, _ := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return temporary(err, after)
	}
	return err
}

// parseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return time.Duration(1<<63 - 1), true // absurdly long; the caller caps it
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

// backoff is the wait before retry number n (1-based): exponential with
// "equal jitter", so it never drops below half the nominal delay.
func backoff(p Retry, n int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	return d/2 + rand.N(d/2+1)
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// retry runs attempt until it succeeds, fails permanently, or has failed
// Retry.Attempts times in a row without progress. An attempt that moved the
// download forward resets the count: a long transfer over a flaky link
// should finish, however many times it is interrupted, as long as each
// connection delivers something.
func (c *Client) retry(ctx context.Context, attempt func(context.Context) (progressed bool, err error)) error {
	p := c.Retry.withDefaults()
	failures := 0
	for {
		progressed, err := attempt(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			if errors.Is(err, ctx.Err()) {
				return err
			}
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		}
		var t *tempError
		if !errors.As(err, &t) {
			return err
		}
		if progressed {
			failures = 0
		}
		failures++
		if failures >= p.Attempts {
			return fmt.Errorf("gave up after %d attempts: %w", failures, err)
		}
		wait := backoff(p, failures)
		if t.after > 0 {
			wait = min(t.after, p.MaxRetryAfter)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%w while waiting to retry (last error: %v)", err, t.err)
		}
	}
}
