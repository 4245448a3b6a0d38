-- Team mode: the person's signed changes to their rules and environment
-- note, by what each changes (a rule, or the note). version and state are
-- the newest signed change this node took of it: a change no newer is
-- refused, so an older one put back (a keep re-offered after its
-- forget) takes nothing. offered and offered_state are what this node
-- last offered the hub for the person to sign.
CREATE TABLE team_changes (
	subject       TEXT PRIMARY KEY,
	version       INTEGER NOT NULL DEFAULT 0,
	state         BLOB NOT NULL DEFAULT x'',
	offered       INTEGER NOT NULL DEFAULT 0,
	offered_state BLOB NOT NULL DEFAULT x''
);
