package commoncrawl

import "testing"

func TestShardNumberFromName(t *testing.T) {
	tests := []struct {
		name string
		want int
		ok   bool
	}{
		{"CC-MAIN-20251018095628-20251018125628-00275.warc.gz", 275, true},
		{"crawl-data/CC-MAIN-2025-43/segments/1759648493487.16/warc/CC-MAIN-20251018095628-20251018125628-00275.warc.gz", 275, true},
		{"/data/shards/CC-MAIN-20251018095628-20251018125628-00000.warc.gz", 0, true},
		{"CC-MAIN-20251018095628-20251018125628-99999.warc.wet.gz", 99999, true},
		{"CC-MAIN-20251018095628-20251018125628-00012.warc.wat.gz", 12, true},
		{"CC-MAIN-20251018095628-20251018125628-00012.warc", 12, true},
		{"CC-MAIN-20150728002301-00041-ip-10-236-191-2.ec2.internal.warc.gz", 41, true},
		{"CC-NEWS-20240101012345-00123.warc.gz", 123, true},
		{`C:\shards\CC-MAIN-20251018095628-20251018125628-00007.warc.gz`, 7, true},

		{"small.warc.gz", 0, false},
		{"CC-MAIN-2025-43", 0, false},
		{"CC-MAIN-20251018095628-20251018125628-00275.parquet", 0, false},
		{"CC-MAIN-20251018095628-20251018125628.warc.gz", 0, false},
		{"cc-main-20251018095628-20251018125628-00275.warc.gz", 0, false},
		{"XCC-MAIN-20251018095628-20251018125628-00275.warc.gz", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := ShardNumberFromName(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ShardNumberFromName(%q) = %d, %v; want %d, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCrawlFromName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"crawl-data/CC-MAIN-2025-43/segments/1759648493487.16/warc/CC-MAIN-20251018095628-20251018125628-00275.warc.gz", "CC-MAIN-2025-43"},
		{"https://data.commoncrawl.org/crawl-data/CC-MAIN-2013-20/warc.paths.gz", "CC-MAIN-2013-20"},
		{"CC-MAIN-2026-30", "CC-MAIN-2026-30"},
		{"out/CC-MAIN-2024-10.parquet", "CC-MAIN-2024-10"},
		{"CC-MAIN-20251018095628-20251018125628-00275.warc.gz", ""},
		{"crawl-data/CC-MAIN-2025-431/x", ""},
		{"XCC-MAIN-2025-43/x", ""},
		{"small.warc.gz", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := CrawlFromName(tt.name); got != tt.want {
			t.Errorf("CrawlFromName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func FuzzShardNumberFromName(f *testing.F) {
	f.Add("CC-MAIN-20251018095628-20251018125628-00275.warc.gz")
	f.Add("crawl-data/CC-MAIN-2025-43/segments/x/warc/CC-MAIN-20150728002301-00041-ip-10.warc.gz")
	f.Fuzz(func(t *testing.T, name string) {
		if n, ok := ShardNumberFromName(name); ok && n < 0 {
			t.Fatalf("ShardNumberFromName(%q) = %d", name, n)
		}
		if c := CrawlFromName(name); c != "" && len(c) != len("CC-MAIN-2025-43") {
			t.Fatalf("CrawlFromName(%q) = %q", name, c)
		}
	})
}
