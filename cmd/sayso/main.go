// Command sayso gates the tool calls of AI coding agents.
package main

import (
	"os"

	"github.com/sayso-dev/sayso/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}))
}
