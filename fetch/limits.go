package fetch

// Budget for AutoWorkers. Each worker holds at most one active socket and
// the shared transport keeps up to 2×Workers idle ones, so a worker costs up
// to three descriptors.
const (
	fdsPerWorker  = 3
	fdHeadroomMin = 256  // WARC inputs, Parquet outputs, logs, robots side requests
	maxWorkers    = 3000 // beyond this a 2-core box spends its time in TLS and GC
)

// AutoWorkers sizes the fetch pool from the open-file limit: it keeps a
// headroom of max(256, limit/10) descriptors for files, allows three
// descriptors per worker, caps the total at 3000 and splits it across
// parallel shards running at once. It never returns less than 1.
func AutoWorkers(limit uint64, parallel int) int {
	if parallel < 1 {
		parallel = 1
	}
	headroom := uint64(fdHeadroomMin)
	if limit/10 > headroom {
		headroom = limit / 10
	}
	if limit <= headroom {
		return 1
	}
	total := (limit - headroom) / fdsPerWorker
	if total > maxWorkers {
		total = maxWorkers
	}
	n := int(total) / parallel
	if n < 1 {
		n = 1
	}
	return n
}
