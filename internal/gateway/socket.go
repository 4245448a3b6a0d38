package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/sayso-dev/sayso/internal/client/hookenv"
	"github.com/sayso-dev/sayso/internal/hook"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// ForwardEnv are the variables of the hook's process the adapters read;
// the hook hands them over with its input.
var ForwardEnv = hookenv.Names

// Request is what a hook sends over the socket: its client, the hook JSON
// exactly as read, and the variables the adapters read.
type Request struct {
	Agent string            `json:"agent"`
	Input []byte            `json:"input"`
	Env   map[string]string `json:"env"`
	Home  string            `json:"home"`
	// Peer is the process that sent the request, as the kernel tells it
	// (SO_PEERCRED); never read from the request itself.
	Peer int `json:"-"`
	// PeerFD is a pidfd of that process (SO_PEERPIDFD), -1 where the
	// kernel gives none: it tells whether Peer still names it.
	PeerFD int `json:"-"`
}

// Reply is the client's answer, ready to print.
type Reply struct {
	Stdout []byte `json:"stdout"`
	Stderr string `json:"stderr,omitempty"`
	Exit   int    `json:"exit"`
}

// Handle answers one hook request: the adapter reads it, the decider
// decides, and the events and any error are kept.
type Handle func(ctx context.Context, r Request) Reply

// ServeSocket answers hook requests on ln until ctx is done, then waits
// (a few seconds at most) for the hooks it is answering: each one's card
// is cancelled and its expiry recorded while the store is still open.
func ServeSocket(ctx context.Context, ln net.Listener, handle Handle) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	var wg sync.WaitGroup
	defer func() {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}()
	for {
		conn, err := nextConn(ctx, ln, "hook")
		if conn == nil {
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop := context.AfterFunc(ctx, func() { _ = conn.SetReadDeadline(time.Now()) })
			defer stop()
			serveConn(ctx, conn, handle)
		}()
	}
}

func serveConn(ctx context.Context, conn net.Conn, handle Handle) {
	defer conn.Close()
	var r Request
	if err := json.NewDecoder(io.LimitReader(conn, 2*hook.MaxInput)).Decode(&r); err != nil {
		return // the hook falls back to deciding on its own, or denies
	}
	r.Peer = peerPID(conn)
	r.PeerFD = peerPidfd(conn)
	if r.PeerFD > 0 {
		defer syscall.Close(r.PeerFD)
	}
	// The hook sends one request and then only waits: its connection
	// closing (the client timed it out, killed it, or it gave up) ends
	// the request, and with it any card it waits on. The gateway
	// stopping does not: the decision under way finishes and is kept,
	// and a card it waits on ends as the gateway stopping (Cards.stop).
	stopping := ctx
	ctx, cancel := context.WithCancelCause(context.WithValue(context.WithoutCancel(ctx), arrivedKey{}, time.Now()))
	defer cancel(nil)
	go func() {
		var b [64]byte
		for {
			n, err := conn.Read(b[:])
			if errors.Is(err, os.ErrDeadlineExceeded) && stopping.Err() != nil {
				return // the gateway stops, not the hook
			}
			if err != nil || len(bytes.TrimSpace(b[:n])) > 0 {
				cancel(errHookLeft) // gone, or speaking out of turn
				return
			}
		}
	}()
	reply := handle(ctx, r)
	_ = json.NewEncoder(conn).Encode(reply)
}

// Ask sends a hook request to sayso serve and returns its reply. An error
// means the gateway is not there (or went away): the hook decides alone.
func Ask(socket string, r Request, wait time.Duration) (Reply, error) {
	conn, err := unixsock.Dial("unix", socket, 500*time.Millisecond)
	if err != nil {
		return Reply{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(wait))
	w := bufio.NewWriter(conn)
	if err := json.NewEncoder(w).Encode(r); err != nil {
		return Reply{}, err
	}
	if err := w.Flush(); err != nil {
		return Reply{}, err
	}
	var reply Reply
	if err := json.NewDecoder(conn).Decode(&reply); err != nil {
		return Reply{}, fmt.Errorf("read the gateway's answer: %w", err)
	}
	return reply, nil
}

// Listen makes the socket, 0600, replacing a stale one.
func Listen(socket string) (net.Listener, error) {
	if c, err := unixsock.Dial("unix", socket, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, fmt.Errorf("another sayso serve answers on %s", socket)
	}
	_ = os.Remove(socket)
	old := umask(0o177)
	ln, err := unixsock.Listen("unix", socket)
	umask(old)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", socket, err)
	}
	if err := os.Chmod(socket, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// peerPID is the process at the other end of a unix socket, 0 when the
// kernel does not say.
func peerPID(conn net.Conn) int {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return 0
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0
	}
	pid := 0
	_ = raw.Control(func(fd uintptr) {
		if cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil {
			pid = int(cred.Pid)
		}
	})
	return pid
}

// nextConn accepts the next connection on ln, past timeouts; it returns
// no connection and no error once ctx is done.
func nextConn(ctx context.Context, ln net.Listener, what string) (net.Conn, error) {
	for {
		conn, err := ln.Accept()
		if err == nil {
			return conn, nil
		}
		if ctx.Err() != nil {
			return nil, nil
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			continue
		}
		return nil, fmt.Errorf("accept %s: %w", what, err)
	}
}
