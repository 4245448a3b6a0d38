// Command fakemodel serves the scripted model of sayso's end-to-end tests
// on 127.0.0.1, to try sayso with a real client and no account: every
// conversation asks to run the commands given as arguments, one after the
// other (the next once the client sends the last one's result back), then
// ends its turn with "DONE".
//
//	go run ./e2e/fakemodel 'ls' 'git push origin main'
//
// It prints the line that points Claude Code at it, and each tool result
// the client sends back, until it is stopped with Ctrl-C.
package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/sayso-dev/sayso/e2e"
)

const usage = `usage: fakemodel COMMAND...

Serves a scripted model on 127.0.0.1 that asks, in every conversation,
to run each COMMAND in turn.
`

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	os.Exit(serve(os.Args[1:], os.Stdout, os.Stderr, stop))
}

func serve(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var calls []e2e.Call
	for _, c := range args {
		calls = append(calls, e2e.Call{Command: c})
	}
	f := e2e.NewFake(calls...)
	defer f.Close()
	var seen atomic.Int64
	f.OnResult(func(r string) {
		fmt.Fprintf(stdout, "tool result %d: %s\n", seen.Add(1), shorten(r))
	})
	fmt.Fprintf(stdout, "fake model on %s; each conversation asks to run, in turn:\n", f.URL)
	for _, c := range args {
		fmt.Fprintf(stdout, "  %s\n", c)
	}
	fmt.Fprintf(stdout, "\nPoint Claude Code at it (in a git project, after 'sayso install claude'):\n\n")
	fmt.Fprintf(stdout, "  ANTHROPIC_BASE_URL=%s ANTHROPIC_API_KEY=sk-ant-try CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 claude -p 'do the task'\n\n", f.URL)
	<-stop
	return 0
}

func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}
