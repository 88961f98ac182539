package fetch

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestHeadCapture(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"crlf", "HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody", "HTTP/1.1 200 OK\r\nA: b\r\n\r\n"},
		{"bare lf", "HTTP/1.0 404 Nope\nA: b\n\nbody", "HTTP/1.0 404 Nope\nA: b\n\n"},
		{"no headers", "HTTP/1.1 204 No Content\r\n\r\n", "HTTP/1.1 204 No Content\r\n\r\n"},
		{"1xx skipped", "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nX: y\r\n\r\n<html>",
			"HTTP/1.1 200 OK\r\nX: y\r\n\r\n"},
		{"incomplete", "HTTP/1.1 200 OK\r\nA: b\r\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for chunk := 1; chunk <= len(tc.in); chunk++ {
				if got := captureChunks([]byte(tc.in), chunk); got != tc.want {
					t.Fatalf("chunk %d: got %q, want %q", chunk, got, tc.want)
				}
			}
		})
	}
}

func captureChunks(in []byte, chunk int) string {
	c := &recConn{}
	c.startCapture()
	for len(in) > 0 {
		n := min(chunk, len(in))
		c.feed(in[:n])
		in = in[n:]
	}
	return c.takeCapture()
}

// FuzzHeadCapture feeds server bytes (outside input) through the head
// capture: it must not panic, must not depend on how reads are split, and
// what it keeps must be a prefix-free head ending in a blank line.
func FuzzHeadCapture(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"), uint8(3))
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 500 X\n\n"), uint8(1))
	f.Add([]byte("\n\n\r\n"), uint8(2))
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		whole := captureChunks(in, len(in)+1)
		split := captureChunks(in, int(chunk)+1)
		if whole != split {
			t.Fatalf("capture depends on read sizes: %q vs %q", whole, split)
		}
		if whole == "" {
			return
		}
		if !bytes.Contains(in, []byte(whole)) || headEnd([]byte(whole)) != len(whole) {
			t.Fatalf("captured %q is not a head taken from the input", whole)
		}
		if isInformational([]byte(whole)) {
			t.Fatalf("captured an informational head %q", whole)
		}
	})
}

func TestReadCapped(t *testing.T) {
	data := bytes.Repeat([]byte("abcdefghij"), 1000) // 10,000 bytes
	boom := errors.New("boom")
	tests := []struct {
		name     string
		r        io.Reader
		declared int64
		limit    int64
		wantLen  int
		wantErr  error
	}{
		{"declared exact", bytes.NewReader(data), 10000, 20000, 10000, nil},
		{"undeclared", bytes.NewReader(data), -1, 20000, 10000, nil},
		{"one byte reads", iotest.OneByteReader(bytes.NewReader(data)), -1, 20000, 10000, nil},
		{"at the cap", bytes.NewReader(data), 10000, 10000, 10000, nil},
		{"over the cap", bytes.NewReader(data), -1, 9999, 10000, nil},
		{"declared lies short", bytes.NewReader(data), 10, 20000, 10000, nil},
		{"error midway", io.MultiReader(bytes.NewReader(data[:500]), iotest.ErrReader(boom)), -1, 20000, 500, boom},
		{"empty", bytes.NewReader(nil), 0, 100, 0, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readCapped(tc.r, tc.declared, tc.limit)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if len(got) != tc.wantLen || !bytes.Equal(got, data[:len(got)]) {
				t.Fatalf("read %d bytes, want %d of the input", len(got), tc.wantLen)
			}
			if c := cap(got); c > 4096 && c > len(got)+len(got)/4 {
				t.Errorf("cap %d for %d bytes: spare capacity not trimmed", c, len(got))
			}
		})
	}
}
