// Package testutil finds the shared test corpus and reads its truth files.
// Tests that need ../shared skip cleanly when it is absent.
package testutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// RepoRoot walks up from the working directory to the folder holding go.mod.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test's directory")
		}
		dir = parent
	}
}

// Shared returns the path of a file under ../shared (beside the checkout),
// skipping the test when it is not there.
func Shared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(RepoRoot(t), "..", "shared", rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared test data %s not available (expected ../shared beside the checkout): %v", rel, err)
	}
	return p
}

// Testdata returns the path of a file under the repo's testdata/.
func Testdata(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(RepoRoot(t), "testdata", rel)
}

// Capture is one capture of a ccgen truth file (the fields tests use).
type Capture struct {
	Index        int    `json:"index"`
	RecordID     string `json:"record_id"`
	WARCType     string `json:"warc_type"`
	Offset       int64  `json:"offset"`
	Length       int64  `json:"length"`
	URL          string `json:"url"`
	Date         string `json:"date"`
	Status       int    `json:"status"`
	Kind         string `json:"kind"`
	Subkind      string `json:"subkind"`
	Mime         string `json:"mime"`
	IdentMime    string `json:"identified_mime"`
	Digest       string `json:"payload_digest"`
	PayloadLen   int64  `json:"payload_length"`
	Truncated    string `json:"truncated"`
	Lang         string `json:"lang"`
	TextBytes    int64  `json:"text_bytes"`
	Tiny         bool   `json:"tiny"`
	ExactGroup   string `json:"exact_group"`
	ExactDupOf   string `json:"exact_dup_of"`
	NearGroup    string `json:"near_group"`
	NearRole     string `json:"near_role"`
	NearVariant  string `json:"near_variation"`
	NearDupOf    string `json:"near_dup_of"`
	RefSimhash   string `json:"ref_simhash"`
	Transform    []string
	Charset      *Charset `json:"charset"`
	NearDistance *int     `json:"near_ref_distance"`
}

// Charset is a capture's charset case.
type Charset struct {
	Actual       string `json:"actual"`
	SourceNative string `json:"source_native"`
	Header       string `json:"header"`
	Meta         string `json:"meta"`
	Effective    string `json:"effective"`
	ASCIIOnly    bool   `json:"ascii_only"`
	InvalidUTF8  bool   `json:"invalid_utf8"`
	Reencoded    bool   `json:"reencoded"`
	Mislabeled   bool   `json:"mislabeled"`
	MislabelKind string `json:"mislabel_kind"`
}

// Group is an exact or near duplicate group.
type Group struct {
	ID      string   `json:"id"`
	Records []string `json:"records"`
	Keep    string   `json:"keep"`
}

// Truth is a ccgen truth file.
type Truth struct {
	WARC struct {
		Records    int   `json:"records"`
		Captures   int   `json:"captures"`
		Compressed int64 `json:"compressed_bytes"`
	} `json:"warc"`
	Captures    []Capture `json:"captures"`
	ExactGroups []Group   `json:"exact_groups"`
	NearGroups  []Group   `json:"near_groups"`
}

// LoadTruth reads a ccgen truth file.
func LoadTruth(t testing.TB, path string) *Truth {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var tr Truth
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &tr
}

// IsHTML200 reports whether a capture is an HTTP 200 HTML response: the
// records an export turns into rows (minus empty extractions).
func (c Capture) IsHTML200() bool {
	return c.WARCType == "response" && c.Status == 200 && c.Kind == "html"
}
