// Package warc reads and writes WARC files (WARC/1.0 and 1.1) as streams,
// in the shape of archive/tar: NewReader, Next, and a Body valid until the
// next Next. It understands the three layouts found in the wild — one gzip
// member per record (Common Crawl), one gzip member holding every record,
// and plain uncompressed WARC — and it parses the HTTP response stored in a
// response record.
//
// Memory is bounded whatever the record size: blocks are streamed, and
// headers are capped at 1 MiB. Damage is survivable: a corrupt record comes
// back from Next as *CorruptError and the reader resynchronises at the next
// record; a file cut short ends with an error wrapping ErrTruncated.
//
// It deliberately does not index or seek to records, verify block digests
// on read, undo transfer or content encodings (Common Crawl stores payloads
// decoded), resolve revisit records, or extract text: those belong to the
// stages that need them.
package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/klauspost/compress/gzip"
)

const (
	rawBufSize     = 256 << 10
	decBufSize     = 64 << 10
	maxHeaderBytes = 1 << 20
	// probeWindow is how much compressed input a candidate gzip member may
	// need to show its first bytes when resynchronising; a deflate block
	// header is a few hundred bytes.
	probeWindow = 16 << 10
)

var (
	errAfterNext   = errors.New("warc: Body read after Next")
	errHeaderLimit = fmt.Errorf("header longer than %d bytes", maxHeaderBytes)
)

// counter counts the bytes read through it. It sits under a bufio.Reader,
// so position = counted - buffered is exact: klauspost's inflater reads
// from a *bufio.Reader (its fastest path) byte-wise and never past the end
// of a member.
type counter struct {
	r   io.Reader
	n   int64
	err error // first error other than io.EOF: an I/O failure, not damage
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// Reader reads WARC records from a stream. It is not safe for concurrent use.
type Reader struct {
	cnt  counter
	raw  *bufio.Reader // file bytes
	gz   bool
	zr   gzip.Reader
	zcnt counter       // decompressed bytes out of zr
	dec  *bufio.Reader // record bytes: over zr for gzip, raw for plain

	// seeker lets resynchronisation restart just after a damaged record
	// instead of wherever reading stopped, so a lying Content-Length does
	// not also swallow the records after it.
	seeker io.Seeker
	base   int64

	inMember    bool
	freshMember bool // the next record starts the current member
	memberStart int64

	cur         *Record
	err         error // sticky: io.EOF, truncation, I/O errors
	resync      bool
	resyncFrom  int64 // file offset to rescan from (seekable sources), or -1
	resyncInDec bool  // the damage sat inside a multi-record member

	hbuf  []byte
	probe *gzip.Reader
}

// NewReader sniffs the layout of r and returns a Reader positioned before
// the first record. It fails on an empty stream and on one that is not a
// WARC file. Offsets count from r's position when NewReader was called.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{resyncFrom: -1}
	rd.cnt.r = r
	if s, ok := r.(io.Seeker); ok {
		if pos, err := s.Seek(0, io.SeekCurrent); err == nil {
			rd.seeker, rd.base = s, pos
		}
	}
	rd.raw = bufio.NewReaderSize(&rd.cnt, rawBufSize)
	head, err := rd.raw.Peek(512)
	if len(head) == 0 {
		if err == nil || err == io.EOF {
			return nil, errors.New("warc: empty file: no records to read")
		}
		return nil, fmt.Errorf("warc: reading the start of the file: %w", err)
	}
	switch {
	case len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b:
		rd.gz = true
		rd.zcnt.r = &rd.zr
		rd.dec = bufio.NewReaderSize(&rd.zcnt, decBufSize)
		// A damaged first member is left to Next (CorruptError); only
		// gzip that decodes to something else is rejected here.
		if first := rd.probeMember(512); len(first) >= 5 && !bytes.HasPrefix(first, []byte("WARC/")) {
			return nil, fmt.Errorf("warc: not a WARC file: gzip holding %s", describe(first))
		}
	case bytes.HasPrefix(head, []byte("WARC/")):
		rd.dec = rd.raw
	default:
		return nil, fmt.Errorf("warc: not a WARC file: found %s", describe(head))
	}
	return rd, nil
}

// describe names what a non-WARC file looks like, for the error message.
func describe(b []byte) string {
	ct, _, _ := strings.Cut(http.DetectContentType(b), ";")
	return fmt.Sprintf("%s data starting %q", ct, b[:min(len(b), 16)])
}

// probeMember decodes up to n bytes of the gzip member starting at the
// current file position without consuming anything; nil if it does not
// decode.
func (rd *Reader) probeMember(n int) []byte {
	win, _ := rd.raw.Peek(probeWindow)
	if rd.probe == nil {
		rd.probe = new(gzip.Reader)
	}
	if err := rd.probe.Reset(bytes.NewReader(win)); err != nil {
		return nil
	}
	rd.probe.Multistream(false)
	buf := make([]byte, n)
	k, _ := io.ReadFull(rd.probe, buf)
	return buf[:k]
}

