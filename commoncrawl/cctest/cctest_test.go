package cctest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

func get(t *testing.T, srv *Server, path, rng string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/"+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

func TestServerServesCrawl(t *testing.T) {
	src := Corpus(t, "small.warc.gz")
	want, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(t, Config{Crawl: "CC-MAIN-2025-43", Shards: []string{src, Corpus(t, "small-b.warc.gz")}})

	resp, raw, err := get(t, srv, srv.ManifestPath, "")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("manifest: %v %v", resp, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	lines, _ := io.ReadAll(zr)
	if got := strings.Fields(string(lines)); len(got) != 2 || got[0] != srv.Paths[0] || got[1] != srv.Paths[1] ||
		got[0] != "crawl-data/CC-MAIN-2025-43/segments/"+segment+"/warc/small.warc.gz" {
		t.Fatalf("manifest lists %q, paths %q", got, srv.Paths)
	}

	resp, body, err := get(t, srv, srv.Paths[0], "")
	if err != nil || resp.StatusCode != 200 || !bytes.Equal(body, want) {
		t.Fatalf("shard: status %v, %d bytes, %v", resp.Status, len(body), err)
	}
	resp, body, err = get(t, srv, srv.Paths[0], "bytes=100-")
	if err != nil || resp.StatusCode != 206 || !bytes.Equal(body, want[100:]) {
		t.Fatalf("ranged shard: status %v, %d bytes, %v", resp.Status, len(body), err)
	}
	if cr := resp.Header.Get("Content-Range"); cr != "bytes 100-"+itoa(len(want)-1)+"/"+itoa(len(want)) {
		t.Fatalf("Content-Range %q", cr)
	}
	resp, _, _ = get(t, srv, srv.Paths[0], "bytes="+itoa(len(want))+"-")
	if resp.StatusCode != 416 || resp.Header.Get("Content-Range") != "bytes */"+itoa(len(want)) {
		t.Fatalf("range past the end: %v %q", resp.Status, resp.Header.Get("Content-Range"))
	}
	resp, _, _ = get(t, srv, "crawl-data/nope", "")
	if resp.StatusCode != 404 {
		t.Fatalf("unknown path: %v", resp.Status)
	}

	resp, body, _ = get(t, srv, "collinfo.json", "")
	var colls []Collection
	if err := json.Unmarshal(body, &colls); err != nil || len(colls) != 1 || colls[0].ID != "CC-MAIN-2025-43" {
		t.Fatalf("collinfo.json %s: %v", body, err)
	}

	if n := srv.Requests(srv.Paths[0]); n != 3 {
		t.Fatalf("Requests = %d, want 3", n)
	}
	if r := srv.Ranges(srv.Paths[0]); len(r) != 2 || r[0] != "bytes=100-" {
		t.Fatalf("Ranges = %q", r)
	}
	if log := srv.Log(); len(log) != 6 || log[1].Status != 200 || log[2].Status != 206 || log[4].Status != 404 {
		t.Fatalf("Log = %+v", log)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestFaultSequence(t *testing.T) {
	src := Corpus(t, "small.warc.gz")
	want, _ := os.ReadFile(src)
	srv := NewServer(t, Config{Shards: []string{src}})
	p := srv.Paths[0]
	srv.Fail(p, Fault{Kind: Pass, Times: 1})
	srv.Fail(p, Fault{Kind: TooMany, Times: 1, RetryAfter: "9"})
	srv.Fail(p, Fault{Kind: Status, Status: 502, Times: 1})
	srv.Fail("/"+p, Fault{Kind: Short, Times: 1, After: 10})
	srv.Fail(p, Fault{Kind: Reset, Times: 1, After: 10})
	srv.Fail(p, Fault{Kind: Truncate, Times: 1, After: 50})
	srv.Fail(p, Fault{Kind: IgnoreRange, Times: 1})

	steps := []struct {
		rng    string
		status int
		check  func(resp *http.Response, body []byte, err error) string
	}{
		{"", 200, func(_ *http.Response, b []byte, err error) string {
			return okIf(err == nil && bytes.Equal(b, want), "pass")
		}},
		{"", 429, func(r *http.Response, _ []byte, _ error) string {
			return okIf(r.Header.Get("Retry-After") == "9", "Retry-After")
		}},
		{"", 502, nil},
		{"", -1, func(_ *http.Response, b []byte, err error) string {
			return okIf(errors.Is(err, io.ErrUnexpectedEOF) && len(b) == 10, "short body")
		}},
		{"", -1, func(_ *http.Response, b []byte, err error) string {
			return okIf(err != nil && len(b) <= 10, "reset")
		}},
		{"", 200, func(_ *http.Response, b []byte, err error) string {
			return okIf(err == nil && bytes.Equal(b, want[:50]), "truncate")
		}},
		{"bytes=10-", 200, func(_ *http.Response, b []byte, err error) string { return okIf(bytes.Equal(b, want), "ignore range") }},
		{"bytes=10-", 206, func(_ *http.Response, b []byte, err error) string {
			return okIf(bytes.Equal(b, want[10:]), "faults used up")
		}},
	}
	for i, st := range steps {
		resp, body, err := get(t, srv, p, st.rng)
		if st.status > 0 && (resp == nil || resp.StatusCode != st.status) {
			t.Fatalf("step %d: response %v, %v; want status %d", i, resp, err, st.status)
		}
		if st.check != nil {
			if msg := st.check(resp, body, err); msg != "" {
				t.Fatalf("step %d: %s failed: %d bytes, err %v", i, msg, len(body), err)
			}
		}
	}
	var kinds []string
	for _, r := range srv.Log() {
		kinds = append(kinds, r.Fault.String())
	}
	if got := strings.Join(kinds, ","); got != "pass,too-many,status,short,reset,truncate,ignore-range,pass" {
		t.Fatalf("faults applied: %s", got)
	}
}

func okIf(ok bool, what string) string {
	if ok {
		return ""
	}
	return what
}
