package wall

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// otherAgents are the folders where ssh-agent and sshd keep the person's
// other agents' sockets (/tmp/ssh-XXXXXXXXXX/agent.PID, under $TMPDIR
// when set): an agent started in another terminal, or forwarded into
// another login, that the client's SSH_AUTH_SOCK does not name. Each
// folder of the user's that holds an agent.* socket is hidden: a step
// that finds one by its place would have it sign.
func otherAgents() []string {
	return otherAgentsIn(os.Getenv("TMPDIR"))
}

// otherAgentsIn are otherAgents for a step whose $TMPDIR is tmpdir.
func otherAgentsIn(tmpdir string) []string {
	temps := []string{"/tmp"}
	if d := tmpdir; strings.HasPrefix(d, "/") && filepath.Clean(d) != "/tmp" {
		temps = append(temps, filepath.Clean(d))
	}
	uid := uint32(os.Getuid())
	var out []string
	for _, t := range temps {
		dirs, _ := filepath.Glob(filepath.Join(t, "ssh-*"))
		for _, d := range dirs {
			fi, err := os.Lstat(d)
			if err != nil || !fi.IsDir() {
				continue
			}
			if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Uid != uid {
				continue // another user's: the kernel keeps it from this one
			}
			socks, _ := filepath.Glob(filepath.Join(d, "agent.*"))
			if len(socks) > 0 {
				out = append(out, d)
			}
		}
	}
	return out
}