// InputOffset is how many bytes of the input the reader has consumed
// (decoded or skipped), for progress reporting without wrapping the input;
// a wrapper would hide io.Seeker, which resynchronisation uses.
func (rd *Reader) InputOffset() int64 { return rd.rawPos() }

func (rd *Reader) rawPos() int64 { return rd.cnt.n - int64(rd.raw.Buffered()) }

func (rd *Reader) decPos() int64 {
	if !rd.gz {
		return rd.rawPos()
	}
	return rd.zcnt.n - int64(rd.dec.Buffered())
}

// Next advances to the next record, skipping the unread rest of the
// current one, and returns io.EOF at the clean end of the file. A
// *CorruptError is recoverable: count it and call Next again. Any other
// error (truncation wrapping ErrTruncated, an I/O error) ends the file.
func (rd *Reader) Next() (*Record, error) {
	if rec := rd.cur; rec != nil {
		rd.cur = nil
		err := rd.end(rec)
		rec.body.err = errAfterNext
		if err != nil {
			return nil, rd.fail(err)
		}
	}
	if rd.err != nil {
		return nil, rd.err
	}
	if rd.resync {
		rd.resync = false
		if err := rd.resynchronise(); err != nil {
			return nil, rd.fail(err)
		}
	}
	rec, err := rd.readRecord()
	if err != nil {
		return nil, rd.fail(err)
	}
	rd.cur = rec
	return rec, nil
}

// fail makes every error but damage sticky; damage schedules a resync.
func (rd *Reader) fail(err error) error {
	var ce *CorruptError
	if errors.As(err, &ce) {
		rd.resync = true
		return err
	}
	rd.err = err
	return err
}

// corruptAt reports damage at off and remembers where to resume.
func (rd *Reader) corruptAt(off int64, inDec bool, err error) *CorruptError {
	rd.resyncInDec = inDec
	rd.resyncFrom = -1
	if !inDec && rd.seeker != nil {
		rd.resyncFrom = off + 1
	}
	return &CorruptError{Offset: off, Err: err}
}

// streamErr turns an error from the record stream into the reader's
// vocabulary: I/O failure (sticky), truncation (sticky) or damage.
func (rd *Reader) streamErr(off int64, inDec bool, err error, early string) error {
	switch {
	case rd.cnt.err != nil:
		return fmt.Errorf("warc: reading the record at offset %d: %w", off, rd.cnt.err)
	case err == io.ErrUnexpectedEOF, err == io.EOF && !rd.gz:
		return truncatedAt(off)
	case err == io.EOF:
		return rd.corruptAt(off, inDec, errors.New(early))
	case err == errHeaderLimit:
		return rd.corruptAt(off, inDec, err)
	}
	return rd.corruptAt(off, inDec, fmt.Errorf("bad gzip data: %w", err))
}

func (rd *Reader) readRecord() (*Record, error) {
	for {
		if rd.gz && !rd.inMember {
			if err := rd.startMember(); err != nil {
				return nil, err
			}
		}
		rec := &Record{}
		if rd.gz && rd.freshMember {
			rec.Offset, rec.startedMember = rd.memberStart, true
		} else {
			rec.Offset, rec.inMember = rd.decPos(), rd.gz
		}
		// Blank lines between records are tolerated.
		for {
			p, err := rd.dec.Peek(1)
			if err != nil || (p[0] != '\r' && p[0] != '\n') {
				break
			}
			rd.dec.Discard(1)
		}
		p, err := rd.dec.Peek(5)
		if len(p) == 0 && err == io.EOF {
			if rd.gz {
				// The member held nothing more (CRC checked): next member.
				rd.inMember = false
				continue
			}
			return nil, io.EOF
		}
		if len(p) < 5 && err != io.EOF {
			return nil, rd.streamErr(rec.Offset, rec.inMember, err, "gzip member ends inside the record header")
		}
		if !bytes.HasPrefix(p, []byte("WARC/")) {
			return nil, rd.corruptAt(rec.Offset, rec.inMember, fmt.Errorf("expected a WARC/1.x version line, found %q", p))
		}
		rd.freshMember = false
		rec.uStart = rd.decPos()
		hdr, err := readHeaderBlock(bufPeeker{rd.dec}, rd.hbuf[:0])
		rd.hbuf = hdr[:0]
		if err != nil {
			return nil, rd.streamErr(rec.Offset, rec.inMember, err, "gzip member ends inside the record header")
		}
		version, h, clen, err := parseHeader(string(hdr))
		if err != nil {
			return nil, rd.corruptAt(rec.Offset, rec.inMember, err)
		}
		rec.Version, rec.Header, rec.Type, rec.contentLength = version, h, h.Get("WARC-Type"), clen
		rec.body = body{rd: rd, rec: rec, remaining: clen}
		rec.Body = &rec.body
		return rec, nil
	}
}

