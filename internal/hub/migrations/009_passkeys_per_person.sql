-- A passkey's credential id was unique across the hub: another person's
-- node that learned the id (it is no secret: cards carry it) could tell
-- the hub of it first, and the hub kept that first owner, so the page
-- stopped asking the person for a signature by their own passkey. The
-- hub keeps the passkeys each person's nodes told it of, per person.
ALTER TABLE passkeys DROP CONSTRAINT passkeys_credential_id_key;
ALTER TABLE passkeys ADD CONSTRAINT passkeys_person_credential UNIQUE (person_id, credential_id);
