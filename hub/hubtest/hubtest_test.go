package hubtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/open-markdown/ccrawl/hub/hubtest"
)

// The fake must reject what the real Hub rejects, or client tests against
// it prove nothing.
func TestFakeIsStrict(t *testing.T) {
	srv := hubtest.New(hubtest.Options{Token: "tok"})
	defer srv.Close()
	srv.CreateRepo("o/r")
	sum := sha256.Sum256([]byte("hello"))
	oid := hex.EncodeToString(sum[:])

	do := func(method, url, auth, ct, body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	batch := func() map[string]any {
		req, _ := http.NewRequest("POST", srv.URL+"/datasets/o/r.git/info/lfs/objects/batch",
			strings.NewReader(`{"operation":"upload","transfers":["basic"],"hash_algo":"sha256","objects":[{"oid":"`+oid+`","size":5}]}`))
		req.Header.Set("Authorization", "Bearer tok")
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out struct {
			Objects []map[string]any `json:"objects"`
		}
		json.NewDecoder(res.Body).Decode(&out)
		return out.Objects[0]
	}
	commitLFS := `{"key":"header","value":{"summary":"s"}}` + "\n" + `{"key":"lfsFile","value":{"path":"a.parquet","algo":"sha256","oid":"` + oid + `","size":5}}` + "\n"

	tests := []struct {
		name                  string
		method, url, auth, ct string
		body                  string
		want                  int
	}{
		{"no token", "POST", "/api/datasets/o/r/paths-info/main", "", "application/x-www-form-urlencoded", "paths=a", 401},
		{"unknown repo", "POST", "/api/datasets/o/missing/paths-info/main", "Bearer tok", "application/x-www-form-urlencoded", "paths=a", 404},
		{"other branch", "POST", "/api/datasets/o/r/paths-info/dev", "Bearer tok", "application/x-www-form-urlencoded", "paths=a", 404},
		{"commit of an object never uploaded", "POST", "/api/datasets/o/r/commit/main", "Bearer tok", "application/x-ndjson", commitLFS, 422},
		{"commit as JSON", "POST", "/api/datasets/o/r/commit/main", "Bearer tok", "application/json", commitLFS, 400},
		{"commit without summary", "POST", "/api/datasets/o/r/commit/main", "Bearer tok", "application/x-ndjson", `{"key":"header","value":{}}`, 400},
		{"model repo", "POST", "/api/repos/create", "Bearer tok", "application/json", `{"name":"x","organization":"o","type":"model"}`, 400},
		{"existing repo", "POST", "/api/repos/create", "Bearer tok", "application/json", `{"name":"r","organization":"o","type":"dataset"}`, 409},
	}
	for _, tt := range tests {
		if res := do(tt.method, srv.URL+tt.url, tt.auth, tt.ct, tt.body); res.StatusCode != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, res.StatusCode, tt.want)
		}
	}

	up := batch()["actions"].(map[string]any)["upload"].(map[string]any)
	href := up["href"].(string)
	put := func(auth, body string) int {
		req, _ := http.NewRequest("PUT", href, strings.NewReader(body))
		for k, v := range up["header"].(map[string]any) {
			req.Header.Set(k, v.(string))
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := put("Bearer tok", "hello"); got != 400 {
		t.Errorf("token sent to storage: status %d, want 400", got)
	}
	if got := put("", "hellO"); got != 400 {
		t.Errorf("wrong bytes: status %d, want 400", got)
	}
	if got := put("", "hello"); got != 200 {
		t.Errorf("good upload: status %d", got)
	}
	if _, ok := batch()["actions"]; ok {
		t.Error("batch for a stored object still asks for an upload")
	}
	if res := do("POST", srv.URL+"/api/datasets/o/r/commit/main", "Bearer tok", "application/x-ndjson", commitLFS); res.StatusCode != 200 {
		t.Errorf("commit after upload: status %d", res.StatusCode)
	}
	if got := srv.Files("o/r")["a.parquet"]; !bytes.Equal(got, []byte("hello")) {
		t.Errorf("file = %q", got)
	}
	if c := srv.Commits("o/r"); len(c) != 1 || c[0].Ops[0].OID != oid {
		t.Errorf("commits = %+v", c)
	}
	if n := len(srv.Requests()); n != len(tests)+6 {
		t.Errorf("recorded %d requests, want %d", n, len(tests)+6)
	}
}