// startMember begins the gzip member at the current file position.
func (rd *Reader) startMember() error {
	rd.memberStart = rd.rawPos()
	p, err := rd.raw.Peek(3)
	if len(p) == 0 {
		if err == io.EOF {
			return io.EOF
		}
		return fmt.Errorf("warc: reading at offset %d: %w", rd.memberStart, err)
	}
	if len(p) < 3 || p[0] != 0x1f || p[1] != 0x8b || p[2] != 8 {
		q, _ := rd.raw.Peek(16)
		return rd.corruptAt(rd.memberStart, false, fmt.Errorf("expected a gzip member, found %q", q))
	}
	if err := rd.zr.Reset(rd.raw); err != nil {
		return rd.streamErr(rd.memberStart, false, err, "")
	}
	rd.zr.Multistream(false)
	rd.dec.Reset(&rd.zcnt)
	rd.inMember, rd.freshMember = true, true
	return nil
}

// end consumes the rest of rec once and checks that the record ends where
// its Content-Length says.
func (rd *Reader) end(rec *Record) error {
	if rec.ended {
		return rec.endErr
	}
	rec.ended = true
	rec.endErr = rd.finish(rec)
	return rec.endErr
}

func (rd *Reader) finish(rec *Record) error {
	b := &rec.body
	for b.remaining > 0 {
		n, err := rd.dec.Discard(int(min(b.remaining, 1<<30)))
		b.remaining -= int64(n)
		if err != nil {
			return rd.blockErr(rec, err)
		}
	}
	// The block is followed by CRLF CRLF; fewer line ends are tolerated
	// where the member or file ends or the next record follows.
	d := rd.dec
	k := 0
	for ; k < 64; k++ {
		p, err := d.Peek(1)
		if err != nil || (p[0] != '\r' && p[0] != '\n') {
			break
		}
		d.Discard(1)
	}
	next, err := d.Peek(5)
	switch {
	case len(next) == 0 && err == io.EOF:
		if rd.gz {
			rd.inMember = false // gzip checked the CRC and size
			if rec.startedMember {
				rec.Length = rd.rawPos() - rec.Offset
			} else {
				rec.Length = rd.decPos() - rec.uStart
			}
		} else {
			rec.Length = rd.rawPos() - rec.Offset
		}
		return nil
	case len(next) == 0:
		return rd.blockErr(rec, err)
	case bytes.HasPrefix(next, []byte("WARC/")), !rd.gz && k >= 4:
		// Another record follows in the same stream; junk after a
		// well-ended plain record is reported by the next header read.
		if rd.gz {
			rec.Length = rd.decPos() - rec.uStart
		} else {
			rec.Length = rd.rawPos() - rec.Offset
		}
		return nil
	}
	return rd.corruptAt(rec.Offset, rec.inMember, fmt.Errorf("Content-Length %d does not end the record: %q follows the block", rec.contentLength, next))
}

func (rd *Reader) blockErr(rec *Record, err error) error {
	return rd.streamErr(rec.Offset, rec.inMember, err,
		fmt.Sprintf("gzip member ends %d bytes before the end of Content-Length %d", rec.body.remaining, rec.contentLength))
}

// resynchronise moves to the next plausible record start after damage.
func (rd *Reader) resynchronise() error {
	if rd.gz {
		if rd.resyncInDec && rd.inMember {
			err := scanLines(rd.dec)
			if err == nil {
				return nil
			}
			if err == io.ErrUnexpectedEOF {
				return truncatedAt(rd.memberStart)
			}
			// Member end or damage: continue with the file bytes.
		}
		rd.inMember = false
		if err := rd.rewind(); err != nil {
			return err
		}
		return rd.scanMembers()
	}
	if err := rd.rewind(); err != nil {
		return err
	}
	return scanLines(rd.raw)
}

// rewind seeks back to just after the damaged record, if it can.
func (rd *Reader) rewind() error {
	off := rd.resyncFrom
	rd.resyncFrom = -1
	if off < 0 || rd.seeker == nil || off >= rd.rawPos() {
		return nil
	}
	if _, err := rd.seeker.Seek(rd.base+off, io.SeekStart); err != nil {
		return fmt.Errorf("warc: seeking back to offset %d to resynchronise: %w", off, err)
	}
	rd.cnt.n = off
	rd.raw.Reset(&rd.cnt)
	return nil
}

