-- Which node pins which passkey. A node tells the hub the whole set it
-- pins each time it changes, so a passkey removed on a node (sayso team
-- passkeys remove) or pinned only by a node that left is no longer one
-- the person's page asks the authenticator for. For routing only: no
-- node trusts the hub's copy.
CREATE TABLE node_passkeys (
	node_id    bigint NOT NULL REFERENCES nodes(id),
	passkey_id bigint NOT NULL REFERENCES passkeys(id),
	PRIMARY KEY (node_id, passkey_id)
);
-- The passkeys told before this table: pinned, as far as the hub knows,
-- by each of their person's nodes, until a node tells its set again.
INSERT INTO node_passkeys (node_id, passkey_id)
	SELECT n.id, p.id FROM passkeys p JOIN nodes n ON n.person_id = p.person_id;
GRANT SELECT, INSERT, DELETE ON node_passkeys TO sayso_hub;
