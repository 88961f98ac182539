//go:build !(linux || darwin)

package fetch

import (
	"errors"
	"runtime"
)

// RaiseFileLimit is unsupported on this platform; it returns 0 and an error
// so the caller falls back to a fixed worker count.
func RaiseFileLimit(max uint64) (uint64, error) {
	return 0, errors.New("raising the open-file limit is not supported on " + runtime.GOOS)
}
