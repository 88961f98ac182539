package fetch

import (
	"runtime"
	"syscall"
	"testing"
)

func TestAutoWorkers(t *testing.T) {
	tests := []struct {
		limit    uint64
		parallel int
		want     int
	}{
		{limit: 0, parallel: 1, want: 1},
		{limit: 256, parallel: 1, want: 1},
		{limit: 1024, parallel: 1, want: (1024 - 256) / 3},
		{limit: 1024, parallel: 4, want: (1024 - 256) / 3 / 4},
		{limit: 1024, parallel: 0, want: (1024 - 256) / 3},
		{limit: 65536, parallel: 1, want: 3000},
		{limit: 65536, parallel: 3, want: 1000},
		{limit: 8192, parallel: 1, want: (8192 - 819) / 3},
		{limit: 4096, parallel: 1, want: (4096 - 409) / 3},
		{limit: 1 << 20, parallel: 7, want: 3000 / 7},
		{limit: 300, parallel: 64, want: 1},
	}
	for _, tc := range tests {
		if got := AutoWorkers(tc.limit, tc.parallel); got != tc.want {
			t.Errorf("AutoWorkers(%d, %d) = %d, want %d", tc.limit, tc.parallel, got, tc.want)
		}
	}
}

func TestRaiseFileLimit(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		if _, err := RaiseFileLimit(1024); err == nil {
			t.Fatal("want an unsupported-platform error")
		}
		return
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	orig := lim
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig) })

	// Lower the soft limit (always allowed), then raise it back through the
	// function under test.
	low := min(lim.Cur, 512)
	lim.Cur = low
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("cannot lower soft RLIMIT_NOFILE: %v", err)
	}
	target := min(orig.Max, low+256)
	got, err := RaiseFileLimit(target)
	if err != nil {
		t.Fatal(err)
	}
	if got != target {
		t.Errorf("RaiseFileLimit(%d) = %d, want %d (hard %d)", target, got, target, orig.Max)
	}
	// Never lowers, and a max above the hard limit stops at the hard limit.
	if got2, err := RaiseFileLimit(1); err != nil || got2 != got {
		t.Errorf("RaiseFileLimit(1) = %d, %v; want %d unchanged", got2, err, got)
	}
	if orig.Max < 1<<40 {
		if got3, err := RaiseFileLimit(1 << 40); err != nil || got3 != orig.Max {
			t.Errorf("RaiseFileLimit(huge) = %d, %v; want hard limit %d", got3, err, orig.Max)
		}
	}
}
