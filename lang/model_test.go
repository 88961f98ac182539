package lang

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

func TestParseModelRejectsDamage(t *testing.T) {
	zr, err := gzip.NewReader(bytes.NewReader(modelData))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(io.LimitReader(zr, 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	bad := map[string][]byte{
		"not gzip":    []byte("CCLM2\n"),
		"bad magic":   gz(append([]byte("XXXX"), raw[4:1000]...)),
		"truncated":   gz(raw[:len(raw)/2]),
		"header only": gz(raw[:10]),
	}
	for name, data := range bad {
		if _, err := parseModel(data); err == nil {
			t.Errorf("%s: parseModel accepted damaged data", name)
		}
	}
	md, err := getModel()
	if err != nil {
		t.Fatalf("embedded model: %v", err)
	}
	if md.order != 4 || len(md.entries) == 0 {
		t.Errorf("embedded model has order %d and %d entries", md.order, len(md.entries))
	}
	// The commonest English trigram must be known to English.
	found := false
	for _, e := range md.lookup(hashRunes([]rune("the"))) {
		if languages[e>>8].code == "eng" {
			found = true
		}
	}
	if !found {
		t.Error(`lookup("the") has no English entry`)
	}
}

// BenchmarkParseModel is the one-time cost of the first Detect call.
func BenchmarkParseModel(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := parseModel(modelData); err != nil {
			b.Fatal(err)
		}
	}
}
