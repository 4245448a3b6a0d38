package wall

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
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
// for TLS and anything else tunnelled, a plain request for http URLs.
func (e *Egress) Serve(ln net.Listener) error {
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 30 * time.Second}
	err := srv.Serve(ln)
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// refuse answers a request for a host the step may not reach.
func (e *Egress) refuse(w http.ResponseWriter, host string) {
	if e.Refused != nil {
		e.Refused(host)
	}
	http.Error(w, "sayso: "+host+" is not a host this step may reach: the decision let it reach "+e.reach(), http.StatusForbidden)
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
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	ip := ips[0].IP
	if (ip.IsLoopback() || ip.IsUnspecified()) && net.ParseIP(strings.Trim(host, "[]")) == nil && host != "localhost" {
		return nil, fmt.Errorf("%s leads to this machine's loopback (%s)", host, ip)
	}
	target := net.JoinHostPort(ip.String(), port)
	if e.Dial != nil {
		return e.Dial(ctx, "tcp", target)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", target)
}

func (e *Egress) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		e.tunnel(w, r)
		return
	}
	if r.URL.Scheme != "http" || r.URL.Host == "" {
		http.Error(w, "sayso: the egress proxy takes CONNECT and http:// URLs only", http.StatusBadRequest)
		return
	}
	host := r.URL.Hostname()
	if !e.Allows(host) {
		e.refuse(w, host)
		return
	}
	port := r.URL.Port()
	if port == "" {
		port = "80"
	}
	up, err := e.dial(r.Context(), net.JoinHostPort(host, port))
	if err != nil {
		http.Error(w, "sayso: reach "+host+": "+err.Error(), http.StatusBadGateway)
		return
	}
	defer up.Close()
	out := r.Clone(r.Context())
	out.RequestURI = ""
	out.Header.Del("Proxy-Connection")
	out.Header.Del("Proxy-Authorization")
	out.Close = true
	if err := out.Write(up); err != nil {
		http.Error(w, "sayso: send to "+host+": "+err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(up), out)
	if err != nil {
		http.Error(w, "sayso: answer from "+host+": "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// tunnel answers CONNECT host:port: a byte stream to the host, when the
// step may reach it.
func (e *Egress) tunnel(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		http.Error(w, "sayso: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	if !e.Allows(host) {
		e.refuse(w, host)
		return
	}
	up, err := e.dial(r.Context(), net.JoinHostPort(host, port))
	if err != nil {
		http.Error(w, "sayso: reach "+r.Host+": "+err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "sayso: cannot tunnel", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		up.Close()
		down.Close()
		return
	}
	// What the client sent after its request is already buffered.
	if n := buf.Reader.Buffered(); n > 0 {
		b, _ := buf.Reader.Peek(n)
		up.Write(b)
	}
	splice(down, up)
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
