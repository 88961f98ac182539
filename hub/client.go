// Package hub publishes ccrawl's Parquet shards to a Hugging Face Hub
// dataset repository: a small HTTP client for the Hub's documented upload
// protocol (pre-upload check, Git LFS batch upload, one NDJSON commit per
// batch), a background Committer that batches finished shards and keeps
// under the Hub's commit rate limit, and the dataset card renderer.
//
// It deliberately does not read Parquet, decide which shards exist or keep
// the run ledger: the pipeline hands it finished files and is told when a
// commit that contains them has been acknowledged. It does not speak the
// Xet storage protocol or git; the LFS "basic" and "multipart" transfers are
// enough for shard-sized files and are what the Hub still offers every
// client.
package hub

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Client talks to one Hub endpoint. The zero value plus Token works against
// the public Hub; tests point Endpoint and HTTP at a loopback fake.
type Client struct {
	Endpoint string       // e.g. https://huggingface.co; "" means DefaultEndpoint
	Token    string       // sent as a Bearer token to Hub API endpoints only
	HTTP     *http.Client // nil means http.DefaultClient
	Revision string       // branch to commit to; "" means "main"

	// Retry policy: attempts per request and the backoff range. Zero
	// values mean 8 attempts, 1s base, 60s cap.
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	// Sleep and Now are injectable so tests need not wait; nil means real time.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time

	// Transfers are the LFS transfer adapters offered to the batch API;
	// nil means basic and multipart. Offer only "basic" to forbid parts.
	Transfers []string
	UserAgent string
}

// Operation adds one file to a commit: either a local file (streamed, never
// held in memory) or small in-memory Content such as README.md.
type Operation struct {
	RepoPath  string // path inside the repo, slash-separated
	LocalPath string
	Content   []byte // used when LocalPath is ""
}

// CommitInfo describes what Commit did.
type CommitInfo struct {
	OID      string   // commit id; "" when nothing needed committing or the id was lost to a retry
	URL      string   // commit URL as the Hub reported it
	Uploaded []string // repo paths included in the commit
	Skipped  []string // repo paths already present with identical content
	LFSBytes int64    // bytes sent to LFS storage (0 when storage already had them)
}

// RemoteFile is what the Hub reports about one path.
type RemoteFile struct {
	Path   string
	Size   int64
	GitOID string // git blob sha1
	SHA256 string // LFS oid; "" for files stored in git
}

var repoIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ValidateRepoID checks an "org/name" repo id. The CLI reports a failure
// as a usage error.
func ValidateRepoID(repo string) error {
	if !repoIDRe.MatchString(repo) || strings.Contains(repo, "..") || len(repo) > 96 {
		return fmt.Errorf("hub: repo %q: want org/name (letters, digits, '.', '_', '-')", repo)
	}
	return nil
}

func (c *Client) endpoint() string {
	if c.Endpoint == "" {
		return DefaultEndpoint
	}
	return strings.TrimRight(c.Endpoint, "/")
}

func (c *Client) revision() string {
	if c.Revision == "" {
		return "main"
	}
	return c.Revision
}

func (c *Client) api(repo, action string) string {
	return fmt.Sprintf("%s/api/datasets/%s/%s/%s", c.endpoint(), repo, action, url.PathEscape(c.revision()))
}

func jsonBody(v any) (func() (io.ReadCloser, error), int64, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, 0, err
	}
	return bytesBody(b), int64(len(b)), nil
}

func bytesBody(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}

func jsonHeader(ct string) http.Header {
	return http.Header{"Content-Type": {ct}, "Accept": {"application/json"}}
}

// CreateRepo creates the dataset repo; one that already exists is fine.
func (c *Client) CreateRepo(ctx context.Context, repo string, private bool) error {
	if err := ValidateRepoID(repo); err != nil {
		return err
	}
	org, name, _ := strings.Cut(repo, "/")
	body, n, err := jsonBody(map[string]any{"name": name, "organization": org, "type": "dataset", "private": private})
	if err != nil {
		return err
	}
	_, err = c.do(ctx, request{op: "create repo " + repo, method: http.MethodPost, url: c.endpoint() + "/api/repos/create",
		header: jsonHeader("application/json"), body: body, size: n, auth: true})
	var he *HTTPError
	if errors.As(err, &he) && he.Status == http.StatusConflict {
		return nil
	}
	return err
}

