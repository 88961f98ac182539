package commoncrawl

import (
	"testing"
)

func TestParseContentRange(t *testing.T) {
	tests := []struct {
		v            string
		start, total int64
		ok           bool
	}{
		{"bytes 0-99/100", 0, 100, true},
		{"bytes 1000-2018287/2018288", 1000, 2018288, true},
		{"bytes 5-9/*", 5, -1, true},
		{"bytes */100", 0, 100, true},
		{"bytes 5-100/100", 0, -1, false},
		{"bytes 9-5/100", 0, -1, false},
		{"bytes */*", 0, -1, false},
		{"items 0-9/10", 0, -1, false},
		{"bytes 0-9", 0, -1, false},
		{"bytes -1-9/10", 0, -1, false},
		{"", 0, -1, false},
	}
	for _, tt := range tests {
		start, total, ok := parseContentRange(tt.v)
		if start != tt.start || total != tt.total || ok != tt.ok {
			t.Errorf("parseContentRange(%q) = %d, %d, %v; want %d, %d, %v", tt.v, start, total, ok, tt.start, tt.total, tt.ok)
		}
	}
}

func FuzzParseContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-99/100", "bytes */100", "bytes 5-9/*", "bytes 1-0/5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		start, total, ok := parseContentRange(v)
		if ok && (start < 0 || (total >= 0 && start >= total && total != 0) || total < -1) {
			t.Fatalf("parseContentRange(%q) = %d, %d, true", v, start, total)
		}
	})
}
