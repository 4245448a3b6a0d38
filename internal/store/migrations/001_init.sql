-- Sessions: agent conversations and tasks. A task names its parent.
CREATE TABLE sessions (
	id          TEXT PRIMARY KEY,
	agent       TEXT NOT NULL DEFAULT '',
	parent      TEXT REFERENCES sessions(id),
	scoped      INTEGER NOT NULL DEFAULT 0,
	mode        TEXT NOT NULL CHECK (mode IN ('ask', 'auto', 'autopilot')),
	held        INTEGER NOT NULL DEFAULT 0,
	held_why    TEXT NOT NULL DEFAULT '',
	released_at INTEGER NOT NULL DEFAULT 0,
	turn        TEXT NOT NULL DEFAULT '',
	turns       INTEGER NOT NULL DEFAULT 0,
	tainted     INTEGER NOT NULL DEFAULT 0,
	copy_why    TEXT NOT NULL DEFAULT '',
	created_at  INTEGER NOT NULL
);
CREATE INDEX sessions_parent ON sessions(parent);

-- Messages with their source. from_parent marks a task's frozen copy of
-- its parent's owner words.
CREATE TABLE messages (
	id          INTEGER PRIMARY KEY,
	session     TEXT NOT NULL REFERENCES sessions(id),
	source      TEXT NOT NULL CHECK (source IN ('person', 'delegated', 'system', 'guest')),
	turn        TEXT NOT NULL,
	text        TEXT NOT NULL,
	from_parent INTEGER NOT NULL DEFAULT 0,
	created_at  INTEGER NOT NULL
);
CREATE INDEX messages_session ON messages(session, id);

-- Epochs: one per person message, bound to its session and turn.
CREATE TABLE epochs (
	id         INTEGER PRIMARY KEY,
	session    TEXT NOT NULL REFERENCES sessions(id),
	turn       TEXT NOT NULL,
	created_at INTEGER NOT NULL
);

-- Leases: one-shot permissions for one category of ceiling step.
CREATE TABLE leases (
	id          INTEGER PRIMARY KEY,
	category    TEXT NOT NULL CHECK (category IN ('remote-write', 'merge', 'force-remote',
		'publish', 'deploy', 'destructive', 'container-remove', 'privilege', 'new-remote')),
	epoch       INTEGER NOT NULL,
	session     TEXT NOT NULL REFERENCES sessions(id),
	turn        TEXT NOT NULL,
	cwd         TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	expires_at  INTEGER NOT NULL,
	consumed_at INTEGER,
	consumed_by INTEGER,
	revoked_at  INTEGER,
	revoked_why TEXT NOT NULL DEFAULT '',
	CHECK (expires_at > created_at)
);
CREATE INDEX leases_session ON leases(session, id);
CREATE INDEX leases_open ON leases(id) WHERE consumed_at IS NULL AND revoked_at IS NULL;

-- The breaker's counters: denials and declined cards per session.
CREATE TABLE breaker (
	id         INTEGER PRIMARY KEY,
	session    TEXT NOT NULL REFERENCES sessions(id),
	kind       TEXT NOT NULL CHECK (kind IN ('denial', 'decline')),
	created_at INTEGER NOT NULL
);
CREATE INDEX breaker_session ON breaker(session, created_at);

-- Settings the person changes: the environment note, text logging.
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

-- The person's "always allow" rules.
CREATE TABLE rules (
	id         INTEGER PRIMARY KEY,
	tool       TEXT NOT NULL,
	unit       TEXT NOT NULL CHECK (unit IN ('command', 'verb')),
	pattern    TEXT NOT NULL,
	cwd        TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	UNIQUE (tool, unit, pattern, cwd)
);

-- The ledger: every decision, message, answer, rule, lease and setting
-- change. Append-only.
CREATE TABLE ledger (
	id      INTEGER PRIMARY KEY,
	at      INTEGER NOT NULL,
	kind    TEXT NOT NULL,
	session TEXT NOT NULL DEFAULT '',
	summary TEXT NOT NULL,
	detail  TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX ledger_session ON ledger(session, id);
CREATE INDEX ledger_at ON ledger(at);
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
	SELECT RAISE(ABORT, 'the ledger is append-only');
END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
	SELECT RAISE(ABORT, 'the ledger is append-only');
END;
