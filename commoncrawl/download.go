package commoncrawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// errStalled cancels an attempt that has gone StallTimeout without a byte.
var errStalled = errors.New("connection stalled")

// download is the state one Download carries across attempts.
type download struct {
	c        *Client
	url      string
	f        *os.File
	offset   int64 // bytes of the file already in f
	total    int64 // full file size from the server, -1 until known
	high     int64 // largest offset reached, to tell progress from re-fetching
	progress func(int64)
	buf      []byte
}

// Download fetches <BaseURL>/<path> into dest and returns its size. Bytes
// stream into dest+".part", which is fsynced and renamed to dest only once
// its length matches the server's Content-Length (or Content-Range total),
// so dest never holds a partial file. A broken transfer resumes with an
// HTTP Range request; a server that ignores Range is read again from the
// start. A .part left by an earlier, interrupted run is resumed too, and is
// kept on failure or cancellation for the next run; it is removed when the
// file does not exist (ErrNotFound).
//
// 403, 408, 429, 5xx, transport errors, short bodies and stalls are retried
// per c.Retry, waiting as long as a Retry-After header asks (capped); other
// statuses fail at once. progress, if not nil, is called with the number of
// bytes each write added, so bytes fetched again after a restart from zero
// are counted again: it measures traffic, and sums across concurrent
// downloads. Two concurrent Downloads must not share a dest.
func (c *Client) Download(ctx context.Context, path, dest string, progress func(n int64)) (int64, error) {
	size, err := c.download(ctx, path, dest, progress)
	if err != nil {
		return 0, fmt.Errorf("download %s: %w", path, err)
	}
	return size, nil
}

func (c *Client) download(ctx context.Context, path, dest string, progress func(int64)) (int64, error) {
	path = strings.TrimLeft(path, "/")
	if path == "" || dest == "" {
		return 0, errors.New("empty path or destination")
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return 0, err
	}
	part := dest + ".part"
	f, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return 0, err
	}
	closed := false
	defer func() {
		if !closed {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	d := &download{c: c, url: c.baseURL() + "/" + path, f: f, offset: fi.Size(), total: -1, progress: progress}
	d.high = d.offset
	err = c.retry(ctx, func(ctx context.Context) (bool, error) {
		err := d.attempt(ctx)
		progressed := d.offset > d.high
		d.high = max(d.high, d.offset)
		return progressed, err
	})
	if err != nil {
		if errors.Is(err, ErrNotFound) || d.offset == 0 {
			f.Close()
			closed = true
			os.Remove(part)
		}
		return 0, err
	}
	if d.total >= 0 && d.offset != d.total {
		return 0, fmt.Errorf("have %d bytes, server declared %d", d.offset, d.total)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("sync %s: %w", part, err)
	}
	closed = true
	if err := f.Close(); err != nil {
		return 0, fmt.Errorf("close %s: %w", part, err)
	}
	if err := os.Rename(part, dest); err != nil {
		return 0, err
	}
	syncDir(filepath.Dir(dest))
	return d.offset, nil
}

// restart discards what the .part holds.
func (d *download) restart() error {
	d.offset = 0
	if err := d.f.Truncate(0); err != nil {
		return fmt.Errorf("truncate %s: %w", d.f.Name(), err)
	}
	return nil
}

// attempt makes one request and appends what it delivers to the file.
func (d *download) attempt(parent context.Context) error {
	stall := d.c.stallTimeout()
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	timer := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer timer.Stop()
	// A stalled attempt surfaces as "context canceled" from the transport;
	// name the real cause.
	stalled := func(err error) error {
		if parent.Err() == nil && errors.Is(context.Cause(ctx), errStalled) {
			return temporary(fmt.Errorf("no data for %v at byte %d: %w", stall, d.offset, errStalled), 0)
		}
		return err
	}

	resp, err := d.c.get(ctx, d.url, d.offset)
	if err != nil {
		return stalled(err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		if d.offset > 0 {
			// The server ignored Range and sent the whole file.
			if err := d.restart(); err != nil {
				return err
			}
		}
		d.total = resp.ContentLength
	case http.StatusPartialContent:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != d.offset {
			if err := d.restart(); err != nil {
				return err
			}
			return temporary(fmt.Errorf("asked for bytes from %d, server sent Content-Range %q", d.offset, resp.Header.Get("Content-Range")), 0)
		}
		d.total = total
	case http.StatusRequestedRangeNotSatisfiable:
		_, total, _ := parseContentRange(resp.Header.Get("Content-Range"))
		if d.offset > 0 && total == d.offset {
			d.total = total // an earlier run fetched everything but the rename
			return nil
		}
		if d.offset == 0 {
			return statusErr(resp)
		}
		at := d.offset
		if err := d.restart(); err != nil {
			return err
		}
		return temporary(fmt.Errorf("server refused to resume at byte %d (%s)", at, resp.Status), 0)
	default:
		return statusErr(resp)
	}
	if d.total >= 0 && d.offset > d.total {
		if err := d.restart(); err != nil {
			return err
		}
		return temporary(fmt.Errorf("partial file is longer than the %d bytes the server declares", d.total), 0)
	}
	if _, err := d.f.Seek(d.offset, io.SeekStart); err != nil {
		return fmt.Errorf("seek %s: %w", d.f.Name(), err)
	}
	if d.buf == nil {
		d.buf = make([]byte, 256<<10)
	}
	for {
		n, rerr := resp.Body.Read(d.buf)
		if n > 0 {
			timer.Reset(stall)
			if d.total >= 0 && d.offset+int64(n) > d.total {
				if err := d.restart(); err != nil {
					return err
				}
				return temporary(fmt.Errorf("server sent more than the %d bytes it declared", d.total), 0)
			}
			if _, err := d.f.Write(d.buf[:n]); err != nil {
				return fmt.Errorf("write %s: %w", d.f.Name(), err) // local trouble: not retried
			}
			d.offset += int64(n)
			if d.progress != nil {
				d.progress(int64(n))
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return stalled(temporary(fmt.Errorf("read body at byte %d: %w", d.offset, rerr), 0))
		}
	}
	if d.total >= 0 && d.offset < d.total {
		return temporary(fmt.Errorf("body ended at byte %d of %d: %w", d.offset, d.total, io.ErrUnexpectedEOF), 0)
	}
	return nil
}

// parseContentRange reads "bytes start-end/total" or "bytes */total"; total
// is -1 when the server writes "*".
func parseContentRange(v string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !found {
		return 0, -1, false
	}
	rng, tot, found := strings.Cut(strings.TrimSpace(rest), "/")
	if !found {
		return 0, -1, false
	}
	total = -1
	if tot != "*" {
		t, err := strconv.ParseInt(tot, 10, 64)
		if err != nil || t < 0 {
			return 0, -1, false
		}
		total = t
	}
	if rng == "*" {
		return 0, total, total >= 0
	}
	a, b, found := strings.Cut(rng, "-")
	if !found {
		return 0, -1, false
	}
	s, err1 := strconv.ParseInt(a, 10, 64)
	e, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || s < 0 || e < s || (total >= 0 && e >= total) {
		return 0, -1, false
	}
	return s, total, true
}
