// Package hubtest is an in-memory fake of the Hugging Face Hub endpoints
// package hub uses, served by httptest on 127.0.0.1, for tests.
//
// It stores repos, LFS objects and commits in memory, records every
// request, and fails on demand (429 with Retry-After, 500, or a connection
// reset mid-request) per endpoint and count. It is strict where the real
// Hub is strict about things a client can get wrong (auth, LFS hashes and
// sizes, commits naming objects never uploaded, the token leaking to
// storage) and deliberately implements nothing else: no git, no Xet, no
// branches other than main, no downloads.
package hubtest

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Endpoint names one kind of request the fake serves.
type Endpoint string

// The endpoints, as used in faults and request records.
const (
	EndpointCreate      Endpoint = "create"       // POST /api/repos/create
	EndpointPathsInfo   Endpoint = "paths-info"   // POST /api/datasets/{repo}/paths-info/{rev}
	EndpointPreupload   Endpoint = "preupload"    // POST /api/datasets/{repo}/preupload/{rev}
	EndpointLFSBatch    Endpoint = "lfs-batch"    // POST /datasets/{repo}.git/info/lfs/objects/batch
	EndpointLFSUpload   Endpoint = "lfs-upload"   // PUT of a whole object or one part (storage)
	EndpointLFSComplete Endpoint = "lfs-complete" // POST completing a multipart upload
	EndpointLFSVerify   Endpoint = "lfs-verify"   // POST verifying an uploaded object
	EndpointCommit      Endpoint = "commit"       // POST /api/datasets/{repo}/commit/{rev}
)

// FaultKind is how an injected fault fails a request.
type FaultKind int

const (
	TooManyRequests  FaultKind = iota // 429 with Retry-After
	ServerError                       // 500
	Reset                             // read part of the body, then reset the connection
	ResetAfter                        // do the work, then reset before replying (reply lost)
	ServerErrorAfter                  // do the work, then answer 500 (the work stands)
)

// Fault fails the next Count requests to Endpoint.
type Fault struct {
	Endpoint   Endpoint
	Kind       FaultKind
	Count      int
	RetryAfter string // Retry-After header for TooManyRequests; "" means "1"
}

// Options configure a Server.
type Options struct {
	// Token, if set, must be presented as "Bearer <Token>" to API endpoints.
	Token string
	// ChunkSize > 0 answers LFS batch with the multipart transfer (parts of
	// this size) for objects larger than it, when the client offers it.
	ChunkSize int64
	// NoVerify leaves the verify action out of LFS batch answers.
	NoVerify bool
}

// Request is one recorded request.
type Request struct {
	Method   string
	Path     string
	Endpoint Endpoint
	Repo     string
	Status   int  // 0 when the connection was reset
	Faulted  bool // an injected fault answered it
}

// Op is one operation of a recorded commit.
type Op struct {
	Kind string // "file" or "lfsFile"
	Path string
	OID  string // sha256 for lfsFile, git blob sha1 for file
	Size int64
}

// Commit is one recorded commit.
type Commit struct {
	OID         string
	Summary     string
	Description string
	Ops         []Op
}

// Server is the fake Hub.
type Server struct {
	URL string

	opts  Options
	srv   *httptest.Server
	mu    sync.Mutex
	repos map[string]*repo
	fault map[Endpoint][]Fault
	reqs  []Request
	seq   int
}

type repo struct {
	private bool
	files   map[string]stored
	objects map[string][]byte            // LFS storage by sha256
	pending map[string]int64             // oid → size announced in a batch
	parts   map[string]map[int]partBytes // oid → part number → bytes
	commits []Commit
}

type stored struct {
	data []byte
	lfs  bool
}

type partBytes struct {
	data []byte
	etag string
}