// PathsInfo reports which of paths exist at the client's revision, with
// their content hashes. Missing paths are absent from the map.
func (c *Client) PathsInfo(ctx context.Context, repo string, paths []string) (map[string]RemoteFile, error) {
	out := make(map[string]RemoteFile, len(paths))
	for start := 0; start < len(paths); start += 100 {
		chunk := paths[start:min(start+100, len(paths))]
		// Form-encoded with repeated "paths", as the reference client sends it.
		form := url.Values{"paths": chunk, "expand": {"false"}}
		b := []byte(form.Encode())
		resp, err := c.do(ctx, request{op: "paths-info", method: http.MethodPost, url: c.api(repo, "paths-info"),
			header: jsonHeader("application/x-www-form-urlencoded"), body: bytesBody(b), size: int64(len(b)), auth: true, maxBody: 64 << 20})
		if err != nil {
			return nil, err
		}
		var entries []struct {
			Type string `json:"type"`
			Path string `json:"path"`
			Size int64  `json:"size"`
			OID  string `json:"oid"`
			LFS  *struct {
				OID  string `json:"oid"`
				Size int64  `json:"size"`
			} `json:"lfs"`
		}
		if err := json.Unmarshal(resp.body, &entries); err != nil {
			return nil, fmt.Errorf("hub: paths-info %s: malformed reply: %w", repo, err)
		}
		for _, e := range entries {
			if e.Type != "file" {
				continue
			}
			rf := RemoteFile{Path: e.Path, Size: e.Size, GitOID: e.OID}
			if e.LFS != nil {
				rf.SHA256 = e.LFS.OID
			}
			out[e.Path] = rf
		}
	}
	return out, nil
}

// blob is one operation with its hashes computed.
type blob struct {
	Operation
	size   int64
	sha256 string
	gitOID string
	sample []byte
}

func (b *blob) open() (io.ReadCloser, error) {
	if b.LocalPath == "" {
		return io.NopCloser(bytes.NewReader(b.Content)), nil
	}
	return os.Open(b.LocalPath)
}

// section opens bytes [off, off+n) for one multipart part.
func (b *blob) section(off, n int64) (io.ReadCloser, error) {
	if b.LocalPath == "" {
		return io.NopCloser(bytes.NewReader(b.Content[off : off+n])), nil
	}
	f, err := os.Open(b.LocalPath)
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.NewSectionReader(f, off, n), f}, nil
}

// matches says whether the remote file already holds this content.
func (b *blob) matches(rf RemoteFile) bool {
	if rf.Size != b.size {
		return false
	}
	if rf.SHA256 != "" {
		return rf.SHA256 == b.sha256
	}
	return rf.GitOID == b.gitOID
}

func hashOperation(op Operation) (*blob, error) {
	b := &blob{Operation: op}
	var r io.Reader
	if op.LocalPath != "" {
		f, err := os.Open(op.LocalPath)
		if err != nil {
			return nil, fmt.Errorf("hub: %w", err)
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, fmt.Errorf("hub: %w", err)
		}
		b.size = st.Size()
		r = f
	} else {
		b.size = int64(len(op.Content))
		r = bytes.NewReader(op.Content)
	}
	s256, s1 := sha256.New(), sha1.New()
	fmt.Fprintf(s1, "blob %d\x00", b.size)
	sample := &prefixWriter{n: 512}
	n, err := io.Copy(io.MultiWriter(s256, s1, sample), r)
	if err != nil {
		return nil, fmt.Errorf("hub: hashing %s: %w", op.RepoPath, err)
	}
	if n != b.size {
		return nil, fmt.Errorf("hub: hashing %s: size changed from %d to %d bytes while reading", op.LocalPath, b.size, n)
	}
	b.sha256 = hex.EncodeToString(s256.Sum(nil))
	b.gitOID = hex.EncodeToString(s1.Sum(nil))
	b.sample = sample.buf
	return b, nil
}

