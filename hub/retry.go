package hub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/open-markdown/ccrawl/internal/backoff"
)

// Retry defaults. Eight attempts with a 1s base and 60s cap ride out a few
// minutes of Hub trouble, which is what a shard-sized upload can afford
// before the caller should hear about it.
const (
	defaultMaxAttempts = 8
	defaultBaseDelay   = time.Second
	defaultMaxDelay    = 60 * time.Second
	// maxRetryAfter caps a server's Retry-After, so a bogus value cannot
	// stall a run forever.
	maxRetryAfter = time.Hour
	maxErrorBody  = 1 << 20
)

// HTTPError is a non-success answer from the Hub (or its storage backend)
// that retrying did not fix.
type HTTPError struct {
	Op      string // what the client was doing, e.g. "commit"
	Method  string
	URL     string
	Status  int
	Message string // the Hub's X-Error-Message or JSON "error", if any
}

func (e *HTTPError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	return fmt.Sprintf("hub: %s: %s %s: %d %s", e.Op, e.Method, redactURL(e.URL), e.Status, oneLine(msg))
}

// request describes one HTTP call the client may send several times; body
// is a factory so every attempt gets a fresh reader.
type request struct {
	op      string
	method  string
	url     string
	header  http.Header
	body    func() (io.ReadCloser, error)
	size    int64 // Content-Length; -1 when unknown
	auth    bool
	maxBody int64 // response bytes to keep; 0 means 1 MiB
	// landed is asked before re-sending after an ambiguous failure
	// (dropped connection or 5xx): the first attempt may have taken
	// effect, and re-sending a commit would duplicate it.
	landed func(ctx context.Context) (bool, error)
}

// response is a fully read reply; Hub API replies are small JSON documents.
type response struct {
	status int
	header http.Header
	body   []byte
}

func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout, http.StatusRequestTimeout:
		return true
	}
	return false
}

// do sends r until it gets a non-retryable answer or runs out of attempts.
// A nil landed-hook result of true ends the loop with a nil response.
func (c *Client) do(ctx context.Context, r request) (*response, error) {
	attempts := c.MaxAttempts
	if attempts <= 0 {
		attempts = defaultMaxAttempts
	}
	var lastErr error
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 && r.landed != nil && !isRateLimited(lastErr) {
			ok, err := r.landed(ctx)
			if err == nil && ok {
				return nil, nil
			}
		}
		resp, err := c.once(ctx, r)
		if err == nil && !retryableStatus(resp.status) {
			if resp.status >= 300 {
				return resp, statusError(r, resp)
			}
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("hub: %s: %w", r.op, ctx.Err())
		}
		var wait time.Duration
		if err != nil {
			lastErr = fmt.Errorf("hub: %s: %s %s: %w", r.op, r.method, redactURL(r.url), err)
		} else {
			lastErr = statusError(r, resp)
			if d, ok := backoff.RetryAfter(resp.header.Get("Retry-After"), c.now()); ok {
				wait = min(d, maxRetryAfter)
			}
		}
		if attempt == attempts-1 {
			break
		}
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("hub: %s: waiting to retry: %w", r.op, err)
		}
	}
	return nil, fmt.Errorf("%w (gave up after %d attempts)", lastErr, attempts)
}

func isRateLimited(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.Status == http.StatusTooManyRequests
}

func (c *Client) once(ctx context.Context, r request) (*response, error) {
	var body io.ReadCloser
	if r.body != nil {
		b, err := r.body()
		if err != nil {
			return nil, err
		}
		body = b
	}
	req, err := http.NewRequestWithContext(ctx, r.method, r.url, body)
	if err != nil {
		if body != nil {
			body.Close()
		}
		return nil, err
	}
	if body != nil && r.size >= 0 {
		req.ContentLength = r.size
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	if r.auth && c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	ua := c.UserAgent
	if ua == "" {
		ua = "ccrawl-hub"
	}
	req.Header.Set("User-Agent", ua)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	limit := r.maxBody
	if limit <= 0 {
		limit = maxErrorBody
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		// A reply cut short is as ambiguous as no reply: retry it.
		return nil, fmt.Errorf("reading reply: %w", err)
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}, nil
}

func statusError(r request, resp *response) error {
	msg := resp.header.Get("X-Error-Message")
	if msg == "" {
		msg = jsonErrorMessage(resp.body)
	}
	return &HTTPError{Op: r.op, Method: r.method, URL: r.url, Status: resp.status, Message: msg}
}

// backoff is the wait before retrying after failed attempt number attempt
// (0-based).
func (c *Client) backoff(attempt int) time.Duration {
	base, maxD := c.BaseDelay, c.MaxDelay
	if base <= 0 {
		base = defaultBaseDelay
	}
	if maxD <= 0 {
		maxD = defaultMaxDelay
	}
	return backoff.Jittered(base, maxD, attempt+1)
}

func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return backoff.Sleep(ctx, d)
}

func (c *Client) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// redactURL drops the query: presigned storage URLs carry credentials
// there, and errors end up in logs.
func redactURL(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