// scanMembers finds the next gzip member that decodes to a WARC record;
// the magic bytes alone also occur inside compressed data.
func (rd *Reader) scanMembers() error {
	for {
		buf, err := bufPeeker{rd.raw}.peek()
		if len(buf) == 0 {
			if err == io.EOF {
				return io.EOF
			}
			return fmt.Errorf("warc: reading at offset %d: %w", rd.rawPos(), err)
		}
		i := bytes.IndexByte(buf, 0x1f)
		if i < 0 {
			rd.raw.Discard(len(buf))
			continue
		}
		rd.raw.Discard(i)
		if p, _ := rd.raw.Peek(3); len(p) == 3 && p[1] == 0x8b && p[2] == 8 {
			if bytes.HasPrefix(rd.probeMember(5), []byte("WARC/")) {
				return nil
			}
		}
		rd.raw.Discard(1)
	}
}

// scanLines advances d to the next line that starts with "WARC/1.".
func scanLines(d *bufio.Reader) error {
	for {
		p, err := d.Peek(7)
		if string(p) == "WARC/1." {
			return nil
		}
		if len(p) < 7 && err != nil {
			return err
		}
		for {
			buf, err := bufPeeker{d}.peek()
			if len(buf) == 0 {
				return err
			}
			if i := bytes.IndexByte(buf, '\n'); i >= 0 {
				d.Discard(i + 1)
				break
			}
			d.Discard(len(buf))
		}
	}
}

// peeker is a buffered source that hands out what it holds without
// copying; readHeaderBlock uses it for WARC and HTTP headers alike.
type peeker interface {
	peek() ([]byte, error) // at least one byte, or an error
	discard(n int)         // n <= len(last peek)
}

type bufPeeker struct{ *bufio.Reader }

func (p bufPeeker) peek() ([]byte, error) {
	if p.Buffered() == 0 {
		if _, err := p.Peek(1); err != nil {
			return nil, err
		}
	}
	return p.Peek(p.Buffered())
}

func (p bufPeeker) discard(n int) { p.Discard(n) }

// readHeaderBlock appends header lines to dst up to and not including the
// blank line that ends them (consumed). Leading blank lines are skipped.
// At the end of the source it returns what it has with the source's error.
func readHeaderBlock(src peeker, dst []byte) ([]byte, error) {
	for {
		buf, err := src.peek()
		if len(buf) == 0 {
			if err == nil {
				err = io.ErrNoProgress
			}
			return dst, err
		}
		for len(buf) > 0 {
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				dst = append(dst, buf...)
				src.discard(len(buf))
				break
			}
			lineStart := len(dst) == 0 || dst[len(dst)-1] == '\n'
			blank := lineStart && (i == 0 || (i == 1 && buf[0] == '\r'))
			if i == 0 && len(dst) >= 2 && dst[len(dst)-1] == '\r' && dst[len(dst)-2] == '\n' {
				// "\r" and "\n" of the blank line arrived in two pieces.
				dst, blank = dst[:len(dst)-1], true
			}
			src.discard(i + 1)
			if blank {
				if len(dst) == 0 {
					buf = buf[i+1:]
					continue
				}
				return dst, nil
			}
			dst = append(dst, buf[:i+1]...)
			buf = buf[i+1:]
		}
		if len(dst) > maxHeaderBytes {
			return dst, errHeaderLimit
		}
	}
}

// body reads one record's block from the reader's stream.
type body struct {
	rd        *Reader
	rec       *Record
	remaining int64
	err       error
}

func (b *body) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.remaining == 0 {
		if err := b.rd.end(b.rec); err != nil {
			b.err = err
			return 0, err
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.rd.dec.Read(p)
	b.remaining -= int64(n)
	if n == 0 && err != nil {
		return 0, b.fail(err)
	}
	// An error arriving with data is sticky below and comes back next Read.
	return n, nil
}

// WriteTo hands out the decoder's buffer directly, saving a copy.
func (b *body) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for {
		buf, err := b.peek()
		if len(buf) == 0 {
			if err == io.EOF {
				return total, nil
			}
			return total, err
		}
		n, werr := w.Write(buf)
		total += int64(n)
		b.discard(n)
		if werr != nil {
			return total, werr
		}
	}
}

func (b *body) peek() ([]byte, error) {
	if b.err != nil {
		return nil, b.err
	}
	if b.remaining == 0 {
		if err := b.rd.end(b.rec); err != nil {
			b.err = err
			return nil, err
		}
		return nil, io.EOF
	}
	buf, err := bufPeeker{b.rd.dec}.peek()
	if len(buf) == 0 {
		return nil, b.fail(err)
	}
	if int64(len(buf)) > b.remaining {
		buf = buf[:b.remaining]
	}
	return buf, nil
}

func (b *body) discard(n int) {
	b.rd.dec.Discard(n)
	b.remaining -= int64(n)
}

func (b *body) fail(err error) error {
	e := b.rd.blockErr(b.rec, err)
	b.err = e
	b.rec.ended, b.rec.endErr = true, e
	return e
}