type prefixWriter struct {
	buf []byte
	n   int
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	if room := w.n - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// Commit adds ops to repo in one commit. Files already present with the
// same content are skipped; if every file is, no commit is made. LFS bytes
// go to storage first, so the commit itself is small and fast.
func (c *Client) Commit(ctx context.Context, repo, summary, description string, ops []Operation) (CommitInfo, error) {
	var info CommitInfo
	if err := ValidateRepoID(repo); err != nil {
		return info, err
	}
	if len(ops) == 0 {
		return info, nil
	}
	seen := map[string]bool{}
	blobs := make([]*blob, 0, len(ops))
	paths := make([]string, 0, len(ops))
	for _, op := range ops {
		p := strings.TrimPrefix(op.RepoPath, "/")
		if p == "" || seen[p] {
			return info, fmt.Errorf("hub: commit %s: empty or duplicate repo path %q", repo, op.RepoPath)
		}
		seen[p] = true
		op.RepoPath = p
		b, err := hashOperation(op)
		if err != nil {
			return info, err
		}
		blobs = append(blobs, b)
		paths = append(paths, p)
	}

	remote, err := c.PathsInfo(ctx, repo, paths)
	if err != nil {
		return info, err
	}
	var todo []*blob
	for _, b := range blobs {
		if rf, ok := remote[b.RepoPath]; ok && b.matches(rf) {
			info.Skipped = append(info.Skipped, b.RepoPath)
			continue
		}
		todo = append(todo, b)
	}
	if len(todo) == 0 {
		return info, nil
	}

	modes, err := c.preupload(ctx, repo, todo)
	if err != nil {
		return info, err
	}
	var lfs []*blob
	for _, b := range todo {
		if modes[b.RepoPath] == "lfs" {
			lfs = append(lfs, b)
		}
	}
	if info.LFSBytes, err = c.uploadLFS(ctx, repo, lfs); err != nil {
		return info, err
	}

	body, err := commitPayload(summary, description, todo, modes)
	if err != nil {
		return info, err
	}
	resp, err := c.do(ctx, request{op: "commit " + repo, method: http.MethodPost, url: c.api(repo, "commit"),
		header: jsonHeader("application/x-ndjson"), body: bytesBody(body), size: int64(len(body)), auth: true,
		landed: func(ctx context.Context) (bool, error) { return c.allPresent(ctx, repo, todo) }})
	if err != nil {
		return info, err
	}
	for _, b := range todo {
		info.Uploaded = append(info.Uploaded, b.RepoPath)
	}
	if resp != nil {
		var out struct {
			OID string `json:"commitOid"`
			URL string `json:"commitUrl"`
		}
		if err := json.Unmarshal(resp.body, &out); err != nil {
			return info, fmt.Errorf("hub: commit %s: malformed reply: %w", repo, err)
		}
		info.OID, info.URL = out.OID, out.URL
	}
	return info, nil
}

// allPresent reports whether every blob is already in the repo with its
// content: a commit whose reply was lost has landed.
func (c *Client) allPresent(ctx context.Context, repo string, blobs []*blob) (bool, error) {
	paths := make([]string, len(blobs))
	for i, b := range blobs {
		paths[i] = b.RepoPath
	}
	remote, err := c.PathsInfo(ctx, repo, paths)
	if err != nil {
		return false, err
	}
	for _, b := range blobs {
		rf, ok := remote[b.RepoPath]
		if !ok || !b.matches(rf) {
			return false, nil
		}
	}
	return true, nil
}

func (c *Client) preupload(ctx context.Context, repo string, blobs []*blob) (map[string]string, error) {
	modes := make(map[string]string, len(blobs))
	type file struct {
		Path   string `json:"path"`
		Sample string `json:"sample"`
		Size   int64  `json:"size"`
	}
	for start := 0; start < len(blobs); start += 256 {
		chunk := blobs[start:min(start+256, len(blobs))]
		files := make([]file, len(chunk))
		for i, b := range chunk {
			files[i] = file{Path: b.RepoPath, Sample: base64.StdEncoding.EncodeToString(b.sample), Size: b.size}
		}
		body, n, err := jsonBody(map[string]any{"files": files})
		if err != nil {
			return nil, err
		}
		resp, err := c.do(ctx, request{op: "preupload", method: http.MethodPost, url: c.api(repo, "preupload"),
			header: jsonHeader("application/json"), body: body, size: n, auth: true})
		if err != nil {
			return nil, err
		}
		var out struct {
			Files []struct {
				Path         string `json:"path"`
				UploadMode   string `json:"uploadMode"`
				ShouldIgnore bool   `json:"shouldIgnore"`
			} `json:"files"`
		}
		if err := json.Unmarshal(resp.body, &out); err != nil {
			return nil, fmt.Errorf("hub: preupload %s: malformed reply: %w", repo, err)
		}
		for _, f := range out.Files {
			if f.ShouldIgnore {
				return nil, fmt.Errorf("hub: preupload %s: %s is ignored by the repo's .gitignore; remove the rule or rename the file", repo, f.Path)
			}
			modes[f.Path] = f.UploadMode
		}
	}
	for _, b := range blobs {
		switch modes[b.RepoPath] {
		case "lfs", "regular":
		default:
			return nil, fmt.Errorf("hub: preupload %s: no upload mode for %s in the reply", repo, b.RepoPath)
		}
	}
	return modes, nil
}

type lfsAction struct {
	Href   string         `json:"href"`
	Header map[string]any `json:"header"`
}

func (a *lfsAction) headerString(k string) (string, bool) {
	v, ok := a.Header[k]
	if !ok {
		return "", false
	}
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatInt(int64(t), 10), true
	}
	return fmt.Sprint(v), true
}

