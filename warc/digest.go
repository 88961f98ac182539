package warc

import (
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"hash"
	"io"
)

// PayloadDigest reads r to the end and returns its digest in the form of
// WARC-Payload-Digest: "sha1:" and the RFC 4648 base32 of the SHA-1, the
// form Common Crawl uses, so it compares equal to stored digests.
func PayloadDigest(r io.Reader) (string, error) {
	h := sha1.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", fmt.Errorf("warc: computing payload digest: %w", err)
	}
	return digestString(h), nil
}

func digestString(h hash.Hash) string {
	return "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil))
}
