package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/open-markdown/ccrawl/dataset"
	"github.com/open-markdown/ccrawl/internal/testutil"
)

// noTemps fails if a temporary file is left anywhere under dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, dataset.TempSuffix) {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func rowsUnder(t *testing.T, dir string) int {
	t.Helper()
	files, _ := dataset.FindFiles([]string{dir})
	n := 0
	for _, f := range files {
		rows, err := dataset.ReadAll[dataset.Row](f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n += len(rows)
	}
	return n
}

// regzip rewrites one gzip member with edit applied to its content.
func regzip(t *testing.T, member []byte, edit func([]byte) []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(member))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(edit(plain))
	zw.Close()
	return buf.Bytes()
}

func TestExportBadInput(t *testing.T) {
	src := testutil.Shared(t, "corpus/small.warc.gz")
	truth := testutil.LoadTruth(t, src+".truth.json")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	_, full, _ := exportSmall(t)
	mid := truth.Captures[100]
	lie := truth.Captures[60]
	if !lie.IsHTML200() {
		t.Fatalf("fixture assumption: capture 60 is an HTML 200 response (%s)", lie.Kind)
	}

	splice := func(at int64, insert []byte, skip int64) []byte {
		out := append([]byte{}, raw[:at]...)
		out = append(out, insert...)
		return append(out, raw[at+skip:]...)
	}
	lying := func(delta int) []byte {
		member := raw[lie.Offset : lie.Offset+lie.Length]
		edited := regzip(t, member, func(b []byte) []byte {
			i := bytes.Index(b, []byte("Content-Length: "))
			j := i + len("Content-Length: ")
			k := j + bytes.IndexByte(b[j:], '\r')
			n, _ := strconv.Atoi(string(b[j:k]))
			return append(append(append([]byte{}, b[:j]...), strconv.Itoa(n+delta)...), b[k:]...)
		})
		return splice(lie.Offset, edited, lie.Length)
	}

	cases := []struct {
		name     string
		data     []byte // nil: path does not exist
		code     int
		errWant  string
		rowsFrom func(n int) bool // rows expected in the output
	}{
		{"truncated gzip", raw[:mid.Offset+mid.Length/2], 1, "offset", func(n int) bool { return n > 50 && n < len(full) }},
		{"garbage between records", splice(mid.Offset, bytes.Repeat([]byte("garbage!"), 40), 0), 0, "", func(n int) bool { return n == len(full) }},
		{"content-length too long", lying(+500), 0, "", func(n int) bool { return n == len(full)-1 }},
		{"content-length too short", lying(-500), 0, "", func(n int) bool { return n == len(full)-1 }},
		{"empty file", []byte{}, 1, "empty", func(n int) bool { return n == 0 }},
		{"not a WARC", []byte("\x89PNG\r\n\x1a\nthis is an image, not a WARC file at all"), 1, "not a WARC", func(n int) bool { return n == 0 }},
		{"html file", []byte("<!doctype html><html><body>hello</body></html>\n"), 1, "not a WARC", func(n int) bool { return n == 0 }},
		{"missing path", nil, 2, "no such file", func(n int) bool { return n == 0 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "input.warc.gz")
			if tc.data != nil {
				if err := os.WriteFile(in, tc.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(dir, "out")
			stdout, stderr, code := runCLI(t, "markdown", "export", in, "--out", out, "--progress", "none")
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if tc.errWant != "" && !strings.Contains(stderr, tc.errWant) {
				t.Errorf("stderr lacks %q:\n%s", tc.errWant, stderr)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if strings.HasPrefix(line, "ccrawl: ") && strings.Contains(line[8:], "\n") {
					t.Errorf("multi-line error: %q", line)
				}
			}
			if n := rowsUnder(t, out); !tc.rowsFrom(n) {
				t.Errorf("%d rows in output (full export has %d)", n, len(full))
			}
			noTemps(t, out)
		})
	}
}
