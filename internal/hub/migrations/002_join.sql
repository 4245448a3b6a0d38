-- Join tokens: an admin makes one for a person with 'sayso hub token'; a
-- node redeems it once, at join, with the ed25519 key it signs every later
-- request with. The hub keeps only the token's SHA-256.

CREATE TABLE join_tokens (
	digest     bytea PRIMARY KEY,
	person_id  bigint NOT NULL REFERENCES people(id),
	ci         boolean NOT NULL DEFAULT false,
	created_at timestamptz NOT NULL DEFAULT now(),
	expires_at timestamptz NOT NULL,
	used_at    timestamptz,
	node_id    bigint REFERENCES nodes(id)
);

GRANT SELECT, INSERT ON join_tokens TO sayso_hub;
GRANT UPDATE (used_at, node_id) ON join_tokens TO sayso_hub;
