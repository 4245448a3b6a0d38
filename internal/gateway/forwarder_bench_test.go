package gateway

import (
	"os"
	"testing"
)

// BenchmarkForwardersCheck is the pin check a connection to the hooks'
// socket pays once the binary's hash is cached: open /proc/PID/exe, fstat,
// a map lookup.
//
//	go test -run '^$' -bench ForwardersCheck -benchtime 2s ./internal/gateway
func BenchmarkForwardersCheck(b *testing.B) {
	f := &Forwarders{}
	if err := f.Check(os.Getpid(), -1); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := f.Check(os.Getpid(), -1); err != nil {
			b.Fatal(err)
		}
	}
}
