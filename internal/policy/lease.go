package policy

import "github.com/sayso-dev/sayso/internal/risk"

// Leasable are the categories a lease may be granted for.
var Leasable = risk.Of(risk.RemoteWrite, risk.Merge, risk.ForceRemote, risk.Publish, risk.Deploy,
	risk.Destructive, risk.ContainerRemove, risk.Privilege, risk.NewRemote)

// coveringLease returns the index of the live lease that covers a step
// whose ceilings are ceilings, or -1. A lease covers one category: every
// ceiling of the step must be that category, and the lease must be bound
// to this session, turn, epoch and exact cwd, unexpired and unconsumed.
func coveringLease(req *Request, ceilings risk.Set) int {
	if ceilings.Empty() || ceilings.Len() != 1 || ceilings&Leasable != ceilings {
		return -1
	}
	cat := ceilings.Top()
	cwd := req.Context.Cwd
	if cwd == "" {
		cwd = req.Context.Root
	}
	s := &req.Session
	for i, l := range req.Leases {
		switch {
		case l.Consumed, l.Category != cat, l.Session == "" || l.Session != s.ID, l.Turn != s.Turn,
			l.Epoch != s.Epoch, l.Cwd == "" || l.Cwd != cwd, req.Now.IsZero() || !req.Now.Before(l.Expires):
			continue
		}
		return i
	}
	return -1
}
