package wall

import (
	"bufio"
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// TestEgressLoopback: the proxy never leads to a service on the host's
// loopback (sayso's gateway first) by an address the decision did not
// name as the loopback, however the address is spelt: 0.0.0.0 and :: (a
// connect to them reaches the loopback on Linux), the loopback's other
// spellings, and names that lead there. A host list may hold them: the
// project's remotes are trusted hosts, and one git remote add away.
// Judged by the listener: it must accept nothing.
func TestEgressLoopback(t *testing.T) {
	services := []*door{openDoor(t, "tcp4", "127.0.0.1:0")}
	port := strconv.Itoa(services[0].port)
	port6 := ""
	if ln, err := net.Listen("tcp6", "[::1]:0"); err == nil {
		ln.Close()
		services = append(services, openDoor(t, "tcp6", "[::1]:0"))
		port6 = strconv.Itoa(services[1].port)
	}
	hosts := []string{"0.0.0.0", "::", "0:0:0:0:0:0:0:0", "::ffff:0.0.0.0", "registry.npmjs.org"}
	e := &Egress{Hosts: hosts}
	pl, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pl.Close() })
	go e.Serve(pl)
	ask := func(req string) string {
		c, err := net.Dial("tcp4", pl.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(testenv.Hang))
		c.Write([]byte(req))
		line, _ := bufio.NewReader(c).ReadString('\n')
		return strings.TrimSpace(line)
	}
	var reqs []string
	for _, h := range []string{"0.0.0.0", "[::]", "[0:0:0:0:0:0:0:0]", "[::ffff:0.0.0.0]"} {
		for _, p := range []string{port, port6} {
			if p == "" {
				continue
			}
			reqs = append(reqs, "CONNECT "+h+":"+p+" HTTP/1.1\r\nHost: "+h+":"+p+"\r\n\r\n",
				"GET http://"+h+":"+p+"/ HTTP/1.1\r\nHost: "+h+":"+p+"\r\n\r\n")
		}
	}
	for _, req := range reqs {
		if line := ask(req); strings.Contains(line, " 200 ") {
			t.Errorf("%q: %s", strings.SplitN(req, "\r\n", 2)[0], line)
		}
	}
	// The proxy answered each request: what it connected to a service,
	// the service has taken.
	for _, a := range reached(t, services...) {
		t.Errorf("the host's loopback service at %s was reached through the proxy", a)
	}
}

// TestEgressLinkLocal: a name the step may reach that leads to a
// link-local address (a cloud's metadata service, 169.254.169.254) is
// refused, in both of the proxy's forms; nothing is dialled.
func TestEgressLinkLocal(t *testing.T) {
	dialled := make(chan string, 4)
	e := &Egress{
		Hosts: []string{"git.example.org"},
		Lookup: func(ctx context.Context, host string) ([]net.IPAddr, error) {
			if host == "git.example.org" {
				return []net.IPAddr{{IP: net.ParseIP("169.254.169.254")}}, nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialled <- addr
			return nil, &net.OpError{Op: "dial", Net: network, Err: net.UnknownNetworkError("test")}
		},
	}
	pl, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pl.Close() })
	go e.Serve(pl)
	for _, req := range []string{
		"CONNECT git.example.org:80 HTTP/1.1\r\nHost: git.example.org:80\r\n\r\n",
		"GET http://git.example.org/latest/meta-data/ HTTP/1.1\r\nHost: git.example.org\r\n\r\n",
	} {
		c, err := net.Dial("tcp4", pl.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(testenv.Hang))
		c.Write([]byte(req))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if strings.Contains(line, " 200 ") {
			t.Errorf("%q: %s", strings.SplitN(req, "\r\n", 2)[0], line)
		}
	}
	select {
	case a := <-dialled:
		t.Fatalf("the proxy dialled %s, a link-local address reached by name", a)
	default:
	}
}