// uploadLFS sends each blob's bytes to LFS storage unless storage already
// has the object. It returns the bytes sent.
func (c *Client) uploadLFS(ctx context.Context, repo string, blobs []*blob) (int64, error) {
	if len(blobs) == 0 {
		return 0, nil
	}
	byOID := map[string]*blob{}
	var objects []map[string]any
	for _, b := range blobs {
		if byOID[b.sha256] == nil {
			byOID[b.sha256] = b
			objects = append(objects, map[string]any{"oid": b.sha256, "size": b.size})
		}
	}
	transfers := c.Transfers
	if transfers == nil {
		transfers = []string{"basic", "multipart"}
	}
	body, n, err := jsonBody(map[string]any{
		"operation": "upload", "transfers": transfers, "objects": objects,
		"hash_algo": "sha256", "ref": map[string]string{"name": c.revision()},
	})
	if err != nil {
		return 0, err
	}
	lfsHeader := http.Header{"Accept": {"application/vnd.git-lfs+json"}, "Content-Type": {"application/vnd.git-lfs+json"}}
	resp, err := c.do(ctx, request{op: "lfs batch", method: http.MethodPost,
		url:    fmt.Sprintf("%s/datasets/%s.git/info/lfs/objects/batch", c.endpoint(), repo),
		header: lfsHeader, body: body, size: n, auth: true})
	if err != nil {
		return 0, err
	}
	var out struct {
		Objects []struct {
			OID     string `json:"oid"`
			Size    int64  `json:"size"`
			Actions *struct {
				Upload *lfsAction `json:"upload"`
				Verify *lfsAction `json:"verify"`
			} `json:"actions"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(resp.body, &out); err != nil {
		return 0, fmt.Errorf("hub: lfs batch %s: malformed reply: %w", repo, err)
	}
	var sent int64
	for _, o := range out.Objects {
		b := byOID[o.OID]
		if b == nil {
			return sent, fmt.Errorf("hub: lfs batch %s: reply names unknown object %s", repo, o.OID)
		}
		if o.Error != nil {
			return sent, fmt.Errorf("hub: lfs batch %s: %s: %d %s", repo, b.RepoPath, o.Error.Code, oneLine(o.Error.Message))
		}
		delete(byOID, o.OID)
		if o.Actions == nil || o.Actions.Upload == nil {
			continue // storage already has these bytes
		}
		if err := c.uploadObject(ctx, b, o.Actions.Upload); err != nil {
			return sent, err
		}
		sent += b.size
		if v := o.Actions.Verify; v != nil {
			if err := c.verifyObject(ctx, b, v); err != nil {
				return sent, err
			}
		}
	}
	for _, b := range byOID {
		return sent, fmt.Errorf("hub: lfs batch %s: reply has no entry for %s", repo, b.RepoPath)
	}
	return sent, nil
}

func (c *Client) uploadObject(ctx context.Context, b *blob, up *lfsAction) error {
	cs, multipart := up.headerString("chunk_size")
	if !multipart {
		h := http.Header{"Content-Type": {"application/octet-stream"}}
		for k := range up.Header {
			v, _ := up.headerString(k)
			h.Set(k, v)
		}
		_, err := c.do(ctx, request{op: "upload " + b.RepoPath, method: http.MethodPut, url: up.Href,
			header: h, body: b.open, size: b.size})
		return err
	}
	chunk, err := strconv.ParseInt(cs, 10, 64)
	if err != nil || chunk <= 0 {
		return fmt.Errorf("hub: upload %s: malformed chunk_size %q in LFS batch reply", b.RepoPath, cs)
	}
	type part struct {
		n    int
		href string
	}
	var parts []part
	for k := range up.Header {
		if n, err := strconv.Atoi(k); err == nil && n > 0 {
			href, _ := up.headerString(k)
			parts = append(parts, part{n, href})
		}
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].n < parts[j].n })
	if want := (b.size + chunk - 1) / chunk; int64(len(parts)) != want {
		return fmt.Errorf("hub: upload %s: LFS batch reply has %d part URLs, want %d for %d bytes in %d-byte chunks", b.RepoPath, len(parts), want, b.size, chunk)
	}
	type done struct {
		PartNumber int    `json:"partNumber"`
		ETag       string `json:"etag"`
	}
	completed := make([]done, 0, len(parts))
	for i, p := range parts {
		off := int64(i) * chunk
		n := min(chunk, b.size-off)
		resp, err := c.do(ctx, request{op: fmt.Sprintf("upload %s part %d", b.RepoPath, i+1), method: http.MethodPut, url: p.href,
			body: func() (io.ReadCloser, error) { return b.section(off, n) }, size: n})
		if err != nil {
			return err
		}
		etag := resp.header.Get("ETag")
		if etag == "" {
			return fmt.Errorf("hub: upload %s part %d: storage returned no ETag", b.RepoPath, i+1)
		}
		completed = append(completed, done{PartNumber: i + 1, ETag: etag})
	}
	body, n, err := jsonBody(map[string]any{"oid": b.sha256, "parts": completed})
	if err != nil {
		return err
	}
	_, err = c.do(ctx, request{op: "complete upload " + b.RepoPath, method: http.MethodPost, url: up.Href,
		header: http.Header{"Accept": {"application/vnd.git-lfs+json"}, "Content-Type": {"application/vnd.git-lfs+json"}},
		body:   body, size: n})
	return err
}

func (c *Client) verifyObject(ctx context.Context, b *blob, v *lfsAction) error {
	h := http.Header{"Accept": {"application/vnd.git-lfs+json"}, "Content-Type": {"application/vnd.git-lfs+json"}}
	for k := range v.Header {
		s, _ := v.headerString(k)
		h.Set(k, s)
	}
	body, n, err := jsonBody(map[string]any{"oid": b.sha256, "size": b.size})
	if err != nil {
		return err
	}
	// The token goes only to the Hub itself, never to a storage host.
	_, err = c.do(ctx, request{op: "verify " + b.RepoPath, method: http.MethodPost, url: v.Href,
		header: h, body: body, size: n, auth: sameHost(v.Href, c.endpoint())})
	return err
}

func sameHost(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && ua.Host == ub.Host
}

// commitPayload builds the NDJSON body: a header line, then one line per file.
func commitPayload(summary, description string, blobs []*blob, modes map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"key": "header", "value": map[string]string{"summary": summary, "description": description}}); err != nil {
		return nil, err
	}
	for _, b := range blobs {
		var line map[string]any
		if modes[b.RepoPath] == "lfs" {
			line = map[string]any{"key": "lfsFile", "value": map[string]any{"path": b.RepoPath, "algo": "sha256", "oid": b.sha256, "size": b.size}}
		} else {
			r, err := b.open()
			if err != nil {
				return nil, fmt.Errorf("hub: %w", err)
			}
			data, err := io.ReadAll(r)
			r.Close()
			if err != nil {
				return nil, fmt.Errorf("hub: reading %s: %w", b.LocalPath, err)
			}
			line = map[string]any{"key": "file", "value": map[string]any{"path": b.RepoPath, "encoding": "base64", "content": base64.StdEncoding.EncodeToString(data)}}
		}
		if err := enc.Encode(line); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

func jsonErrorMessage(body []byte) string {
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &e) == nil {
		if e.Error != "" {
			return e.Error
		}
		return e.Message
	}
	if len(body) > 0 && len(body) < 300 {
		return string(body)
	}
	return ""
}
