-- Login links to the person's page at the hub: 'sayso hub login' makes one
-- for a person; a browser spends it once. The hub keeps only the link's
-- SHA-256. A login shows the person's open cards and lets the browser post
-- answers to them; an answer that says yes still counts on a node only
-- with the person's passkey, which the hub never holds.

CREATE TABLE page_logins (
	digest     bytea PRIMARY KEY,
	person_id  bigint NOT NULL REFERENCES people(id),
	created_at timestamptz NOT NULL DEFAULT now(),
	expires_at timestamptz NOT NULL,
	used_at    timestamptz
);

GRANT SELECT, INSERT ON page_logins TO sayso_hub;
GRANT UPDATE (used_at) ON page_logins TO sayso_hub;
