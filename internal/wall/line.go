package wall

import "strings"

// Line is the plain line that runs command under the launcher, for a
// client that starts a new shell for every step (most do): the
// same output, input and exit status, and no working folder to carry
// back. It holds no command substitution, which a client may refuse in a
// rewritten command.
func (p Profile) Line(command, launcher string) string {
	var b strings.Builder
	b.WriteString(quote(launcher))
	for _, f := range p.Flags() {
		b.WriteByte(' ')
		b.WriteString(quote(f))
	}
	b.WriteString(" -- ")
	b.WriteString(quote(command))
	return b.String()
}
