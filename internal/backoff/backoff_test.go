package backoff

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
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
		got, ok := RetryAfter(tt.v, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", tt.v, got, ok, tt.want, tt.ok)
		}
	}
}

func TestJittered(t *testing.T) {
	for n, nominal := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 8 * time.Second, 5: 10 * time.Second, 60: 10 * time.Second} {
		for range 50 {
			if d := Jittered(time.Second, 10*time.Second, n); d < nominal/2 || d > nominal {
				t.Fatalf("Jittered(%d) = %v, want within [%v, %v]", n, d, nominal/2, nominal)
			}
		}
	}
}

func TestSleepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Fatalf("Sleep on a cancelled context = %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
}

func FuzzRetryAfter(f *testing.F) {
	now := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	for _, s := range []string{"", "0", "7", "-1", "99999999999999999999", "Mon, 30 Nov 2026 02:00:05 GMT", "soon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if d, ok := RetryAfter(v, now); d < 0 || (!ok && d != 0) {
			t.Fatalf("RetryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}
