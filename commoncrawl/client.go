package commoncrawl

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Default endpoints. The CLI overrides them (CCRAWL_BASE_URL); tests point
// them at cctest servers.
const (
	DefaultBaseURL  = "https://data.commoncrawl.org"
	DefaultIndexURL = "https://index.commoncrawl.org"
)

// ErrNotFound is wrapped when the server answers 404 or 410. It is never
// retried: Common Crawl files do not appear later.
var ErrNotFound = errors.New("not found")

// maxSmallBody bounds manifests and collinfo.json, which are read into
// memory; a real warc.paths.gz is about 1 MB.
const maxSmallBody = 64 << 20

// Client reaches Common Crawl's data and index servers. The zero value uses
// the public endpoints and http.DefaultClient. A Client is safe for
// concurrent use once configured.
type Client struct {
	BaseURL   string       // data server; "" means DefaultBaseURL
	IndexURL  string       // index server; "" means DefaultIndexURL
	HTTP      *http.Client // nil means http.DefaultClient; keep Timeout 0, downloads are long
	CacheDir  string       // where manifests are cached; "" disables the cache
	UserAgent string       // sent on every request when set

	Retry Retry // attempts and backoff; zero fields take defaults

	// StallTimeout aborts and retries an attempt that receives no bytes for
	// this long (a hung connection is otherwise indistinguishable from a
	// slow one). Zero means 2 minutes.
	StallTimeout time.Duration

	// Sleep waits between attempts. nil means a timer that returns early
	// with ctx.Err() on cancellation. Tests inject one to record delays.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Retry configures how failed requests are repeated. Delays grow
// exponentially from BaseDelay to MaxDelay with jitter, so many workers
// throttled at once do not return in lockstep.
type Retry struct {
	Attempts      int           // tries per request, counted afresh after one that made progress; 0 means 8
	BaseDelay     time.Duration // first backoff; 0 means 1s
	MaxDelay      time.Duration // backoff ceiling; 0 means 1m
	MaxRetryAfter time.Duration // cap on a server's Retry-After; 0 means 5m
}

func (c *Client) baseURL() string  { return strings.TrimRight(or(c.BaseURL, DefaultBaseURL), "/") }
func (c *Client) indexURL() string { return strings.TrimRight(or(c.IndexURL, DefaultIndexURL), "/") }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (c *Client) stallTimeout() time.Duration {
	if c.StallTimeout > 0 {
		return c.StallTimeout
	}
	return 2 * time.Minute
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

// safeName guards crawl ids that become URL path and cache file names.
var safeName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Manifest returns the file paths listed in a crawl's manifest, in manifest
// order: kind "warc" reads crawl-data/<crawl>/warc.paths.gz, "wet" and "wat"
// their namesakes. Paths are relative to the data server (pass them to
// Download). With CacheDir set the compressed manifest is kept at
// <CacheDir>/<crawl>/<kind>.paths.gz and reused, so a resumed run sees the
// same list without a request.
func (c *Client) Manifest(ctx context.Context, crawl, kind string) ([]string, error) {
	if !safeName.MatchString(crawl) || strings.Contains(crawl, "..") {
		return nil, fmt.Errorf("manifest: invalid crawl id %q (want e.g. CC-MAIN-2025-43)", crawl)
	}
	switch kind {
	case "warc", "wet", "wat":
	default:
		return nil, fmt.Errorf("manifest: unknown kind %q (want warc, wet or wat)", kind)
	}
	rel := "crawl-data/" + crawl + "/" + kind + ".paths.gz"
	var cache string
	if c.CacheDir != "" {
		cache = filepath.Join(c.CacheDir, crawl, kind+".paths.gz")
		if raw, err := os.ReadFile(cache); err == nil {
			// A cache file that no longer parses is refetched, not trusted.
			if paths, err := parseManifest(bytes.NewReader(raw)); err == nil {
				return paths, nil
			}
		}
	}
	raw, err := c.getSmall(ctx, c.baseURL()+"/"+rel)
	if err != nil {
		return nil, fmt.Errorf("%s manifest of %s: %w", kind, crawl, err)
	}
	paths, err := parseManifest(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s manifest of %s: %s: %w", kind, crawl, rel, err)
	}
	if cache != "" {
		if err := writeFileAtomic(cache, raw); err != nil {
			return nil, fmt.Errorf("%s manifest of %s: cache: %w", kind, crawl, err)
		}
	}
	return paths, nil
}

// parseManifest gunzips a paths.gz body: one path per line, blank lines
// skipped.
func parseManifest(r io.Reader) ([]string, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip file: %w", err)
	}
	defer zr.Close()
	var paths []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "/") || strings.Contains(line, "..") || strings.ContainsAny(line, "?#\x00") {
			return nil, fmt.Errorf("line %d: unsafe path %q", len(paths)+1, line)
		}
		paths = append(paths, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("after %d paths: %w", len(paths), err)
	}
	if len(paths) == 0 {
		return nil, errors.New("lists no files")
	}
	return paths, nil
}

// LatestCrawl returns the id of the newest crawl, the first entry of the
// index server's collinfo.json (which lists crawls newest first).
func (c *Client) LatestCrawl(ctx context.Context) (string, error) {
	u := c.indexURL() + "/collinfo.json"
	raw, err := c.getSmall(ctx, u)
	if err != nil {
		return "", fmt.Errorf("latest crawl: %w", err)
	}
	id, err := parseCollinfo(raw)
	if err != nil {
		return "", fmt.Errorf("latest crawl: %s: %w", u, err)
	}
	return id, nil
}

func parseCollinfo(raw []byte) (string, error) {
	var colls []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(raw, &colls); err != nil {
		return "", fmt.Errorf("decode collinfo.json: %w", err)
	}
	if len(colls) == 0 || colls[0].ID == "" {
		return "", errors.New("collinfo.json lists no crawls")
	}
	if !safeName.MatchString(colls[0].ID) {
		return "", fmt.Errorf("collinfo.json: unusable crawl id %q", colls[0].ID)
	}
	return colls[0].ID, nil
}

// getSmall fetches a small document into memory, with the same retries as
// Download.
func (c *Client) getSmall(ctx context.Context, u string) ([]byte, error) {
	var body []byte
	err := c.retry(ctx, func(ctx context.Context) (bool, error) {
		// Bound the whole fetch: these documents are small, and a hung
		// connection must turn into a retry, not a stuck run.
		ctx, cancel := context.WithTimeout(ctx, c.stallTimeout())
		defer cancel()
		resp, err := c.get(ctx, u, -1)
		if err != nil {
			return false, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return false, statusErr(resp)
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, maxSmallBody+1))
		if err != nil {
			return false, temporary(fmt.Errorf("read body: %w", err), 0)
		}
		if len(b) > maxSmallBody {
			return false, fmt.Errorf("%s: body larger than %d bytes", u, maxSmallBody)
		}
		body = b
		return false, nil
	})
	return body, err
}

// get issues one GET, asking for the bytes from offset on when offset > 0.
// Transport failures come back as temporary (retryable) errors.
func (c *Client) get(ctx context.Context, u string, offset int64) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	// Ask for the bytes as stored: transparent decompression would change
	// the length and make Range offsets meaningless.
	req.Header.Set("Accept-Encoding", "identity")
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is already in the caller's context
		}
		return nil, temporary(fmt.Errorf("GET %s: %w", u, err), 0)
	}
	return resp, nil
}

// writeFileAtomic writes data so that readers see the old file or the whole
// new one, never a torn write.
func writeFileAtomic(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable. Best effort: not every filesystem
// supports fsync on a directory, and the data itself is already synced.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
