package pipeline

import "sync"

// Pool is the conversion pool: a fixed set of workers shared by every shard
// in flight, so raising --parallel overlaps downloads and I/O without
// oversubscribing cores.
type Pool struct {
	jobs chan func()
	wg   sync.WaitGroup
}

// NewPool starts n workers.
func NewPool(n int) *Pool {
	if n < 1 {
		n = 1
	}
	p := &Pool{jobs: make(chan func(), n)}
	p.wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

// Submit queues a job; it blocks while every worker is busy and the queue
// is full, which is the back-pressure that bounds memory.
func (p *Pool) Submit(job func()) { p.jobs <- job }

// Close waits for queued jobs and stops the workers.
func (p *Pool) Close() {
	close(p.jobs)
	p.wg.Wait()
}
