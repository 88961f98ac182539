package pipeline

// Shard statuses, as the journal writes them.
const (
	StatusOK        = "ok"
	StatusFailed    = "failed"
	StatusSkipped   = "skipped" // already in the ledger
	StatusAbandoned = "abandoned"
)

// Shard is one unit of work: one WARC file, local or on the data server.
type Shard struct {
	Number int    // manifest position (or sorted position for local files)
	Name   string // what the user recognises: the path given or the manifest path
	Crawl  string // known crawl id (manifest runs), else "" to detect
	Local  string // local file path; "" for a remote shard
	Remote string // path on the data server, relative to its base URL
}

// Key is the shard's identity in the ledger.
func (s Shard) Key() string {
	if s.Remote != "" {
		return s.Remote
	}
	return s.Local
}
