-- Hosts: agent hosts other than the three clients (a chat app, an
-- orchestrator) that use the gateway's API. Only the SHA-256 of a host's
-- token is kept; the token itself is shown once. person marks a host the
-- person trusts to label a message as the person's.
CREATE TABLE hosts (
	id           INTEGER PRIMARY KEY,
	name         TEXT NOT NULL UNIQUE,
	token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
	person       INTEGER NOT NULL DEFAULT 0,
	created_at   INTEGER NOT NULL
);
