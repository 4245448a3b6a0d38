package e2e

import "github.com/sayso-dev/sayso/internal/client/fakemodel"

// The tests script the fake model by these short names.
type (
	Call = fakemodel.Call
	Fake = fakemodel.Fake
)

const SubagentMark = fakemodel.SubagentMark

var NewFake = fakemodel.NewFake
