package wall

import (
	"encoding/json"
	"time"

	"github.com/sayso-dev/sayso/internal/unixsock"
)

// ReportAgent is the name the wall's reports go to sayso serve under, on
// the hooks' socket.
const ReportAgent = "sayso-wall"

// Refusal is the wall's report of a connection it refused a step.
type Refusal struct {
	Session string `json:"session,omitempty"` // the client's session
	Host    string `json:"host"`
	Step    string `json:"step"` // the step's command
	Cwd     string `json:"cwd,omitempty"`
}

// Report sends r to sayso serve's ledger at socket, as the hooks' requests
// go; a gateway that is not there loses nothing the step needs.
func Report(socket string, r Refusal) {
	if socket == "" {
		return
	}
	in, err := json.Marshal(r)
	if err != nil {
		return
	}
	c, err := unixsock.Dial("unix", socket, time.Second)
	if err != nil {
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Second))
	if err := json.NewEncoder(c).Encode(map[string]any{"agent": ReportAgent, "input": in}); err != nil {
		return
	}
	var reply json.RawMessage
	json.NewDecoder(c).Decode(&reply)
}
