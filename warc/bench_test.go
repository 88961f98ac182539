package warc

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func benchFile(b *testing.B) []byte {
	shared := sharedDir(b)
	name := "medium.warc.gz"
	if testing.Short() {
		name = "small.warc.gz"
	}
	data, err := os.ReadFile(filepath.Join(shared, "corpus", name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkGunzip is the yardstick: plain klauspost gunzip of the file.
func BenchmarkGunzip(b *testing.B) {
	data := benchFile(b)
	b.SetBytes(int64(len(data)))
	var out int64
	for i := 0; i < b.N; i++ {
		zr, err := gzip.NewReader(bufio.NewReaderSize(bytes.NewReader(data), rawBufSize))
		if err != nil {
			b.Fatal(err)
		}
		if out, err = io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out)*float64(b.N)/1e6/b.Elapsed().Seconds(), "MB/s-raw")
}

// BenchmarkReader reads every record and every block byte, parsing the
// HTTP response of response records, as the pipeline does.
func BenchmarkReader(b *testing.B) {
	data := benchFile(b)
	b.SetBytes(int64(len(data)))
	var raw, recs int64
	for i := 0; i < b.N; i++ {
		raw, recs = 0, 0
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		for {
			rec, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			recs++
			body := rec.Body
			if rec.Type == "response" {
				resp, err := ReadHTTPResponse(rec.Body)
				if err != nil {
					b.Fatal(err)
				}
				body = resp.Body
			}
			n, err := io.Copy(io.Discard, body)
			if err != nil {
				b.Fatal(err)
			}
			raw += n
		}
	}
	b.ReportMetric(float64(recs)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(raw)*float64(b.N)/1e6/b.Elapsed().Seconds(), "MB/s-payload")
}
