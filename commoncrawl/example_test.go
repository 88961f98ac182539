package commoncrawl_test

import (
	"fmt"

	"github.com/open-markdown/ccrawl/commoncrawl"
)

func ExampleParseShardSpec() {
	idx, err := commoncrawl.ParseShardSpec("0-3, 10, 2", 100)
	fmt.Println(idx, err)
	fmt.Println(commoncrawl.Limit(idx, 2))
	_, err = commoncrawl.ParseShardSpec("95-105", 100)
	fmt.Println(err)
	// Output:
	// [0 1 2 3 10] <nil>
	// [0 1]
	// shard spec "95-105": shard 105 is out of range: the manifest has 100 shards (valid: 0-99, e.g. 0-9,20, or all)
}

func ExampleShardNumberFromName() {
	p := "crawl-data/CC-MAIN-2025-43/segments/1759648493487.16/warc/CC-MAIN-20251018095628-20251018125628-00275.warc.gz"
	n, ok := commoncrawl.ShardNumberFromName(p)
	fmt.Println(n, ok, commoncrawl.CrawlFromName(p))
	// Output: 275 true CC-MAIN-2025-43
}
