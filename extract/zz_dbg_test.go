package extract

import (
	"os"
	"testing"
)

func TestDbgDet(t *testing.T) {
	b, _ := os.ReadFile(os.Getenv("DBG_FILE"))
	e, _ := New("trafilatura")
	seen := map[string]int{}
	for i := 0; i < 8; i++ {
		md, _ := e.Extract(Page{URL: "https://youhadmeatgardening.com/lemon-tree-from-seed", Body: b, ContentType: "text/html"})
		seen[md]++
	}
	for md, n := range seen {
		t.Logf("%d x len %d", n, len(md))
	}
}