// New starts a fake Hub on 127.0.0.1. Close it when done.
func New(opts Options) *Server {
	s := &Server{opts: opts, repos: map[string]*repo{}, fault: map[Endpoint][]Fault{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/repos/create", s.wrap(EndpointCreate, s.create))
	mux.HandleFunc("POST /api/datasets/{org}/{name}/paths-info/{rev...}", s.wrap(EndpointPathsInfo, s.pathsInfo))
	mux.HandleFunc("POST /api/datasets/{org}/{name}/preupload/{rev...}", s.wrap(EndpointPreupload, s.preupload))
	mux.HandleFunc("POST /api/datasets/{org}/{name}/commit/{rev...}", s.wrap(EndpointCommit, s.commit))
	mux.HandleFunc("POST /datasets/{org}/{name}/info/lfs/objects/batch", s.wrap(EndpointLFSBatch, s.lfsBatch))
	mux.HandleFunc("PUT /_storage/{org}/{name}/{oid}", s.wrap(EndpointLFSUpload, s.putObject))
	mux.HandleFunc("PUT /_storage/{org}/{name}/{oid}/part/{n}", s.wrap(EndpointLFSUpload, s.putPart))
	mux.HandleFunc("POST /_storage/{org}/{name}/{oid}/complete", s.wrap(EndpointLFSComplete, s.complete))
	mux.HandleFunc("POST /_storage/{org}/{name}/{oid}/verify", s.wrap(EndpointLFSVerify, s.verify))
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down.
func (s *Server) Close() { s.srv.Close() }

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// Inject queues a fault; faults for one endpoint apply in order.
func (s *Server) Inject(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault[f.Endpoint] = append(s.fault[f.Endpoint], f)
}

// CreateRepo makes a repo directly, as if it already existed.
func (s *Server) CreateRepo(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repos[id] = newRepo(false)
}

func newRepo(private bool) *repo {
	return &repo{private: private, files: map[string]stored{}, objects: map[string][]byte{},
		pending: map[string]int64{}, parts: map[string]map[int]partBytes{}}
}

// Files returns the repo's current files with their bytes (LFS files
// resolved to their content). Nil if the repo does not exist.
func (s *Server) Files(id string) map[string][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.repos[id]
	if r == nil {
		return nil
	}
	out := make(map[string][]byte, len(r.files))
	for p, f := range r.files {
		out[p] = bytes.Clone(f.data)
	}
	return out
}

// Commits returns the repo's commits, oldest first.
func (s *Server) Commits(id string) []Commit {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.repos[id]; r != nil {
		return append([]Commit(nil), r.commits...)
	}
	return nil
}

// Requests returns every request served so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count returns how many recorded requests went to ep.
func (s *Server) Count(ep Endpoint) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Endpoint == ep {
			n++
		}
	}
	return n
}

func (s *Server) wrap(ep Endpoint, h func(w http.ResponseWriter, r *http.Request, repoID string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		repoID := ""
		if org := r.PathValue("org"); org != "" {
			repoID = org + "/" + strings.TrimSuffix(r.PathValue("name"), ".git")
		}
		rec := Request{Method: r.Method, Path: r.URL.Path, Endpoint: ep, Repo: repoID}
		s.mu.Lock()
		var f *Fault
		if q := s.fault[ep]; len(q) > 0 {
			f = &Fault{}
			*f = q[0]
			q[0].Count--
			if q[0].Count <= 0 {
				s.fault[ep] = q[1:]
			}
		}
		s.mu.Unlock()
		// Recorded before the reply (or reset) goes out, so a client that
		// has seen the outcome always finds the request in Requests().
		record := func() {
			s.mu.Lock()
			s.reqs = append(s.reqs, rec)
			s.mu.Unlock()
		}
		if f != nil {
			rec.Faulted = true
			switch f.Kind {
			case TooManyRequests:
				ra := f.RetryAfter
				if ra == "" {
					ra = "1"
				}
				rec.Status = http.StatusTooManyRequests
				record()
				w.Header().Set("Retry-After", ra)
				hubError(w, http.StatusTooManyRequests, "rate limited (injected)")
				return
			case ServerError:
				rec.Status = http.StatusInternalServerError
				record()
				hubError(w, http.StatusInternalServerError, "internal error (injected)")
				return
			case Reset:
				// Take part of the upload, then drop the connection.
				io.CopyN(io.Discard, r.Body, 1024)
				record()
				resetConn(w)
				return
			case ResetAfter, ServerErrorAfter:
				h(&discardWriter{header: http.Header{}}, r, repoID)
				if f.Kind == ServerErrorAfter {
					rec.Status = http.StatusInternalServerError
					record()
					hubError(w, http.StatusInternalServerError, "internal error after the work was done (injected)")
					return
				}
				record()
				resetConn(w)
				return
			}
		}
		rw := &bufferedWriter{header: w.Header()}
		h(rw, r, repoID)
		rec.Status = rw.status
		if rec.Status == 0 {
			rec.Status = http.StatusOK
		}
		record()
		w.WriteHeader(rec.Status)
		w.Write(rw.body.Bytes())
	}
}

// bufferedWriter holds a reply until the request is recorded.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }
func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

// discardWriter swallows a reply that a ResetAfter fault will lose.
type discardWriter struct{ header http.Header }

func (d *discardWriter) Header() http.Header         { return d.header }
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (d *discardWriter) WriteHeader(int)             {}

func resetConn(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic("hubtest: hijack: " + err.Error())
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		tc.SetLinger(0) // RST, not FIN: what a dropped proxy connection looks like
	}
	conn.Close()
}

