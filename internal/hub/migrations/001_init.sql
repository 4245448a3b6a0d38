-- The hub's tables. The hub itself works as the role sayso_hub, which may
-- only INSERT and SELECT the ledger; a trigger refuses UPDATE, DELETE and
-- TRUNCATE of it to every role, the tables' owner included.

DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'sayso_hub') THEN
		CREATE ROLE sayso_hub NOLOGIN;
	END IF;
END
$$;
DO $$
BEGIN
	EXECUTE format('GRANT sayso_hub TO %I', current_user);
EXCEPTION WHEN others THEN
	-- already a member, or the owner is sayso_hub itself
END
$$;

CREATE TABLE people (
	id         bigserial PRIMARY KEY,
	name       text NOT NULL UNIQUE,
	created_at timestamptz NOT NULL DEFAULT now()
);

-- A person's passkeys, as the hub saw them at enrolment. Nodes pin their
-- own copy: the hub's is for routing, never for deciding.
CREATE TABLE passkeys (
	id            bigserial PRIMARY KEY,
	person_id     bigint NOT NULL REFERENCES people(id),
	credential_id bytea NOT NULL UNIQUE,
	public_key    bytea NOT NULL,
	created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE nodes (
	id         bigserial PRIMARY KEY,
	name       text NOT NULL UNIQUE,
	person_id  bigint NOT NULL REFERENCES people(id),
	ci         boolean NOT NULL DEFAULT false,
	node_key   bytea NOT NULL, -- the node's ed25519 public key
	joined_at  timestamptz NOT NULL DEFAULT now(),
	left_at    timestamptz
);

-- The org's signed policy bundles, by sequence number: a node takes only
-- one newer than the last it took.
CREATE TABLE bundles (
	seq        bigint PRIMARY KEY CHECK (seq > 0),
	body       bytea NOT NULL,  -- exactly the signed bytes
	signature  bytea NOT NULL,
	expires_at timestamptz NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);

-- A person's rules, each with the passkey assertion that keeps it; a node
-- takes one only when the assertion verifies against the keys it pinned.
CREATE TABLE rules (
	id         bigserial PRIMARY KEY,
	person_id  bigint NOT NULL REFERENCES people(id),
	body       bytea NOT NULL,
	assertion  bytea,
	created_at timestamptz NOT NULL DEFAULT now(),
	forgotten_at timestamptz
);

-- Cards waiting on a node for a person; the tables are the truth, NOTIFY
-- only rings.
CREATE TABLE cards (
	id         text PRIMARY KEY,
	node_id    bigint NOT NULL REFERENCES nodes(id),
	person_id  bigint NOT NULL REFERENCES people(id),
	body       bytea NOT NULL,
	digest     bytea NOT NULL, -- sha256 of body: the passkey challenge
	created_at timestamptz NOT NULL DEFAULT now(),
	closed_at  timestamptz
);
CREATE INDEX cards_open ON cards (person_id) WHERE closed_at IS NULL;

CREATE TABLE answers (
	id         bigserial PRIMARY KEY,
	card_id    text NOT NULL REFERENCES cards(id),
	verdict    text NOT NULL CHECK (verdict IN ('allow', 'always', 'deny')),
	assertion  bytea, -- the person's passkey assertion over the card
	created_at timestamptz NOT NULL DEFAULT now()
);

-- One ledger of every node. Each node chains its rows: hash =
-- sha256(prev || body), prev the hash of the node's row before (32 zero
-- bytes for its first), so a gap or an edit shows.
CREATE TABLE ledger (
	node_id     bigint NOT NULL REFERENCES nodes(id),
	seq         bigint NOT NULL CHECK (seq > 0),
	person_id   bigint NOT NULL REFERENCES people(id),
	body        bytea NOT NULL, -- exactly the bytes the node hashed (JSON)
	prev        bytea NOT NULL,
	hash        bytea NOT NULL,
	received_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (node_id, seq)
);

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'the ledger is append-only: % is refused', TG_OP
		USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER ledger_no_update BEFORE UPDATE OR DELETE ON ledger
	FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_no_truncate BEFORE TRUNCATE ON ledger
	FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();

-- Every row must continue its node's chain: the next number, the last
-- row's hash as prev, and hash = sha256(prev || body). The node's rows are
-- taken one at a time. SECURITY DEFINER: the check reads the node's last
-- row past row-level security.
CREATE FUNCTION ledger_chain() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
DECLARE
	last_seq  bigint;
	last_hash bytea;
BEGIN
	PERFORM pg_advisory_xact_lock(7411, NEW.node_id::int);
	SELECT seq, hash INTO last_seq, last_hash FROM ledger
		WHERE node_id = NEW.node_id ORDER BY seq DESC LIMIT 1;
	IF last_seq IS NULL THEN
		last_seq := 0;
		last_hash := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
	END IF;
	IF NEW.seq <> last_seq + 1 THEN
		RAISE EXCEPTION 'ledger of node %: row % does not follow row %', NEW.node_id, NEW.seq, last_seq
			USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	IF NEW.prev <> last_hash THEN
		RAISE EXCEPTION 'ledger of node %: row % does not chain to the row before', NEW.node_id, NEW.seq
			USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	IF NEW.hash <> sha256(NEW.prev || NEW.body) THEN
		RAISE EXCEPTION 'ledger of node %: row % does not match its hash', NEW.node_id, NEW.seq
			USING ERRCODE = 'integrity_constraint_violation';
	END IF;
	NEW.received_at := now();
	RETURN NEW;
END
$$;
CREATE TRIGGER ledger_chain BEFORE INSERT ON ledger
	FOR EACH ROW EXECUTE FUNCTION ledger_chain();

-- Row-level security: a person reads only their own rows. The hub sets
-- sayso.person for each person's request; a request with none reads
-- nothing.
ALTER TABLE ledger ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger FORCE ROW LEVEL SECURITY;
CREATE POLICY ledger_read ON ledger FOR SELECT
	USING (person_id = nullif(current_setting('sayso.person', true), '')::bigint);
CREATE POLICY ledger_append ON ledger FOR INSERT WITH CHECK (true);

-- The hub's role: the ledger only grows.
GRANT USAGE ON SCHEMA public TO sayso_hub;
GRANT SELECT, INSERT ON people, passkeys, nodes, bundles, rules, cards, answers TO sayso_hub;
GRANT UPDATE (left_at) ON nodes TO sayso_hub;
GRANT UPDATE (closed_at) ON cards TO sayso_hub;
GRANT UPDATE (forgotten_at) ON rules TO sayso_hub;
GRANT SELECT, INSERT ON ledger TO sayso_hub;
REVOKE UPDATE, DELETE, TRUNCATE ON ledger FROM sayso_hub;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO sayso_hub;

-- A new card or answer rings the listeners; they re-read the tables.
CREATE FUNCTION ring() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('sayso_' || TG_TABLE_NAME, '');
	RETURN NULL;
END
$$;
CREATE TRIGGER cards_ring AFTER INSERT OR UPDATE ON cards FOR EACH STATEMENT EXECUTE FUNCTION ring();
CREATE TRIGGER answers_ring AFTER INSERT ON answers FOR EACH STATEMENT EXECUTE FUNCTION ring();

-- The last row of a node's chain, past row-level security: the node's
-- shipper resumes from it.
CREATE FUNCTION ledger_head(node bigint, OUT seq bigint, OUT hash bytea) LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
	SELECT seq, hash FROM ledger WHERE node_id = node ORDER BY seq DESC LIMIT 1
$$;
GRANT EXECUTE ON FUNCTION ledger_head(bigint) TO sayso_hub;
