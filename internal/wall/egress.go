package wall

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Egress is the proxy a walled step's traffic leaves through. The step
// has a network of its own with nothing but its loopback; the proxy
// listens there (the holder hands it the listener) and runs outside
// every wall, where it reaches exactly Hosts: the hosts the decision let
// this step reach. Anything else is refused, and Refused says so.
type Egress struct {
	Hosts []string // host names (a "*." prefix takes every name below), or addresses
	// Refused is told of each connection refused, with the host asked
	// for; it may be nil.
	Refused func(host string)
	Dial    func(ctx context.Context, network, addr string) (net.Conn, error) // nil: net.Dialer
	Lookup  func(ctx context.Context, host string) ([]net.IPAddr, error)      // nil: net.DefaultResolver
}

// EgressVars are the environment variables that point a step's tools at
// the egress proxy on port: HTTP, HTTPS and everything curl calls ALL,
// and never for the step's own loopback (a dev server it started).
func EgressVars(port int) []string {
	u := "http://127.0.0.1:" + strconv.Itoa(port)
	const local = "localhost,127.0.0.1,::1"
	return []string{
		"HTTP_PROXY=" + u, "HTTPS_PROXY=" + u, "ALL_PROXY=" + u,
		"http_proxy=" + u, "https_proxy=" + u, "all_proxy=" + u,
		"NO_PROXY=" + local, "no_proxy=" + local,
	}
}

// isEgressVar reports whether the environment variable name points tools
// at a proxy: the step's own values would bypass the wall's proxy or
// point it at another.
func isEgressVar(name string) bool {
	switch strings.ToLower(name) {
	case "http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy":
		return true
	}
	return false
}

// Allows reports whether host (a name or an address, without port) is one
// the step may reach.
func (e *Egress) Allows(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "" {
		return false
	}
	for _, h := range e.Hosts {
		h = strings.ToLower(h)
		if host == h || strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true
		}
	}
	return false
}

// Serve answers the proxy's clients on ln until it is closed: CONNECT
// for TLS and anything else tunnelled, a plain request for http URLs. It
// speaks only what a proxy must (the launcher starts on every step, and
// carries no HTTP server).
func (e *Egress) Serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go e.serve(c)
	}
}

// serve answers one client connection: its first request decides where
// the connection goes, and from then on the bytes flow both ways.
func (e *Egress) serve(c net.Conn) {
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		c.Close()
		return
	}
	head, err := tp.ReadMIMEHeader()
	if err != nil {
		answer(c, 400, "a bad request")
		return
	}
	c.SetReadDeadline(time.Time{})
	method, target, proto, ok := requestLine(line)
	if !ok {
		answer(c, 400, "a bad request line")
		return
	}
	var host, port string
	if method == "CONNECT" {
		host, port, err = net.SplitHostPort(target)
		if err != nil || port == "" {
			answer(c, 400, "CONNECT needs host:port")
			return
		}
	} else {
		u, err := url.Parse(target)
		if err != nil || u.Scheme != "http" || u.Host == "" {
			answer(c, 400, "the egress proxy takes CONNECT and http:// URLs only")
			return
		}
		host, port = u.Hostname(), u.Port()
		if port == "" {
			port = "80"
		}
		target = u.RequestURI()
	}
	if !e.Allows(host) {
		if e.Refused != nil {
			e.Refused(host)
		}
		answer(c, 403, host+" is not a host this step may reach: the decision let it reach "+e.reach())
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	up, err := e.dial(ctx, net.JoinHostPort(host, port))
	cancel()
	if err != nil {
		answer(c, 502, "reach "+host+": "+err.Error())
		return
	}
	if method == "CONNECT" {
		if _, err := c.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
			up.Close()
			c.Close()
			return
		}
	} else {
		// The request goes on in origin form, without what was the
		// proxy's alone.
		var b strings.Builder
		b.WriteString(method + " " + target + " " + proto + "\r\n")
		for k, vs := range head {
			if k == "Proxy-Connection" || k == "Proxy-Authorization" {
				continue
			}
			for _, v := range vs {
				b.WriteString(k + ": " + v + "\r\n")
			}
		}
		b.WriteString("\r\n")
		if _, err := up.Write([]byte(b.String())); err != nil {
			up.Close()
			answer(c, 502, "send to "+host+": "+err.Error())
			return
		}
	}
	// What the client sent after its request is already read.
	if n := br.Buffered(); n > 0 {
		b, _ := br.Peek(n)
		up.Write(b)
	}
	splice(c, up)
}

