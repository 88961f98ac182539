// Package version reports the tool's version and the module versions of the
// libraries whose output ends up in a dataset (for the extractor column).
package version

import (
	"runtime/debug"
	"sync"
)

// Tool is the ccrawl version; release builds override it with
// -ldflags "-X github.com/open-markdown/ccrawl/internal/version.Tool=v1.2.3".
var Tool = "v0.1.0-dev"

var (
	once sync.Once
	deps map[string]string
)

// Module returns the version of a dependency module from the build info, or
// "unknown" when the binary carries none (e.g. some test binaries).
func Module(path string) string {
	once.Do(func() {
		deps = map[string]string{}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, d := range bi.Deps {
				v := d.Version
				if d.Replace != nil {
					v = d.Replace.Version
				}
				deps[d.Path] = v
			}
		}
	})
	if v, ok := deps[path]; ok && v != "" {
		return v
	}
	return "unknown"
}
