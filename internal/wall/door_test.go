package wall

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// door is a listener a test judges by: it keeps, in the order they came,
// the first line of every connection made to it (the empty line for one
// that ended before it sent a line), and answers each "pong".
type door struct {
	ln     net.Listener
	port   int // a TCP door's port
	mu     sync.Mutex
	visits []visit
	asked  int // the test's own connections (settle) so far
}

type visit struct {
	line string
	read bool // the line was read, or the connection ended before one
}

// settleLine starts the line of the test's own connection to a door.
const settleLine = "sayso-test-settle "

func openDoor(t *testing.T, network, addr string) *door {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	d := &door{ln: ln}
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		d.port = a.Port
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d.mu.Lock()
			i := len(d.visits)
			d.visits = append(d.visits, visit{})
			d.mu.Unlock()
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(testenv.Hang))
				line, _ := bufio.NewReader(c).ReadString('\n')
				d.mu.Lock()
				d.visits[i] = visit{line: line, read: true}
				d.mu.Unlock()
				c.Write([]byte("pong\n"))
			}()
		}
	}()
	return d
}

// settle makes a connection of the test's own to the door and waits
// until the door has taken it and read every connection made before it.
// A listener takes connections in the order they were made: what a step
// that has ended connected, or a proxy that has answered it, was taken
// before the test's own and is in received once settle returns.
func (d *door) settle(t *testing.T) {
	t.Helper()
	d.mu.Lock()
	d.asked++
	mine := fmt.Sprintf("%s%d\n", settleLine, d.asked)
	d.mu.Unlock()
	a := d.ln.Addr()
	c, err := net.Dial(a.Network(), a.String())
	if err != nil {
		t.Fatalf("connect to the listener at %s: %v", a, err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(mine)); err != nil {
		t.Fatalf("write to the listener at %s: %v", a, err)
	}
	testenv.Wait(t, "the listener at "+a.String()+" to take the test's own connection and every one before it", func() (bool, string) {
		d.mu.Lock()
		defer d.mu.Unlock()
		unread := 0
		for _, v := range d.visits {
			if v.read && v.line == mine {
				return unread == 0, fmt.Sprintf("%d connections before the test's own not read yet", unread)
			}
			if !v.read {
				unread++
			}
		}
		return false, fmt.Sprintf("%d connections taken (%d not read yet), not the test's own", len(d.visits), unread)
	})
}

// received is the first line of each connection the door has read, but
// the test's own.
func (d *door) received() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, v := range d.visits {
		if v.read && !strings.HasPrefix(v.line, settleLine) {
			out = append(out, v.line)
		}
	}
	return out
}

// reached settles each door, and names each that received a connection
// of someone else's than the test.
func reached(t *testing.T, doors ...*door) []string {
	t.Helper()
	var out []string
	for _, d := range doors {
		if d.settle(t); len(d.received()) > 0 {
			out = append(out, d.ln.Addr().String())
		}
	}
	return out
}
