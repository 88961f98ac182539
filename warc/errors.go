package warc

import (
	"errors"
	"fmt"
)

// ErrTruncated is wrapped by the error Next returns when the file ends
// inside a record (a partial download): the shard ends there, and the
// records returned before it stay valid.
var ErrTruncated = errors.New("truncated")

// CorruptError reports one damaged record or a run of bytes that is not a
// record. The caller counts it and calls Next again: the reader
// resynchronises at the next record.
type CorruptError struct {
	Offset int64 // where the damaged record (or the junk) starts
	Err    error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("warc: corrupt record at offset %d: %v", e.Offset, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

func truncatedAt(off int64) error {
	return fmt.Errorf("warc: record at offset %d is %w: the file ends inside it (partial download?)", off, ErrTruncated)
}
