package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/temoto/robotstxt"
)

// maxRobotsBytes is Google's robots.txt size limit; rules past it are ignored.
const maxRobotsBytes = 500 << 10

// robotsTTL is how long an unused robots.txt verdict is kept. It bounds
// memory on runs over millions of hosts; a host that comes back later pays
// one more robots.txt request, which is what a polite crawler does anyway.
const robotsTTL = 30 * time.Minute

// robotsCache fetches each scheme+host's robots.txt once (per robotsTTL of
// use); concurrent fetches for the same host wait for the first.
type robotsCache struct {
	mu      sync.Mutex
	entries map[string]*robotsEntry
	calls   int
}

type robotsEntry struct {
	ready chan struct{}
	last  time.Time             // last lookup; guarded by robotsCache.mu
	data  *robotstxt.RobotsData // nil when fetching failed at the network level
	class string
	err   error
	// abandoned: the fetching caller's context ended first; waiters retry.
	abandoned bool
}

func newRobotsCache() *robotsCache { return &robotsCache{entries: map[string]*robotsEntry{}} }

// lookup returns key's entry; owner is true if the caller created it and
// must fetch robots.txt and close ready.
func (c *robotsCache) lookup(key string, now time.Time) (e *robotsEntry, owner bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls%sweepEvery == 0 {
		c.sweepLocked(now)
	}
	e = c.entries[key]
	if e == nil {
		e, owner = &robotsEntry{ready: make(chan struct{})}, true
		c.entries[key] = e
	}
	e.last = now
	return e, owner
}

// sweepLocked drops settled entries unused for robotsTTL; entries still
// being fetched have waiters and stay.
func (c *robotsCache) sweepLocked(now time.Time) {
	for k, e := range c.entries {
		select {
		case <-e.ready:
			if now.Sub(e.last) > robotsTTL {
				delete(c.entries, k)
			}
		default:
		}
	}
}

// robotsCheck reports whether u may be fetched. Policy, decided here once:
//   - 2xx: parse and obey; an unparseable file allows all (it says nothing
//     we can obey, and crawlers such as Google treat it so);
//   - 4xx: allow all; 5xx: disallow all, Google's convention, because a
//     failing server is the one most hurt by more load;
//   - a network failure (dns, refused, timeout, tls, reset): every URL of
//     that scheme+host fails with that class and no further connections are
//     tried, so a dead host costs one attempt (per robotsTTL) rather than
//     one per URL. The price: one unlucky timeout condemns the host's URLs.
func (f *Fetcher) robotsCheck(ctx context.Context, u *url.URL) (class string, err error) {
	key := u.Scheme + "://" + strings.ToLower(u.Host)
	var e *robotsEntry
	for {
		var owner bool
		e, owner = f.robots.lookup(key, time.Now())
		if owner {
			e.data, e.class, e.err = f.fetchRobots(ctx, key)
			if ctx.Err() != nil && e.data == nil {
				// Our caller gave up, not the host: let the next URL try again.
				e.abandoned = true
				f.robots.mu.Lock()
				delete(f.robots.entries, key)
				f.robots.mu.Unlock()
			}
			close(e.ready)
		} else {
			select {
			case <-e.ready:
			case <-ctx.Done():
				return ClassOther, fmt.Errorf("%s: waiting for robots.txt: %w", u, ctx.Err())
			}
		}
		if !e.abandoned || ctx.Err() != nil {
			break
		}
	}
	if e.data == nil {
		return e.class, fmt.Errorf("%s: robots.txt unreachable: %w", u, e.err)
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if !e.data.TestAgent(path, f.agent) {
		return ClassRobots, fmt.Errorf("%s: %w for user-agent %q", u, ErrRobots, f.agent)
	}
	return "", nil
}

// fetchRobots GETs base/robots.txt through the normal client so it shares
// connections and the host's politeness budget; redirects are followed (up
// to MaxRedirects, without per-hop robots checks, which would recurse).
func (f *Fetcher) fetchRobots(ctx context.Context, base string) (*robotstxt.RobotsData, string, error) {
	u, err := url.Parse(base + "/robots.txt")
	if err != nil {
		return nil, ClassOther, err
	}
	for hop := 0; ; hop++ {
		status, body, loc, err := f.robotsExchange(ctx, u)
		if err != nil {
			return nil, classify(err), err
		}
		if loc != "" && hop < f.opts.MaxRedirects {
			if next, err := u.Parse(loc); err == nil && (next.Scheme == "http" || next.Scheme == "https") {
				u = next
				continue
			}
		}
		switch {
		case status >= 200 && status < 300:
			data, err := robotstxt.FromBytes(body)
			if err != nil {
				return allowAllRobots, "", nil
			}
			return data, "", nil
		case status >= 500:
			return disallowAllRobots, "", nil
		default: // 4xx, unfollowed 3xx, anything odd
			return allowAllRobots, "", nil
		}
	}
}

var (
	allowAllRobots, _    = robotstxt.FromStatusAndBytes(404, nil)
	disallowAllRobots, _ = robotstxt.FromStatusAndBytes(503, nil)
)

func (f *Fetcher) robotsExchange(ctx context.Context, u *url.URL) (status int, body []byte, location string, err error) {
	release, err := f.hosts.acquire(ctx, hostKey(u))
	if err != nil {
		return 0, nil, "", err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, "", err
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, nil, "", unwrapURLError(u, err)
	}
	defer resp.Body.Close()
	if isRedirect(resp.StatusCode) {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, nil, resp.Header.Get("Location"), nil
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
	if err != nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return 0, nil, "", fmt.Errorf("%s: reading: %w", u, err)
	}
	return resp.StatusCode, body, "", nil
}
