-- The hub serves as a login of its own, a member of sayso_hub that owns
-- nothing: the tables belong to the role that applies the migrations
-- ('sayso hub migrate'), which the hub never logs in as. So the functions
-- the triggers and the hub call as the owner must not be led astray by
-- what the hub's login can make: a temporary table named ledger or nodes
-- would otherwise come first on their search path (pg_temp is searched
-- first unless it is named), and the chain's check or the person's stamp
-- would read the hub's table instead of the real one.
ALTER FUNCTION ledger_chain() SET search_path = public, pg_temp;
ALTER FUNCTION ledger_person() SET search_path = public, pg_temp;
ALTER FUNCTION ledger_head(bigint) SET search_path = public, pg_temp;

-- The nonces of the nodes' signed requests, each kept until its request's
-- time is no longer accepted: a request replayed after the hub restarts is
-- refused as one replayed while it runs.
CREATE TABLE node_nonces (
	node_id    bigint NOT NULL REFERENCES nodes(id),
	nonce      text NOT NULL,
	expires_at timestamptz NOT NULL,
	PRIMARY KEY (node_id, nonce)
);
CREATE INDEX node_nonces_expiry ON node_nonces (expires_at);
GRANT SELECT, INSERT, DELETE ON node_nonces TO sayso_hub;

-- The hub checks at start that the owner applied every migration it has.
GRANT SELECT ON schema_version TO sayso_hub;
