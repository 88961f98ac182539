package dataset

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// File is an open Parquet file of any ccrawl schema (or any flat schema).
type File struct {
	f  *os.File
	pf *parquet.File
}

// Open opens a Parquet file for reading, with a one-line error that names
// the file when it is not Parquet.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: not a readable Parquet file: %v", path, err)
	}
	return &File{f: f, pf: pf}, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// NumRows is the row count from the footer.
func (f *File) NumRows() int64 { return f.pf.NumRows() }

// Metadata returns a key-value metadata entry.
func (f *File) Metadata(key string) (string, bool) { return f.pf.Lookup(key) }

// Columns lists the top-level column names in order.
func (f *File) Columns() []string {
	var names []string
	for _, fl := range f.pf.Schema().Fields() {
		names = append(names, fl.Name())
	}
	return names
}

// Parquet exposes the underlying file for column-level readers.
func (f *File) Parquet() *parquet.File { return f.pf }

// EachRecord calls fn with each row as column name → Go value (string,
// int64, int32, float64, uint64, bool or nil), in file order, reading only
// the named columns (all when cols is empty). fn returning io.EOF stops early.
func (f *File) EachRecord(cols []string, fn func(map[string]any) error) error {
	fields := f.pf.Schema().Fields()
	want := map[int]string{}
	for i, fl := range fields {
		if len(cols) == 0 {
			want[i] = fl.Name()
			continue
		}
		for _, c := range cols {
			if c == fl.Name() {
				want[i] = c
			}
		}
	}
	for _, c := range cols {
		found := false
		for _, n := range want {
			found = found || n == c
		}
		if !found {
			return fmt.Errorf("no column %q (have %s)", c, strings.Join(f.Columns(), ", "))
		}
	}
	r := parquet.NewReader(f.pf)
	defer r.Close()
	buf := make([]parquet.Row, 64)
	for {
		n, err := r.ReadRows(buf)
		for _, row := range buf[:n] {
			rec := make(map[string]any, len(want))
			for _, v := range row {
				name, ok := want[v.Column()]
				if !ok {
					continue
				}
				rec[name] = goValue(fields[v.Column()], v)
			}
			if ferr := fn(rec); ferr != nil {
				if ferr == io.EOF {
					return nil
				}
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func goValue(field parquet.Field, v parquet.Value) any {
	if v.IsNull() {
		return nil
	}
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray())
	case parquet.Int32:
		return v.Int32()
	case parquet.Int64:
		if lt := field.Type().LogicalType(); lt != nil {
			if it, ok := lt.Value.(*format.IntType); ok && !it.IsSigned {
				return v.Uint64()
			}
		}
		return v.Int64()
	case parquet.Double:
		return v.Double()
	case parquet.Float:
		return float64(v.Float())
	case parquet.Boolean:
		return v.Boolean()
	}
	return v.String()
}

// ReadAll reads a whole file into typed rows. Meant for tests and small
// files; pipelines stream.
func ReadAll[T any](path string) ([]T, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := parquet.NewGenericReader[T](f.pf)
	defer r.Close()
	out := make([]T, f.pf.NumRows())
	n, err := r.Read(out)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return out[:n], nil
}

// FindFiles expands files and directories to the sorted list of .parquet
// files under them (directories are walked recursively; temp files are
// skipped).
func FindFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".parquet") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(out)
	return out, nil
}
