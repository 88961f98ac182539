package pipeline

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// FreeDisk returns the bytes available to unprivileged users on dir's
// filesystem (0 if unknown).
func FreeDisk(dir string) uint64 {
	var st syscall.Statfs_t
	for d := dir; d != ""; {
		if err := syscall.Statfs(d, &st); err == nil {
			return st.Bavail * uint64(st.Bsize)
		}
		parent := parentDir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return 0
}

func parentDir(d string) string {
	i := strings.LastIndexByte(strings.TrimRight(d, "/"), '/')
	if i <= 0 {
		return "/"
	}
	return d[:i]
}

// RSS returns the process's resident set size in bytes (Linux; 0 elsewhere).
func RSS() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// PeakRSS returns the process's peak resident set size (VmHWM) in bytes.
func PeakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseUint(f[1], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
