package risk

import (
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
)

// saysoFamily: sayso's own programs (program.Sayso).
func saysoFamily() family {
	return family{names: program.Sayso, classify: saysoOwn}
}

// saysoOwn classifies sayso's CLI by its verb and the other programs as
// the client's alone.
func saysoOwn(c *cmd) {
	if c.name == "sayso" {
		sayso(c)
		return
	}
	saysoProgram(c)
}

// sayso: an agent may ask sayso to explain; everything that answers,
// grants, forgets or changes settings is the person's alone.
func sayso(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[0] == "check" || ws[0] == "version" || ws[0] == "help" || ws[0] == "autopilot" || ws[0] == "--version" || ws[0] == "--help" || ws[0] == "":
		c.add(Read, ChangesNothing.By("sayso", ws[0], ""))
	case ws[0] == "rule" && (ws[1] == "match" || ws[1] == "offer"):
		c.add(Read, ChangesNothing.By("sayso rule", ws[1], ""))
	default:
		c.add(Protected, PersonsCommand.By("sayso", strings.TrimSpace(ws[0]+" "+ws[1]), ""))
	}
}

// saysoProgram is one of the programs sayso installs beside its CLI (the
// hook's forwarder, the wall's launcher): the client runs them, never an
// agent's step.
func saysoProgram(c *cmd) {
	c.add(Protected, TouchesProtected.By(c.name, "", ""))
}