// requestLine splits "METHOD TARGET HTTP/1.x".
func requestLine(line string) (method, target, proto string, ok bool) {
	f := strings.Fields(line)
	if len(f) != 3 || !strings.HasPrefix(f[2], "HTTP/1.") {
		return "", "", "", false
	}
	return f[0], f[1], f[2], true
}

// answer ends a client's connection with status and a line saying why.
func answer(c net.Conn, status int, why string) {
	text := map[int]string{400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
	body := "sayso: " + why + "\n"
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", status, text, len(body), body)
	c.Close()
}

func (e *Egress) reach() string {
	if len(e.Hosts) == 0 {
		return "no host"
	}
	return strings.Join(e.Hosts, ", ")
}

// dial reaches addr from outside the wall. A name that leads to this
// machine's loopback is refused unless the step was let reach the
// loopback by that very name or address: the host's own services (sayso's
// gateway first) are not a registry's.
func (e *Egress) dial(ctx context.Context, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	lookup := e.Lookup
	if lookup == nil {
		lookup = net.DefaultResolver.LookupIPAddr
	}
	ips, err := lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	ip := ips[0].IP
	if ip.IsUnspecified() {
		// A connect to 0.0.0.0 or :: reaches this machine's loopback: no
		// one names the loopback so.
		return nil, fmt.Errorf("%s is no host to reach (%s leads to this machine's loopback)", host, ip)
	}
	named := net.ParseIP(strings.Trim(host, "[]")) == nil
	if ip.IsLoopback() && named && host != "localhost" {
		return nil, fmt.Errorf("%s leads to this machine's loopback (%s)", host, ip)
	}
	if linkLocal(ip) && named {
		// A cloud's metadata service answers there with the machine's
		// own credentials: no registry lives there.
		return nil, fmt.Errorf("%s leads to a link-local or metadata address (%s), where a cloud's metadata service answers", host, ip)
	}
	if !ip.IsLoopback() && ownAddress(ip) {
		// Every service listening on all of the machine's addresses
		// answers there, as on the loopback; the policy leaves the
		// loopback's spellings out of the trusted hosts, not these.
		return nil, fmt.Errorf("%s is this machine's own address (%s): its services are not a registry's", host, ip)
	}
	target := net.JoinHostPort(ip.String(), port)
	if e.Dial != nil {
		return e.Dial(ctx, "tcp", target)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", target)
}

// linkLocal reports whether ip is a link-local address or a cloud's
// metadata service's, however spelled: 169.254/16 and fe80::/10, EC2's
// IPv6 one, the services that are not link-local (Alibaba's, Oracle's,
// Azure's wire server), and each of these IPv4 ones inside an IPv6
// address — mapped, compatible (::/96), NAT64's (64:ff9b::/96), 6to4's
// (2002::/16).
func linkLocal(ip net.IP) bool {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return false
	}
	a = a.Unmap()
	if a.Is6() {
		b := a.As16()
		switch {
		case a == netip.MustParseAddr("fd00:ec2::254"):
			return true
		case nat64.Contains(a), compatible.Contains(a):
			a = netip.AddrFrom4([4]byte(b[12:16]))
		case sixToFour.Contains(a):
			a = netip.AddrFrom4([4]byte(b[2:6]))
		}
	}
	return a.IsLinkLocalUnicast() || slices.Contains(metadata, a)
}

var (
	nat64      = netip.MustParsePrefix("64:ff9b::/96")
	compatible = netip.MustParsePrefix("::/96")
	sixToFour  = netip.MustParsePrefix("2002::/16")
	// metadata are the clouds' metadata services outside 169.254/16.
	metadata = []netip.Addr{
		netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
		netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud
		netip.MustParseAddr("168.63.129.16"),   // Azure's wire server
	}
)

// ownAddress reports whether ip is an address of one of this machine's
// interfaces; when they cannot be listed, every address counts as one.
func ownAddress(ip net.IP) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return true
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// splice copies both ways until either side ends, then closes both.
func splice(a, b net.Conn) {
	var wg sync.WaitGroup
	wg.Add(2)
	half := func(dst, src net.Conn) {
		defer wg.Done()
		io.Copy(dst, src)
		if c, ok := dst.(interface{ CloseWrite() error }); ok {
			c.CloseWrite()
		} else {
			dst.Close()
		}
	}
	go half(a, b)
	go half(b, a)
	wg.Wait()
	a.Close()
	b.Close()
}

// refusal is the line a refused connection leaves on the step's error
// output.
func refusal(host string, hosts []string) string {
	reach := "no host"
	if len(hosts) > 0 {
		reach = strings.Join(hosts, ", ")
	}
	return fmt.Sprintf("sayso-wall: refused a connection to %s: this step may reach %s\n", host, reach)
}
