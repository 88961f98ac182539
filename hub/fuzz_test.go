package hub

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// FuzzLFSBatchReply feeds arbitrary LFS batch answers to Commit: it must
// return (an error or success), never panic or loop.
func FuzzLFSBatchReply(f *testing.F) {
	const oid = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" // sha256("hello")
	seeds := []string{
		`{"objects":[{"oid":"` + oid + `","size":5}]}`,
		`{"objects":[{"oid":"` + oid + `","size":5,"actions":{"upload":{"href":"URL/put"}}}]}`,
		`{"objects":[{"oid":"` + oid + `","size":5,"actions":{"upload":{"href":"URL/done","header":{"chunk_size":"2","1":"URL/p1","2":"URL/p2","3":"URL/p3"}}}}]}`,
		`{"objects":[{"oid":"` + oid + `","size":5,"actions":{"upload":{"href":"URL/done","header":{"chunk_size":0}}}}]}`,
		`{"objects":[{"oid":"` + oid + `","size":5,"error":{"code":422,"message":"no"}}]}`,
		`{"objects":[{"oid":"ff","size":5}]}`,
		`{"objects":null}`, `[]`, ``,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	// One server for all inputs: fuzz inputs run one at a time per process.
	var mu sync.Mutex
	var reply string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.Path, "/paths-info/"):
			w.Write([]byte(`[]`))
		case strings.Contains(r.URL.Path, "/preupload/"):
			json.NewEncoder(w).Encode(map[string]any{"files": []map[string]any{{"path": "a.bin", "uploadMode": "lfs"}}})
		case strings.HasSuffix(r.URL.Path, "/objects/batch"):
			mu.Lock()
			w.Write([]byte(reply))
			mu.Unlock()
		case strings.Contains(r.URL.Path, "/commit/"):
			w.Write([]byte(`{"commitOid":"x"}`))
		default:
			w.Header().Set("ETag", `"e"`)
		}
	}))
	defer srv.Close()
	// Whatever host a mutated href names, dial only the loopback server.
	addr := srv.Listener.Addr().String()
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
	c := &Client{Endpoint: srv.URL, HTTP: hc, MaxAttempts: 2, Sleep: func(context.Context, time.Duration) error { return nil }}
	f.Fuzz(func(t *testing.T, r string) {
		mu.Lock()
		reply = strings.ReplaceAll(r, "URL", srv.URL)
		mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c.Commit(ctx, "a/b", "s", "", []Operation{{RepoPath: "a.bin", Content: []byte("hello")}})
	})
}
