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

// pinned repeats go.mod's versions of the modules whose names end up in
// dataset rows. Test binaries carry no dependency build info, and a test
// must write the same bytes as the binary; TestPinnedMatchesGoMod keeps this
// list equal to go.mod.
var pinned = map[string]string{
	"github.com/markusmobius/go-trafilatura":          "v1.12.2",
	"codeberg.org/readeck/go-readability/v2":          "v2.1.3",
	"github.com/JohannesKaufmann/html-to-markdown/v2": "v2.5.2",
	"github.com/parquet-go/parquet-go":                "v0.32.0",
}

// Module returns the version of a dependency module from the build info
// (falling back to the pinned list), or "unknown".
func Module(path string) string {
	once.Do(func() {
		deps = map[string]string{}
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, d := range bi.Deps {
				v := d.Version
				// A replacement by a local directory has no version of its
				// own; it stands for the required one (see third_party/).
				if d.Replace != nil && d.Replace.Version != "" {
					v = d.Replace.Version
				}
				deps[d.Path] = v
			}
		}
	})
	if v, ok := deps[path]; ok && v != "" && v != "(devel)" {
		return v
	}
	if v, ok := pinned[path]; ok {
		return v
	}
	return "unknown"
}
