// The families whose classifier is a class alone: programs that only
// read, and programs that run what sayso does not read.

package risk

func readOnlyFamily() family {
	return family{names: []string{"kafka-console-consumer.sh", "pg_isready", "kafka-console-consumer", "stern", "watch"}, classify: readOnly}
}

func readOnly(c *cmd) { c.add(Read, OnlyReads.By(c.name, "", "")) }

func opaqueProgramFamily() family {
	return family{names: []string{"hurl", "lazygit", "lazydocker", "ranger", "broot", "wine", "coproc"}, classify: opaqueProgram}
}

func opaqueProgram(c *cmd) { c.add(Opaque, RunsUnread.By(c.name, "", "")) }

// word returns the first n operands as plain words (options skipped).
func (c *cmd) verb() string { return c.words(1)[0] }
