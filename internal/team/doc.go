// Package team is a node's side of team mode: it ships the node's chained
// ledger rows to the hub. The node keeps deciding on its own store; the
// shipper runs beside the gateway and never in a hook's path, so a hook
// never waits on the network.
package team
