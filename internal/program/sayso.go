package program

import "strings"

// Sayso are the programs sayso installs, by name: the CLI and hook, the
// hook's forwarder, the wall's launcher. This is the one list: risk
// protects them by name, paths finds them beside the running binary.
var Sayso = []string{"sayso", "sayso-hook", "sayso-wall"}

// sayso registers sayso's own programs; risk's sayso family
// (risk/sayso.go) classifies them.
func (r builder) sayso() { r.add(0, strings.Join(Sayso, " ")) }
