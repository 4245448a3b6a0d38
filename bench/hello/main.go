// Command hello is the floor a hook is measured against: a Go program that
// reads its stdin and prints a fixed answer, nothing else.
package main

import (
	"io"
	"os"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
	os.Stdout.WriteString("hello\n")
}
