package commoncrawl

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseShardSpec(t *testing.T) {
	tests := []struct {
		spec    string
		n       int
		want    []int
		wantErr string // substring of the error; "" means success
	}{
		{spec: "0", n: 10, want: []int{0}},
		{spec: "9", n: 10, want: []int{9}},
		{spec: "3-5", n: 10, want: []int{3, 4, 5}},
		{spec: "5-5", n: 10, want: []int{5}},
		{spec: "7,2", n: 10, want: []int{2, 7}},
		{spec: "0-2,8", n: 10, want: []int{0, 1, 2, 8}},
		{spec: "2-4,3-6,4", n: 10, want: []int{2, 3, 4, 5, 6}},
		{spec: " 1 , 3 - 4 ", n: 10, want: []int{1, 3, 4}},
		{spec: "\t2\n", n: 10, want: []int{2}},
		{spec: "all", n: 4, want: []int{0, 1, 2, 3}},
		{spec: " ALL ", n: 2, want: []int{0, 1}},
		{spec: "all,1", n: 3, want: []int{0, 1, 2}},
		{spec: "007", n: 10, want: []int{7}},

		{spec: "", n: 10, wantErr: "empty spec"},
		{spec: "  ", n: 10, wantErr: "empty spec"},
		{spec: "1,,2", n: 10, wantErr: "empty element"},
		{spec: "1,", n: 10, wantErr: "empty element"},
		{spec: ",1", n: 10, wantErr: "empty element"},
		{spec: "5-3", n: 10, wantErr: "reversed range"},
		{spec: "10", n: 10, wantErr: "out of range"},
		{spec: "0-10", n: 10, wantErr: "out of range"},
		{spec: "99999999999999999999999", n: 10, wantErr: "out of range"},
		{spec: "-1", n: 10, wantErr: "negative"},
		{spec: "1--3", n: 10, wantErr: "negative"},
		{spec: "1-", n: 10, wantErr: "incomplete range"},
		{spec: "-", n: 10, wantErr: "negative"},
		{spec: "1-2-3", n: 10, wantErr: "not a shard number"},
		{spec: "+3", n: 10, wantErr: "not a shard number"},
		{spec: "0x1", n: 10, wantErr: "not a shard number"},
		{spec: "1e2", n: 10, wantErr: "not a shard number"},
		{spec: "one", n: 10, wantErr: "not a shard number"},
		{spec: "1 2", n: 10, wantErr: "not a shard number"},
		{spec: "0", n: 0, wantErr: "no shards"},
		{spec: "all", n: 0, wantErr: "no shards"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseShardSpec(tt.spec, tt.n)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseShardSpec(%q, %d): %v", tt.spec, tt.n, err)
				}
				if !slices.Equal(got, tt.want) {
					t.Fatalf("ParseShardSpec(%q, %d) = %v, want %v", tt.spec, tt.n, got, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("ParseShardSpec(%q, %d) = %v, want error containing %q", tt.spec, tt.n, got, tt.wantErr)
			}
			var se *SpecError
			if !errors.As(err, &se) || !errors.Is(err, ErrBadSpec) {
				t.Fatalf("error %v (%T) is not a *SpecError wrapping ErrBadSpec", err, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.wantErr) {
				t.Fatalf("error %q does not mention %q", msg, tt.wantErr)
			}
			if tt.n > 0 && !strings.Contains(msg, "0-"+strconv.Itoa(tt.n-1)) {
				t.Fatalf("error %q does not state the valid range", msg)
			}
			if strings.Contains(msg, "\n") {
				t.Fatalf("error %q spans lines", msg)
			}
		})
	}
}

func TestLimit(t *testing.T) {
	idx := []int{4, 5, 6, 7}
	tests := []struct {
		k    int
		want []int
	}{
		{0, idx}, {-1, idx}, {1, []int{4}}, {3, []int{4, 5, 6}}, {4, idx}, {9, idx},
	}
	for _, tt := range tests {
		if got := Limit(idx, tt.k); !slices.Equal(got, tt.want) {
			t.Errorf("Limit(%v, %d) = %v, want %v", idx, tt.k, got, tt.want)
		}
	}
}

func FuzzParseShardSpec(f *testing.F) {
	for _, s := range []string{"0", "0-9,20", "all", " 1 , 2-3", "5-3", "-1", "1,,2", "99999999999999999999"} {
		f.Add(s, 30)
	}
	f.Fuzz(func(t *testing.T, spec string, n int) {
		if n > 1<<16 {
			n %= 1 << 16 // keep "all" cheap
		}
		got, err := ParseShardSpec(spec, n)
		if err != nil {
			if !errors.Is(err, ErrBadSpec) {
				t.Fatalf("error %v does not wrap ErrBadSpec", err)
			}
			return
		}
		if len(got) == 0 {
			t.Fatalf("ParseShardSpec(%q, %d) succeeded with no shards", spec, n)
		}
		for i, v := range got {
			if v < 0 || v >= n || (i > 0 && got[i-1] >= v) {
				t.Fatalf("ParseShardSpec(%q, %d) = %v: not sorted, unique and in range", spec, n, got)
			}
		}
	})
}
