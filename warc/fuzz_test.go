package warc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader, seekable and not. It must
// not panic, must make progress (each result consumes input, so the number
// of results is bounded by the input size), and must end with io.EOF or a
// non-corrupt error.
func FuzzReader(f *testing.F) {
	gz := buildFixture(f, true, 3, nil)
	pl := buildFixture(f, false, 3, nil)
	f.Add(gz.data)
	f.Add(pl.data)
	f.Add(gz.data[:len(gz.data)-20])
	f.Add(append(append([]byte(nil), pl.data[:100]...), pl.data[150:]...))
	f.Add(gzipBytes(pl.data))
	f.Add([]byte("WARC/1.0\r\nContent-Length: 5\r\n\r\nHTTP/\r\n\r\n"))
	f.Add([]byte("WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 30\r\n\r\nHTTP/1.1 200 \r\na: b\r\n\r\n"))
	if dir, err := os.Getwd(); err == nil {
		if b, err := os.ReadFile(filepath.Join(dir, "..", "..", "shared", "corpus", "small.warc.gz")); err == nil {
			f.Add(b[:4000])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, seekable := range []bool{true, false} {
			var r io.Reader = bytes.NewReader(data)
			if !seekable {
				r = struct{ io.Reader }{r}
			}
			rd, err := NewReader(r)
			if err != nil {
				continue
			}
			steps := 0
			for ; ; steps++ {
				if steps > len(data)+2 {
					t.Fatalf("no progress: %d results from %d bytes", steps, len(data))
				}
				rec, err := rd.Next()
				var ce *CorruptError
				if errors.As(err, &ce) {
					continue
				}
				if err != nil {
					if again, _ := rd.Next(); again != nil {
						t.Fatal("Next returned a record after a final error")
					}
					break
				}
				if rec.Type == "response" {
					if resp, err := ReadHTTPResponse(rec.Body); err == nil {
						io.Copy(io.Discard, resp.Body)
					}
				}
				io.Copy(io.Discard, rec.Body)
			}
		}
	})
}

func FuzzReadHTTPResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nbody"))
	f.Add([]byte("HTTP/1.1 200 \r\ncontent-type: text/html\r\n x\r\n\r\n"))
	f.Add([]byte("HTTP/1.0 404\nA\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := ReadHTTPResponse(bytes.NewReader(data))
		if err != nil {
			return
		}
		if resp.Status < 0 || resp.Status > 999 {
			t.Fatalf("status %d", resp.Status)
		}
		resp.ContentType()
		io.Copy(io.Discard, resp.Body)
	})
}
