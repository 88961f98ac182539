//go:build linux || darwin

package fetch

import (
	"fmt"
	"syscall"
)

// RaiseFileLimit raises the soft RLIMIT_NOFILE to min(hard, max) if it is
// lower, and returns the soft limit in force afterwards. It never lowers
// the limit. On failure it returns the unchanged soft limit and the error.
func RaiseFileLimit(max uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("reading open-file limit: %w", err)
	}
	want := max
	if lim.Max < want {
		want = lim.Max
	}
	if lim.Cur >= want {
		return lim.Cur, nil
	}
	old := lim.Cur
	lim.Cur = want
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return old, fmt.Errorf("raising open-file limit from %d to %d: %w (try `ulimit -n %d`)", old, want, err, want)
	}
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return want, nil
	}
	return lim.Cur, nil
}
