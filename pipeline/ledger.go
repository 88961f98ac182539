package pipeline

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LedgerEntry records one committed shard. An entry is appended only after
// the shard's file is durable (and, when publishing, after the Hub
// acknowledged the commit), so the ledger never claims more than exists.
type LedgerEntry struct {
	Key    string `json:"key"`
	Shard  int    `json:"shard"`
	Crawl  string `json:"crawl"`
	Path   string `json:"path"`
	Rows   int64  `json:"rows"`
	Bytes  int64  `json:"parquet_bytes"`
	TS     string `json:"ts"`
	Pushed bool   `json:"pushed,omitempty"`
	// What the dataset card sums: rows by language and digest drops.
	DigestDropped int64            `json:"digest_dropped,omitempty"`
	RowLangs      map[string]int64 `json:"row_langs,omitempty"`
}

// Ledger is the append-only list of committed shards of an output.
type Ledger struct {
	mu      sync.Mutex
	path    string
	entries map[string]LedgerEntry
}

// OpenLedger reads the ledger at path (a missing file is an empty ledger).
// A torn last line from a killed run is ignored.
func OpenLedger(path string) (*Ledger, error) {
	l := &Ledger{path: path, entries: map[string]LedgerEntry{}}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e LedgerEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Key != "" {
			l.entries[e.Key] = e
		}
	}
	return l, sc.Err()
}

// Path is the ledger's file.
func (l *Ledger) Path() string { return l.path }

// Len is the number of committed shards recorded.
func (l *Ledger) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// Has reports whether key is committed.
func (l *Ledger) Has(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.entries[key]
	return ok
}

// Entries returns a copy of all entries.
func (l *Ledger) Entries() []LedgerEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LedgerEntry, 0, len(l.entries))
	for _, e := range l.entries {
		out = append(out, e)
	}
	return out
}

// Append durably records e (write + fsync).
func (l *Ledger) Append(e LedgerEntry) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e.TS == "" {
		e.TS = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(e)
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("ledger %s: %w", l.path, err)
	}
	l.entries[e.Key] = e
	return f.Close()
}
