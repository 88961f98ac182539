package commoncrawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/open-markdown/ccrawl/internal/backoff"
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
		after, _ := backoff.RetryAfter(resp.Header.Get("Retry-After"), time.Now())
		return temporary(err, after)
	}
	return err
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return backoff.Sleep(ctx, d)
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
		wait := backoff.Jittered(p.BaseDelay, p.MaxDelay, failures)
		if t.after > 0 {
			wait = min(t.after, p.MaxRetryAfter)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%w while waiting to retry (last error: %v)", err, t.err)
		}
	}
}
