package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Event is one journal line. Fields that do not apply to an event are
// omitted; `jq` one-liners in the README rely on these names.
type Event struct {
	TS       string `json:"ts"`
	Event    string `json:"event"` // start, shard, tick, end
	Run      string `json:"run"`
	Pipeline string `json:"pipeline"`
	Crawl    string `json:"crawl,omitempty"`

	Shard  *int   `json:"shard,omitempty"`
	Source string `json:"source,omitempty"`
	Status string `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	Path   string `json:"path,omitempty"`

	*ShardStats `json:",omitempty"`

	Done        int     `json:"done"`
	Total       int     `json:"total"`
	Committed   int     `json:"committed"`
	Skipped     int     `json:"skipped"`
	Failed      int     `json:"failed"`
	Inflight    int     `json:"inflight"`
	RatePerHour float64 `json:"rate_per_hour"`
	ETASecs     float64 `json:"eta_s"`
	ElapsedSecs float64 `json:"elapsed_s"`
	FreeDisk    uint64  `json:"free_disk_bytes"`
	RSS         uint64  `json:"rss_bytes"`
}

// Journal appends events as JSON lines. Each line is one write(2) on an
// O_APPEND file, so a killed run leaves whole lines.
type Journal struct {
	mu sync.Mutex
	f  *os.File
}

// OpenJournal opens (appending to) the journal at path.
func OpenJournal(path string) (*Journal, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Journal{f: f}, nil
}

// Write appends one event, stamping its time.
func (j *Journal) Write(e Event) error {
	if j == nil {
		return nil
	}
	e.TS = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err = j.f.Write(append(b, '\n'))
	return err
}

// Close syncs and closes the journal.
func (j *Journal) Close() error {
	if j == nil {
		return nil
	}
	j.f.Sync()
	return j.f.Close()
}
