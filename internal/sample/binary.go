package sample

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
)

// The non-HTML payloads are built by hand rather than with image/png or a
// PDF library: stored (uncompressed) deflate and a fixed PDF layout give
// the same bytes on every Go version, which the byte-for-byte test needs.

// tinyPNG is a 12x12 RGB gradient, a valid PNG with a stored zlib stream.
func tinyPNG() []byte {
	const w, h = 12, 12
	var raw bytes.Buffer
	for y := 0; y < h; y++ {
		raw.WriteByte(0) // filter: none
		for x := 0; x < w; x++ {
			raw.Write([]byte{byte(40 + 16*x), byte(90 + 10*y), 200})
		}
	}
	var z bytes.Buffer
	z.Write([]byte{0x78, 0x01})
	z.WriteByte(1) // final stored block
	n := uint16(raw.Len())
	binary.Write(&z, binary.LittleEndian, n)
	binary.Write(&z, binary.LittleEndian, ^n)
	z.Write(raw.Bytes())
	binary.Write(&z, binary.BigEndian, adler32.Checksum(raw.Bytes()))

	var out bytes.Buffer
	out.Write([]byte("\x89PNG\r\n\x1a\n"))
	chunk := func(typ string, data []byte) {
		binary.Write(&out, binary.BigEndian, uint32(len(data)))
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.Write(&out, binary.BigEndian, c.Sum32())
	}
	var ihdr bytes.Buffer
	binary.Write(&ihdr, binary.BigEndian, uint32(w))
	binary.Write(&ihdr, binary.BigEndian, uint32(h))
	ihdr.Write([]byte{8, 2, 0, 0, 0}) // 8-bit RGB, deflate, no filter, no interlace
	chunk("IHDR", ihdr.Bytes())
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// tinyPDF is a one-page PDF with a line of German text, with a correct
// cross-reference table.
func tinyPDF() []byte {
	content := "BT /F1 14 Tf 72 760 Td (Fahrplan Nachtzug - Beispiel aus dem ccrawl-Archiv) Tj ET\n" +
		"BT /F1 11 Tf 72 730 Td (Abfahrt 21:40, Ankunft 08:15. Liegewagen und Schlafwagen.) Tj ET\n"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}
