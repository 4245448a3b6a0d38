package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/sayso-dev/sayso/internal/store"
)

const noteUsage = `usage: sayso note set [FILE]
       sayso note show

The environment note is your own free text about where you work: your
hosts, remotes, buckets, what "production" means here. The reviewer reads
it as data, never as a rule. set reads it from FILE, or from standard
input when FILE is missing or "-", and keeps it as typed; at most 2000
characters. An empty note clears it.
`

func init() {
	register(command{"note", "set or show the environment note", runNote, noteUsage}, "set", "show")
}

func runNote(env *Env, args []string) error {
	if len(args) == 0 {
		return usagef("note: no verb given (set or show)")
	}
	switch args[0] {
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, noteUsage)
		return nil
	case "show":
		if len(args) != 1 {
			return usagef("note show: takes no arguments")
		}
		return withStore(func(ctx context.Context, db *store.DB) error {
			note, err := db.Note(ctx)
			if err != nil {
				return err
			}
			fmt.Fprint(env.Stdout, note)
			if note != "" && note[len(note)-1] != '\n' {
				fmt.Fprintln(env.Stdout)
			}
			return nil
		})
	case "set":
		if len(args) > 2 {
			return usagef("note set: want at most one file")
		}
		var r io.Reader = env.Stdin
		if len(args) == 2 && args[1] != "-" {
			f, err := os.Open(args[1])
			if err != nil {
				return fmt.Errorf("read note: %w", err)
			}
			defer f.Close()
			r = f
		}
		if r == nil {
			return usagef("note set: no file and no standard input")
		}
		b, err := io.ReadAll(io.LimitReader(r, 64<<10))
		if err != nil {
			return fmt.Errorf("read note: %w", err)
		}
		return withStore(func(ctx context.Context, db *store.DB) error {
			if err := db.SetNote(ctx, string(b)); err != nil {
				if errors.Is(err, store.ErrNoteTooLong) {
					return fmt.Errorf("%v: shorten it, nothing was changed", err)
				}
				return err
			}
			fmt.Fprintf(env.Stdout, "environment note set (%d characters)\n", len([]rune(string(b))))
			return nil
		})
	}
	return usagef("note: unknown verb %q (want set or show)", args[0])
}
