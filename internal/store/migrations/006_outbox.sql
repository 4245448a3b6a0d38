-- Team mode: once the node has joined a hub, each ledger row is chained
-- into the outbox in the transaction that writes it (hash = sha256(prev ||
-- body), prev the row before's hash), and the shipper sends the rows to
-- the hub in order. Leaving stops the chaining; nothing is lost.
CREATE TABLE team_outbox (
	seq       INTEGER PRIMARY KEY,     -- 1, 2, … in the node's chain
	ledger_id INTEGER NOT NULL UNIQUE REFERENCES ledger(id),
	body      BLOB NOT NULL,           -- the ledger row, as JSON: what is hashed
	prev      BLOB NOT NULL,
	hash      BLOB NOT NULL,
	shipped   INTEGER NOT NULL DEFAULT 0 -- 1 once the hub holds it
);
CREATE INDEX team_outbox_unshipped ON team_outbox(seq) WHERE shipped = 0;
CREATE TRIGGER team_outbox_no_edit BEFORE UPDATE OF seq, ledger_id, body, prev, hash ON team_outbox
BEGIN
	SELECT RAISE(ABORT, 'the outbox is append-only');
END;
CREATE TRIGGER team_outbox_no_delete BEFORE DELETE ON team_outbox
BEGIN
	SELECT RAISE(ABORT, 'the outbox is append-only');
END;
-- One row while the node is in a team: its ledger rows are chained.
CREATE TABLE team_chain (
	one INTEGER PRIMARY KEY CHECK (one = 1)
);
