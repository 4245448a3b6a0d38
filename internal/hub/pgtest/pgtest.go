// Package pgtest starts a real PostgreSQL for a test binary: Debian's
// initdb and postgres in a scratch folder, listening only on a unix socket
// in that folder, as a normal user. Each test gets a database of its own.
// Where PostgreSQL cannot be started the test skips, or fails in CI
// (SAYSO_CI=1).
package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sayso-dev/sayso/internal/testenv"
)

// Server is one running PostgreSQL.
type Server struct {
	dir    string   // the scratch folder: data/ and the socket
	as     []string // runuser prefix when started as root
	cmd    *exec.Cmd
	done   chan struct{}
	broken error // why it could not start
	n      atomic.Int64
}

// Superuser is the role initdb makes: the one tests connect as.
const Superuser = "sayso"

var (
	shared     *Server
	sharedOnce sync.Once
)

// Main runs a package's tests with one PostgreSQL shared by all of them,
// stopped at the end: call it from TestMain.
func Main(m interface{ Run() int }) int {
	code := m.Run()
	if shared != nil {
		shared.Stop()
	}
	return code
}

// Shared is the package's server, started on first use.
func Shared() *Server {
	sharedOnce.Do(func() { shared = Start() })
	return shared
}

// bin finds a PostgreSQL program: on PATH, else in Debian's folder.
func bin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) == 0 {
		return "", fmt.Errorf("%s not found (install Debian's postgresql)", name)
	}
	return matches[len(matches)-1], nil
}

// Start initializes a cluster in a scratch folder and starts postgres on a
// unix socket there. PostgreSQL refuses to run as root: as root it runs as
// the user postgres (made by Debian's package) or SAYSO_PG_USER.
func Start() *Server {
	s := &Server{done: make(chan struct{})}
	initdb, err := bin("initdb")
	if err != nil {
		s.broken = err
		return s
	}
	postgres, err := bin("postgres")
	if err != nil {
		s.broken = err
		return s
	}
	dir, err := os.MkdirTemp("", "sayso-pg-")
	if err != nil {
		s.broken = err
		return s
	}
	s.dir = dir
	var as []string
	if os.Getuid() == 0 {
		name := os.Getenv("SAYSO_PG_USER")
		if name == "" {
			name = "postgres"
		}
		u, err := user.Lookup(name)
		if err != nil {
			s.broken = fmt.Errorf("running as root, and there is no user %s to run postgres as: %w", name, err)
			return s
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			s.broken = err
			return s
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			s.broken = err
			return s
		}
		as = []string{"runuser", "-u", name, "--"}
		s.as = as
	}
	data := filepath.Join(dir, "data")
	args := append(append([]string(nil), as...), initdb, "-D", data, "-U", Superuser, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		s.broken = fmt.Errorf("initdb: %v: %s", err, out)
		return s
	}
	args = append(append([]string(nil), as...), postgres, "-D", data, "-k", dir, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200")
	s.cmd = exec.Command(args[0], args[1:]...)
	log, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		s.broken = err
		return s
	}
	s.cmd.Stdout, s.cmd.Stderr = log, log
	if err := s.cmd.Start(); err != nil {
		s.broken = fmt.Errorf("start postgres: %w", err)
		return s
	}
	go func() { s.cmd.Wait(); log.Close(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), s.DSN("postgres"))
		if err == nil {
			conn.Close(context.Background())
			return s
		}
		select {
		case <-s.done:
			b, _ := os.ReadFile(filepath.Join(dir, "postgres.log"))
			s.broken = fmt.Errorf("postgres exited: %s", b)
			return s
		default:
		}
		if time.Now().After(deadline) {
			s.broken = fmt.Errorf("postgres did not accept connections within a minute: %v", err)
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// DSN is the connection string of database db as the superuser.
func (s *Server) DSN(db string) string {
	return fmt.Sprintf("host=%s user=%s dbname=%s sslmode=disable", s.dir, Superuser, db)
}

// Database makes a fresh database for t and returns its connection string.
func (s *Server) Database(t testing.TB) string {
	t.Helper()
	if s.broken != nil {
		testenv.Missing(t, "PostgreSQL: %v", s.broken)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.DSN("postgres"))
	if err != nil {
		t.Fatalf("connect to postgres: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("t%d_%s", s.n.Add(1), strings.ToLower(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, t.Name())))
	if len(name) > 60 {
		name = name[:60]
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	return s.DSN(name)
}

// Stop ends postgres and removes the scratch folder.
func (s *Server) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		// pg_ctl reaches postgres itself, not the runuser in front of it.
		if pgctl, err := bin("pg_ctl"); err == nil {
			args := append(append([]string(nil), s.as...), pgctl, "-D", filepath.Join(s.dir, "data"), "stop", "-m", "immediate")
			exec.Command(args[0], args[1:]...).Run()
		}
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