func hubError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Error-Message", msg)
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Token {
		hubError(w, http.StatusUnauthorized, "Invalid credentials in Authorization header")
		return false
	}
	return true
}

// lookup returns the repo or answers 404; the caller must hold s.mu.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request, id string) *repo {
	if rev := r.PathValue("rev"); rev != "" && rev != "main" {
		w.Header().Set("X-Error-Code", "RevisionNotFound")
		hubError(w, http.StatusNotFound, "Invalid rev id: "+rev)
		return nil
	}
	rp := s.repos[id]
	if rp == nil {
		w.Header().Set("X-Error-Code", "RepoNotFound")
		hubError(w, http.StatusNotFound, "Repository not found")
	}
	return rp
}

func (s *Server) create(w http.ResponseWriter, r *http.Request, _ string) {
	if !s.authorized(w, r) {
		return
	}
	var req struct {
		Name         string `json:"name"`
		Organization string `json:"organization"`
		Type         string `json:"type"`
		Private      bool   `json:"private"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Name == "" || req.Organization == "" {
		hubError(w, http.StatusBadRequest, "want JSON with name and organization")
		return
	}
	if req.Type != "dataset" {
		hubError(w, http.StatusBadRequest, "this fake only serves dataset repos, got type "+strconv.Quote(req.Type))
		return
	}
	id := req.Organization + "/" + req.Name
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.repos[id] != nil {
		hubError(w, http.StatusConflict, "You already created this dataset repo")
		return
	}
	s.repos[id] = newRepo(req.Private)
	writeJSON(w, map[string]string{"url": s.URL + "/datasets/" + id, "name": id})
}

func gitOID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func (s *Server) pathsInfo(w http.ResponseWriter, r *http.Request, id string) {
	if !s.authorized(w, r) {
		return
	}
	var paths []string
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		var req struct {
			Paths []string `json:"paths"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			hubError(w, http.StatusBadRequest, "bad JSON")
			return
		}
		paths = req.Paths
	} else {
		if err := r.ParseForm(); err != nil {
			hubError(w, http.StatusBadRequest, "bad form")
			return
		}
		paths = r.PostForm["paths"]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.lookup(w, r, id)
	if rp == nil {
		return
	}
	out := []map[string]any{}
	for _, p := range paths {
		f, ok := rp.files[p]
		if !ok {
			continue
		}
		e := map[string]any{"type": "file", "path": p, "size": len(f.data)}
		if f.lfs {
			e["oid"] = gitOID(lfsPointer(f.data))
			e["lfs"] = map[string]any{"oid": sha256hex(f.data), "size": len(f.data), "pointerSize": len(lfsPointer(f.data))}
		} else {
			e["oid"] = gitOID(f.data)
		}
		out = append(out, e)
	}
	writeJSON(w, out)
}

