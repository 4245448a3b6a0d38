-- Changes to a person's rules and environment note, synced to every node
-- of theirs. A node offers a change (its bytes, unsigned) for its
-- person; the person signs it with their passkey on the hub's page; each
-- of the person's nodes reads the signed changes and takes one only when
-- the signature verifies against the passkeys that node pinned. The hub
-- stores and routes: a change or a signature written here by hand makes
-- nothing on any node.
CREATE TABLE changes (
	id         bigserial PRIMARY KEY,
	person_id  bigint NOT NULL REFERENCES people(id),
	node_id    bigint NOT NULL REFERENCES nodes(id), -- the node that offered it
	body       bytea NOT NULL,                       -- the node's bytes: what the passkey signs over
	digest     bytea NOT NULL,                       -- sha256 of body
	created_at timestamptz NOT NULL DEFAULT now(),
	UNIQUE (person_id, digest)
);

-- Each signature the person's page posted for a change, in the order the
-- hub took them: nodes read them from the last they saw.
CREATE TABLE change_signatures (
	id         bigserial PRIMARY KEY,
	change_id  bigint NOT NULL REFERENCES changes(id),
	assertion  bytea NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_signatures_change ON change_signatures (change_id);

GRANT SELECT, INSERT ON changes, change_signatures TO sayso_hub;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO sayso_hub;
