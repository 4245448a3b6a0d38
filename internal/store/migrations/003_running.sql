-- A task runs from its start until it stops or its session ends: ended_at
-- is when it ended, 0 while it runs. max_parallel counts the running ones.
ALTER TABLE sessions ADD COLUMN ended_at INTEGER NOT NULL DEFAULT 0;

-- Spawns: a sub-agent spawn the gate let through. It holds its place under
-- max_parallel from that step until the task it starts is seen (claimed),
-- its session ends, or it lapses.
CREATE TABLE spawns (
	id         INTEGER PRIMARY KEY,
	session    TEXT NOT NULL REFERENCES sessions(id),
	created_at INTEGER NOT NULL,
	claimed_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX spawns_open ON spawns(session, id) WHERE claimed_at = 0;
