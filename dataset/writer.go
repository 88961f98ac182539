package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// RowGroupBytes bounds the uncompressed size of a row group: readers
// (DuckDB, datasets/pyarrow) load one group at a time, and a shard of 21,000
// pages holds several hundred MB of Markdown.
const RowGroupBytes = 64 << 20

// TempSuffix marks a file being written. A run that finds one left by a
// killed process removes it (see RemoveStaleTemps).
const TempSuffix = ".tmp"

// Writer writes rows of type T to one Parquet file, durably: rows go to a
// temporary file beside the final path, and Close fsyncs and renames it.
// Until Close returns nil nothing exists under the final name.
type Writer[T any] struct {
	final, temp string
	f           *os.File
	pw          *parquet.GenericWriter[T]
	rows        int64
	pending     int64 // approximate uncompressed bytes in the open row group
	size        func(*T) int64
	closed      bool
}

// Create opens a writer for path. meta is stored as key-value metadata;
// size estimates a row's uncompressed bytes for row-group sizing.
func Create[T any](path string, meta map[string]string, size func(*T) int64) (*Writer[T], error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	temp := path + TempSuffix
	f, err := os.Create(temp)
	if err != nil {
		return nil, err
	}
	opts := []parquet.WriterOption{
		parquet.Compression(&zstd.Codec{Level: zstd.SpeedDefault}),
		parquet.PageBufferSize(1 << 20),
		parquet.CreatedBy("ccrawl", meta[MetaVersion], ""),
	}
	// Sorted keys keep the footer byte-identical across runs.
	for _, k := range sortedKeys(meta) {
		opts = append(opts, parquet.KeyValueMetadata(k, meta[k]))
	}
	return &Writer[T]{final: path, temp: temp, f: f, pw: parquet.NewGenericWriter[T](f, opts...), size: size}, nil
}

// Write appends rows, cutting a row group whenever RowGroupBytes is reached.
func (w *Writer[T]) Write(rows ...T) error {
	for i := range rows {
		if _, err := w.pw.Write(rows[i : i+1]); err != nil {
			return fmt.Errorf("write %s: %w", w.final, err)
		}
		w.rows++
		if w.size != nil {
			w.pending += w.size(&rows[i])
		}
		if w.pending >= RowGroupBytes {
			if err := w.pw.Flush(); err != nil {
				return fmt.Errorf("write %s: %w", w.final, err)
			}
			w.pending = 0
		}
	}
	return nil
}

// Rows is the number of rows written so far.
func (w *Writer[T]) Rows() int64 { return w.rows }

// Close finishes the file, fsyncs it, renames it to its final name and
// fsyncs the directory, so a ledger entry written after Close is safe.
// It returns the file size.
func (w *Writer[T]) Close() (int64, error) {
	if w.closed {
		return 0, fmt.Errorf("write %s: already closed", w.final)
	}
	w.closed = true
	if err := w.pw.Close(); err != nil {
		w.f.Close()
		os.Remove(w.temp)
		return 0, fmt.Errorf("write %s: %w", w.final, err)
	}
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		os.Remove(w.temp)
		return 0, fmt.Errorf("sync %s: %w", w.temp, err)
	}
	st, err := w.f.Stat()
	if err != nil {
		w.f.Close()
		os.Remove(w.temp)
		return 0, err
	}
	if err := w.f.Close(); err != nil {
		os.Remove(w.temp)
		return 0, err
	}
	if err := os.Rename(w.temp, w.final); err != nil {
		os.Remove(w.temp)
		return 0, err
	}
	if err := SyncDir(filepath.Dir(w.final)); err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// Abort discards the temporary file; nothing is left under any name.
func (w *Writer[T]) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	w.f.Close()
	os.Remove(w.temp)
}

// SyncDir fsyncs a directory so a rename in it survives a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !strings.Contains(err.Error(), "invalid argument") {
		return err
	}
	return nil
}

// RemoveStaleTemps deletes temporary files a killed run left under root and
// returns how many it removed.
func RemoveStaleTemps(root string) (int, error) {
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".parquet"+TempSuffix) {
			if err := os.Remove(p); err == nil {
				n++
			}
		}
		return nil
	})
	return n, err
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