func lfsPointer(b []byte) []byte {
	return fmt.Appendf(nil, "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n", sha256hex(b), len(b))
}

// lfsByDefault mirrors the Hub's default .gitattributes for datasets plus
// its 10 MB and binary rules.
func lfsByDefault(p string, size int64, sample []byte) bool {
	switch path.Ext(p) {
	case ".parquet", ".gz", ".zst", ".arrow", ".bin", ".tar", ".zip":
		return true
	}
	return size >= 10<<20 || bytes.IndexByte(sample, 0) >= 0
}

func (s *Server) preupload(w http.ResponseWriter, r *http.Request, id string) {
	if !s.authorized(w, r) {
		return
	}
	var req struct {
		Files []struct {
			Path   string `json:"path"`
			Sample string `json:"sample"`
			Size   int64  `json:"size"`
		} `json:"files"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		hubError(w, http.StatusBadRequest, "bad JSON")
		return
	}
	s.mu.Lock()
	rp := s.lookup(w, r, id)
	s.mu.Unlock()
	if rp == nil {
		return
	}
	out := []map[string]any{}
	for _, f := range req.Files {
		sample, err := base64.StdEncoding.DecodeString(f.Sample)
		if err != nil || len(sample) > 512 {
			hubError(w, http.StatusBadRequest, "sample must be base64 of at most 512 bytes: "+f.Path)
			return
		}
		mode := "regular"
		if lfsByDefault(f.Path, f.Size, sample) {
			mode = "lfs"
		}
		out = append(out, map[string]any{"path": f.Path, "uploadMode": mode, "shouldIgnore": false})
	}
	writeJSON(w, map[string]any{"files": out})
}

var oidRe = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (s *Server) lfsBatch(w http.ResponseWriter, r *http.Request, id string) {
	if !s.authorized(w, r) {
		return
	}
	var req struct {
		Operation string   `json:"operation"`
		Transfers []string `json:"transfers"`
		HashAlgo  string   `json:"hash_algo"`
		Objects   []struct {
			OID  string `json:"oid"`
			Size int64  `json:"size"`
		} `json:"objects"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Operation != "upload" {
		hubError(w, http.StatusBadRequest, "want an upload batch request")
		return
	}
	if req.HashAlgo != "" && req.HashAlgo != "sha256" {
		hubError(w, http.StatusBadRequest, "unsupported hash_algo "+req.HashAlgo)
		return
	}
	multipartOK := false
	for _, t := range req.Transfers {
		multipartOK = multipartOK || t == "multipart"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.lookup(w, r, id)
	if rp == nil {
		return
	}
	transfer := "basic"
	var objs []map[string]any
	for _, o := range req.Objects {
		entry := map[string]any{"oid": o.OID, "size": o.Size}
		objs = append(objs, entry)
		if !oidRe.MatchString(o.OID) || o.Size < 0 {
			entry["error"] = map[string]any{"code": 422, "message": "invalid oid or size"}
			continue
		}
		if _, ok := rp.objects[o.OID]; ok {
			continue // already in storage: no actions
		}
		rp.pending[o.OID] = o.Size
		base := fmt.Sprintf("%s/_storage/%s/%s", s.URL, id, o.OID)
		actions := map[string]any{}
		if s.opts.ChunkSize > 0 && multipartOK && o.Size > s.opts.ChunkSize {
			transfer = "multipart"
			hdr := map[string]any{"chunk_size": strconv.FormatInt(s.opts.ChunkSize, 10)}
			n := (o.Size + s.opts.ChunkSize - 1) / s.opts.ChunkSize
			for i := int64(1); i <= n; i++ {
				hdr[strconv.FormatInt(i, 10)] = fmt.Sprintf("%s/part/%d?sig=fake", base, i)
			}
			actions["upload"] = map[string]any{"href": base + "/complete?sig=fake", "header": hdr}
		} else {
			actions["upload"] = map[string]any{"href": base + "?sig=fake", "header": map[string]any{"X-Fake-Upload": o.OID[:8]}}
		}
		if !s.opts.NoVerify {
			actions["verify"] = map[string]any{"href": base + "/verify", "header": map[string]any{}}
		}
		entry["actions"] = actions
	}
	w.Header().Set("Content-Type", "application/vnd.git-lfs+json")
	json.NewEncoder(w).Encode(map[string]any{"transfer": transfer, "objects": objs})
}

// storageAllowed rejects the Hub token on storage URLs: a presigned S3 URL
// refuses a second credential, and the token must not leak there.
func storageAllowed(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "" {
		hubError(w, http.StatusBadRequest, "Only one auth mechanism allowed (token sent to storage)")
		return false
	}
	if r.URL.Query().Get("sig") != "fake" {
		hubError(w, http.StatusForbidden, "missing signature")
		return false
	}
	return true
}

func (s *Server) putObject(w http.ResponseWriter, r *http.Request, id string) {
	if !storageAllowed(w, r) {
		return
	}
	oid := r.PathValue("oid")
	if r.Header.Get("X-Fake-Upload") != oid[:min(8, len(oid))] {
		hubError(w, http.StatusForbidden, "upload action header missing")
		return
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return // connection trouble; the client will retry
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.repos[id]
	if rp == nil {
		hubError(w, http.StatusNotFound, "no such repo")
		return
	}
	size, ok := rp.pending[oid]
	if !ok {
		hubError(w, http.StatusNotFound, "object was not announced in a batch")
		return
	}
	if int64(len(data)) != size || sha256hex(data) != oid {
		hubError(w, http.StatusBadRequest, fmt.Sprintf("content does not match oid/size (got %d bytes)", len(data)))
		return
	}
	rp.objects[oid] = data
	delete(rp.pending, oid)
}

func (s *Server) putPart(w http.ResponseWriter, r *http.Request, id string) {
	if !storageAllowed(w, r) {
		return
	}
	oid := r.PathValue("oid")
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 {
		hubError(w, http.StatusBadRequest, "bad part number")
		return
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	if int64(len(data)) > s.opts.ChunkSize {
		hubError(w, http.StatusBadRequest, "part larger than chunk_size")
		return
	}
	sum := md5.Sum(data)
	etag := `"` + hex.EncodeToString(sum[:]) + `"`
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.repos[id]
	if rp == nil || rp.pending[oid] == 0 {
		hubError(w, http.StatusNotFound, "object was not announced in a batch")
		return
	}
	if rp.parts[oid] == nil {
		rp.parts[oid] = map[int]partBytes{}
	}
	rp.parts[oid][n] = partBytes{data: data, etag: etag}
	w.Header().Set("ETag", etag)
}

func (s *Server) complete(w http.ResponseWriter, r *http.Request, id string) {
	if !storageAllowed(w, r) {
		return
	}
	oid := r.PathValue("oid")
	var req struct {
		OID   string `json:"oid"`
		Parts []struct {
			PartNumber int    `json:"partNumber"`
			ETag       string `json:"etag"`
		} `json:"parts"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.OID != oid {
		hubError(w, http.StatusBadRequest, "want {oid, parts}")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.repos[id]
	if rp == nil {
		hubError(w, http.StatusNotFound, "no such repo")
		return
	}
	got := rp.parts[oid]
	var buf bytes.Buffer
	for i, p := range req.Parts {
		pb, ok := got[p.PartNumber]
		if p.PartNumber != i+1 || !ok || pb.etag != p.ETag {
			hubError(w, http.StatusBadRequest, fmt.Sprintf("part %d missing or etag mismatch", p.PartNumber))
			return
		}
		buf.Write(pb.data)
	}
	data := buf.Bytes()
	if int64(len(data)) != rp.pending[oid] || sha256hex(data) != oid {
		hubError(w, http.StatusBadRequest, "assembled parts do not match oid/size")
		return
	}
	rp.objects[oid] = data
	delete(rp.pending, oid)
	delete(rp.parts, oid)
}

func (s *Server) verify(w http.ResponseWriter, r *http.Request, id string) {
	if !s.authorized(w, r) {
		return
	}
	var req struct {
		OID  string `json:"oid"`
		Size int64  `json:"size"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.OID != r.PathValue("oid") {
		hubError(w, http.StatusBadRequest, "want {oid, size}")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.repos[id]
	if rp == nil {
		hubError(w, http.StatusNotFound, "no such repo")
		return
	}
	data, ok := rp.objects[req.OID]
	if !ok || int64(len(data)) != req.Size {
		hubError(w, http.StatusNotFound, "object not found in storage")
		return
	}
}

func (s *Server) commit(w http.ResponseWriter, r *http.Request, id string) {
	if !s.authorized(w, r) {
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-ndjson") {
		hubError(w, http.StatusBadRequest, "want application/x-ndjson, got "+ct)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	type line struct {
		Key   string          `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	var lines []line
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			hubError(w, http.StatusBadRequest, "bad NDJSON line")
			return
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 || lines[0].Key != "header" {
		hubError(w, http.StatusBadRequest, "first line must be the header")
		return
	}
	var hdr struct {
		Summary     string `json:"summary"`
		Description string `json:"description"`
	}
	if err := json.Unmarshal(lines[0].Value, &hdr); err != nil || hdr.Summary == "" {
		hubError(w, http.StatusBadRequest, "header needs a summary")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := s.lookup(w, r, id)
	if rp == nil {
		return
	}
	c := Commit{Summary: hdr.Summary, Description: hdr.Description}
	staged := map[string]stored{}
	for _, l := range lines[1:] {
		var v struct {
			Path     string `json:"path"`
			Content  string `json:"content"`
			Encoding string `json:"encoding"`
			Algo     string `json:"algo"`
			OID      string `json:"oid"`
			Size     *int64 `json:"size"`
		}
		if err := json.Unmarshal(l.Value, &v); err != nil || v.Path == "" {
			hubError(w, http.StatusBadRequest, "operation needs a path")
			return
		}
		switch l.Key {
		case "file":
			if v.Encoding != "base64" {
				hubError(w, http.StatusBadRequest, "file content must be base64")
				return
			}
			data, err := base64.StdEncoding.DecodeString(v.Content)
			if err != nil {
				hubError(w, http.StatusBadRequest, "bad base64 for "+v.Path)
				return
			}
			staged[v.Path] = stored{data: data}
			c.Ops = append(c.Ops, Op{Kind: "file", Path: v.Path, OID: gitOID(data), Size: int64(len(data))})
		case "lfsFile":
			data, ok := rp.objects[v.OID]
			if v.Algo != "sha256" || !ok {
				hubError(w, http.StatusUnprocessableEntity, "LFS object not found for "+v.Path)
				return
			}
			if v.Size != nil && *v.Size != int64(len(data)) {
				hubError(w, http.StatusUnprocessableEntity, "LFS size mismatch for "+v.Path)
				return
			}
			staged[v.Path] = stored{data: data, lfs: true}
			c.Ops = append(c.Ops, Op{Kind: "lfsFile", Path: v.Path, OID: v.OID, Size: int64(len(data))})
		default:
			hubError(w, http.StatusBadRequest, "unsupported operation "+l.Key)
			return
		}
	}
	for p, f := range staged {
		rp.files[p] = f
	}
	s.seq++
	sum := sha1.Sum(fmt.Appendf(nil, "%s %d %s", id, s.seq, hdr.Summary))
	c.OID = hex.EncodeToString(sum[:])
	rp.commits = append(rp.commits, c)
	writeJSON(w, map[string]any{"commitOid": c.OID, "commitUrl": s.URL + "/datasets/" + id + "/commit/" + c.OID, "success": true})
}
