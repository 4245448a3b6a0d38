-- A severe, ceiling or never step is allowed from the hub's page only with
-- a second confirmation, as on a node's own page. Once a node took the
-- person's first yes to such a card it asks for the confirmation with a
-- challenge of its own (cards.confirm, random, the node's); the person's
-- passkey signs it in an answer of verdict 'confirm', which the node takes
-- only within its own time window. The update rings the person's pages.
ALTER TABLE cards ADD COLUMN confirm bytea;
GRANT UPDATE (confirm) ON cards TO sayso_hub;
ALTER TABLE answers DROP CONSTRAINT answers_verdict_check;
ALTER TABLE answers ADD CONSTRAINT answers_verdict_check CHECK (verdict IN ('allow', 'always', 'deny', 'confirm'));
