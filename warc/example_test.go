package warc_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/open-markdown/ccrawl/warc"
)

func Example() {
	// Build a one-record WARC in memory (a shard file works the same way).
	var buf bytes.Buffer
	w := warc.NewWriter(&buf, true)
	w.WriteRecord(warc.Header{
		{Name: "WARC-Type", Value: "response"},
		{Name: "WARC-Target-URI", Value: "https://example.com/"},
		{Name: "WARC-Date", Value: "2025-10-18T10:11:01Z"},
	}, []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>hello</p>"))

	rd, err := warc.NewReader(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	corrupt := 0
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		var ce *warc.CorruptError
		if errors.As(err, &ce) {
			corrupt++ // count it and go on: the reader resynchronises
			continue
		}
		if err != nil {
			fmt.Println(err) // truncated file or I/O error: the shard ends here
			break
		}
		if rec.Type != "response" {
			continue // Next skips the unread block
		}
		resp, err := warc.ReadHTTPResponse(rec.Body)
		if err != nil {
			continue
		}
		html, err := io.ReadAll(resp.Body)
		if err != nil {
			continue // damaged record: Next reports it
		}
		fmt.Println(rec.TargetURI(), rec.Date().Format("2006-01-02"), resp.Status, resp.ContentType(), string(html))
	}
	fmt.Println("corrupt:", corrupt)
	// Output:
	// https://example.com/ 2025-10-18 200 text/html <p>hello</p>
	// corrupt: 0
}
