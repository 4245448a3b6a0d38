// Deletions no undo brings back: a namespace, a cluster, a database, a
// bucket, the infrastructure a tool manages.

package risk

// lasting records a deletion of something whole and shared — a namespace,
// a cluster, a database, a bucket, a stack of infrastructure — as severe,
// the way a force-push is: it destroys, and it changes what runs as a
// deploy does, so it carries both classes. Deploy is severe, so the card
// offers no "always" for it; and with two ceilings in one step no lease of
// either category covers it: the person answers each one.
func (c *cmd) lasting(r Reason) {
	c.add(Deploy, r)
	c.add(Destructive, r)
}
