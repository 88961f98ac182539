package commoncrawl

import (
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	tests := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 120 ", 2 * time.Minute, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Mon, 30 Nov 2026 02:00:10 GMT", 10 * time.Second, true},
		{"99999999999999999999", 1<<63 - 1, true},
		{"", 0, false},
		{"-5", 0, false},
		{"5s", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.v, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	p := Retry{BaseDelay: time.Second, MaxDelay: 10 * time.Second}.withDefaults()
	for n, nominal := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 60: 10 * time.Second} {
		for range 50 {
			if d := backoff(p, n); d < nominal/2 || d > nominal {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, nominal/2, nominal)
			}
		}
	}
}

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
