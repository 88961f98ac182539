package fetch

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Idle hosts are forgotten after idleTTL; hosts in use never are.
func TestHostTableSweep(t *testing.T) {
	tab := newHostTable(1, 0)
	ctx := context.Background()
	for i := range 100 {
		release, err := tab.acquire(ctx, fmt.Sprintf("h%d", i))
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	held, err := tab.acquire(ctx, "busy")
	if err != nil {
		t.Fatal(err)
	}
	if n := tab.size(); n != 101 {
		t.Fatalf("%d hosts tracked, want 101", n)
	}
	tab.mu.Lock()
	tab.sweepLocked(time.Now()) // nothing is idle long enough yet
	tab.mu.Unlock()
	if n := tab.size(); n != 101 {
		t.Fatalf("sweep right after use left %d hosts, want 101", n)
	}
	tab.mu.Lock()
	tab.sweepLocked(time.Now().Add(tab.idleTTL + time.Second))
	tab.mu.Unlock()
	if n := tab.size(); n != 1 {
		t.Fatalf("after idleTTL %d hosts tracked, want only the busy one", n)
	}
	// The busy host's slot is still the same one: a second acquire waits.
	ctx2, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := tab.acquire(ctx2, "busy"); err == nil {
		t.Fatal("second acquire on a 1-slot host succeeded while the first is held")
	}
	held()
	if got := newHostTable(1, 0.001).idleTTL; got < 2000*time.Second {
		t.Errorf("idleTTL %v at 0.001 req/s, want >= two rate intervals", got)
	}
}

func TestRobotsCacheSweep(t *testing.T) {
	c := newRobotsCache()
	now := time.Now()
	done, owner := c.lookup("http://done.test", now)
	if !owner {
		t.Fatal("first lookup is not the owner")
	}
	close(done.ready)
	if _, owner := c.lookup("http://pending.test", now); !owner {
		t.Fatal("first lookup is not the owner")
	}
	if again, owner := c.lookup("http://done.test", now); owner || again != done {
		t.Fatal("second lookup did not share the first entry")
	}
	c.mu.Lock()
	c.sweepLocked(now.Add(robotsTTL + time.Minute))
	n := len(c.entries)
	_, pending := c.entries["http://pending.test"]
	c.mu.Unlock()
	if n != 1 || !pending {
		t.Fatalf("after sweep %d entries (pending kept: %v), want only the in-flight one", n, pending)
	}
}
