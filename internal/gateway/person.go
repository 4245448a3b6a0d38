package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"time"

	"github.com/sayso-dev/sayso/internal/paths"
	"github.com/sayso-dev/sayso/internal/unixsock"
)

// The person's socket is the channel of the person's own CLI to sayso
// serve, apart from the hooks' socket: 'sayso login' asks it for a
// one-time link to the page. It lives in the state folder, 0600, which the
// wall hides from every walled step; and it answers only a caller the
// kernel names as this user in this process's user namespace.

// PersonSocket is where sayso serve listens for the person's CLI.
func PersonSocket() (string, error) {
	dir, err := paths.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "person.sock"), nil
}

// ServePerson answers the person's CLI on ln until ctx is done: "login"
// gets a fresh one-time link from login, "enrol" one to enrol a passkey
// from enrol.
func ServePerson(ctx context.Context, ln net.Listener, login, enrol func() string) error {
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		conn, err := nextConn(ctx, ln, "on the person's socket")
		if conn == nil {
			return err
		}
		go servePerson(conn, login, enrol)
	}
}

func servePerson(conn net.Conn, login, enrol func() string) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(conn, 64)).ReadString('\n')
	if err != nil {
		return
	}
	p, err := peerOf(conn)
	why := ""
	switch {
	case err != nil:
		why = err.Error()
	default:
		why = p.sameUser()
	}
	if why != "" {
		slog.Warn("person's socket: refused", "pid", p.PID, "why", why)
		fmt.Fprintf(conn, "refused: %s\n", why)
		return
	}
	switch strings.TrimSpace(line) {
	case "login":
		fmt.Fprintf(conn, "%s\n", login())
	case "enrol":
		fmt.Fprintf(conn, "%s\n", enrol())
	default:
		fmt.Fprintf(conn, "refused: unknown request\n")
	}
}

// AskLogin asks sayso serve on the person's socket for a one-time login
// link.
func AskLogin(socket string) (string, error) { return ask(socket, "login") }

// AskEnrol asks sayso serve on the person's socket for a one-time link
// to enrol a passkey on this node.
func AskEnrol(socket string) (string, error) { return ask(socket, "enrol") }

func ask(socket, what string) (string, error) {
	conn, err := unixsock.Dial("unix", socket, 500*time.Millisecond)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(conn, what+"\n"); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(io.LimitReader(conn, 4096)).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("read sayso serve's answer: %w", err)
	}
	line = strings.TrimSpace(line)
	if why, ok := strings.CutPrefix(line, "refused: "); ok {
		return "", errors.New("sayso serve refused: " + why)
	}
	if !strings.HasPrefix(line, "http://") {
		return "", fmt.Errorf("sayso serve answered %q", line)
	}
	return line, nil
}
