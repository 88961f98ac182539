package lang

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// docs2KB concatenates real sentences of a few languages into ~2 KB
// documents, the size the throughput target is stated for.
func docs2KB(b *testing.B) []string {
	dir := sharedDir(b)
	var docs []string
	for _, l := range []string{"en", "de", "vi", "ru", "id", "pt"} {
		f, err := os.Open(filepath.Join(dir, "langid", "lingua-testdata", "sentences", l+".txt"))
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		var sb strings.Builder
		for sc.Scan() {
			sb.WriteString(sc.Text())
			sb.WriteByte(' ')
			if sb.Len() >= 2048 {
				docs = append(docs, sb.String())
				sb.Reset()
			}
		}
		f.Close()
	}
	return docs
}

func BenchmarkDetect2KB(b *testing.B) {
	docs := docs2KB(b)
	Detect("warm up")
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		d := docs[i%len(docs)]
		n += len(d)
		Detect(d)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
	b.ReportMetric(float64(n)/1e6/b.Elapsed().Seconds(), "MB/s")
}

func BenchmarkDetectMarkdown2KB(b *testing.B) {
	docs := docs2KB(b)
	Detect("warm up")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		DetectMarkdown(docs[i%len(docs)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

func FuzzSample(f *testing.F) {
	f.Add("[text](http://x.y/z) ![alt](img.png) <http://a> www.b.c `code` # head")
	f.Add("```\ncode\n```\n[a][b]\n[b]: http://c")
	f.Add("Ã©Ã¨ \xff\xfe [[[ ((( ")
	f.Fuzz(func(t *testing.T, md string) {
		s := Sample(md)
		if len(s) > SampleBytes {
			t.Errorf("len(Sample) = %d > %d", len(s), SampleBytes)
		}
		if !utf8.ValidString(s) {
			t.Errorf("Sample is not valid UTF-8: %q", s)
		}
		if strings.Contains(s, "](") {
			t.Errorf("Sample kept a link target: %q", s)
		}
	})
}

func FuzzDetect(f *testing.F) {
	f.Add("Hà Nội là thủ đô của Việt Nam")
	f.Add("Ð¿Ñ€Ð¸Ð²ÐµÑ‚")
	f.Add("\xff\xfe\xfd abc")
	f.Fuzz(func(t *testing.T, s string) {
		r := Detect(s)
		if r.Confidence < 0 || r.Confidence > 1 {
			t.Errorf("confidence %v out of [0, 1]", r.Confidence)
		}
		if r.Code == "" && r.Confidence != 0 {
			t.Errorf("empty code with confidence %v", r.Confidence)
		}
		if r.Code != "" && !IsSupported(r.Code) {
			t.Errorf("unsupported code %q", r.Code)
		}
	})
}

func BenchmarkSample2KB(b *testing.B) {
	docs := docs2KB(b)
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		d := docs[i%len(docs)]
		n += len(d)
		Sample(d)
	}
	b.ReportMetric(float64(n)/1e6/b.Elapsed().Seconds(), "MB/s")
}
