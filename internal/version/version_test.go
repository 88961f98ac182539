package version

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPinnedMatchesGoMod fails when go.mod moves a module the pinned list
// names, so a test binary reports the same versions as the real one.
func TestPinnedMatchesGoMod(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for mod, v := range pinned {
		found := false
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(strings.TrimSpace(line))
			if len(f) >= 2 && f[0] == mod {
				found = true
				if f[1] != v {
					t.Errorf("%s: go.mod has %s, pinned %s (update internal/version)", mod, f[1], v)
				}
			}
		}
		if !found {
			t.Errorf("%s not in go.mod", mod)
		}
	}
	if got := Module("github.com/markusmobius/go-trafilatura"); got != pinned["github.com/markusmobius/go-trafilatura"] {
		t.Errorf("Module = %s", got)
	}
}
