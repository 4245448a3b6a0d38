package gateway

import (
	"sync"
	"time"
)

// inflight counts the work under way that the gateway's shutdown waits
// for, and admits none once the shutdown has begun: unlike a
// sync.WaitGroup, whose Add may not race its Wait, a late arrival is
// refused rather than counted after the wait began.
type inflight struct {
	mu     sync.Mutex
	n      int
	closed bool
	idle   chan struct{} // made by close; closed when n reaches 0
}

// enter counts one more piece of work; false once close has begun, when
// the caller must refuse the work instead.
func (f *inflight) enter() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.n++
	return true
}

// exit ends one piece of work that enter admitted.
func (f *inflight) exit() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n < 0 {
		panic("gateway: inflight exit without enter")
	}
	if f.n == 0 && f.closed {
		close(f.idle)
	}
}

// close admits no more work and returns a channel closed once what is
// under way has ended.
func (f *inflight) close() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		f.idle = make(chan struct{})
		if f.n == 0 {
			close(f.idle)
		}
	}
	return f.idle
}

// wait waits, at most d, for c to close; it reports whether it did.
func wait(c <-chan struct{}, d time.Duration) bool {
	select {
	case <-c:
		return true
	default:
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c:
		return true
	case <-t.C:
		return false
	}
}
