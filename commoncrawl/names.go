package commoncrawl

import (
	"path"
	"regexp"
	"strconv"
	"strings"
)

// shardName matches Common Crawl file names of both eras:
//
//	CC-MAIN-20251018095628-20251018125628-00275.warc.gz        (2018 on)
//	CC-MAIN-20150728002301-00000-ip-10-236-191-2.ec2.internal.warc.gz (older)
//	CC-NEWS-20240101012345-00123.warc.gz
//
// plus the .warc.wet.gz / .warc.wat.gz variants.
var shardName = regexp.MustCompile(`^CC-[A-Z]+-\d{14}-(?:\d{14}-)?(\d{5,6})(?:-[^/]*)?\.warc(?:\.wet|\.wat)?(?:\.gz)?$`)

// crawlID matches a crawl id such as CC-MAIN-2025-43 standing alone in a
// path or name; a WARC file name's CC-MAIN-<14-digit timestamp> never
// matches because the year must be followed by a dash.
var crawlID = regexp.MustCompile(`(?:^|[^A-Za-z0-9])(CC-MAIN-\d{4}-\d{2})(?:[^0-9]|$)`)

// ShardNumberFromName returns the sequence number in a Common Crawl file name
// (CC-MAIN-20251018095628-20251018125628-00275.warc.gz → 275). Directories in
// name are ignored. It is a label only; shard numbers used for selection are
// manifest positions (see the package comment).
func ShardNumberFromName(name string) (int, bool) {
	m := shardName.FindStringSubmatch(path.Base(strings.ReplaceAll(name, `\`, "/")))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return 0, false
	}
	return n, true
}

// CrawlFromName returns the crawl id (CC-MAIN-2025-43) carried by a path such
// as crawl-data/CC-MAIN-2025-43/segments/..., or "" if there is none. A WARC
// file name alone does not carry it: its timestamps are capture times, not
// the crawl id.
func CrawlFromName(name string) string {
	m := crawlID.FindStringSubmatch(name)
	if m == nil {
		return ""
	}
	return m[1]
}
