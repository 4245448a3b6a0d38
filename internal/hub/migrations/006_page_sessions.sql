-- The browsers let in to the person's page, in the database, so a restart
-- of the hub logs no one out. The hub keeps only the SHA-256 of the
-- session's cookie and of its tab's key: a row read out of a backup, or
-- one inserted by hand, opens nothing without the secrets hashed in it.
-- Logging out deletes the row.
CREATE TABLE page_sessions (
	digest     bytea PRIMARY KEY CHECK (length(digest) = 32), -- sha256 of the cookie
	tab        bytea NOT NULL CHECK (length(tab) = 32),       -- sha256 of the tab's key
	person_id  bigint NOT NULL REFERENCES people(id),
	created_at timestamptz NOT NULL DEFAULT now(),
	expires_at timestamptz NOT NULL
);
CREATE INDEX page_sessions_expiry ON page_sessions (expires_at);

GRANT SELECT, INSERT, DELETE ON page_sessions TO sayso_hub;

-- The page's ledger view reads a person's rows newest first, a page at a
-- time from a (received_at, node_id, seq) key down.
CREATE INDEX ledger_person_received ON ledger (person_id, received_at DESC, node_id DESC, seq DESC);

-- A row's JSON, or NULL for bytes that are not: a node ships its rows as
-- JSON, and one that shipped anything else must not break its person's
-- searches.
CREATE FUNCTION ledger_json(body bytea) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
	RETURN convert_from(body, 'UTF8')::jsonb;
EXCEPTION WHEN others THEN
	RETURN NULL;
END
$$;
-- A row's own time (its "at", when the node wrote it), or NULL.
CREATE FUNCTION ledger_at(r jsonb) RETURNS timestamptz LANGUAGE plpgsql STABLE STRICT AS $$
BEGIN
	RETURN (r->>'at')::timestamptz;
EXCEPTION WHEN others THEN
	RETURN NULL;
END
$$;
GRANT EXECUTE ON FUNCTION ledger_json(bytea), ledger_at(jsonb) TO sayso_hub;

-- A card rings with its person's id: the hub's page wakes only the
-- person's own pages, and a page learns nothing of another person's
-- cards from its rings. pg_notify folds a transaction's like rings into
-- one. Listeners that read no payload hear the channel as before.
CREATE FUNCTION ring_person() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('sayso_' || TG_TABLE_NAME, NEW.person_id::text);
	RETURN NULL;
END
$$;
DROP TRIGGER cards_ring ON cards;
CREATE TRIGGER cards_ring AFTER INSERT OR UPDATE ON cards FOR EACH ROW EXECUTE FUNCTION ring_person();
