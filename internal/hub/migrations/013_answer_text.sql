-- An answer's verdict is the answer's one text form, the same on a node's
-- page, in its ledger and on the wire: "allow" becomes "allow-once". What
-- a passkey signs does not change (its words are frozen in package
-- passkey and the page's script), so an answer kept before still verifies.
ALTER TABLE answers DROP CONSTRAINT answers_verdict_check;
UPDATE answers SET verdict = 'allow-once' WHERE verdict = 'allow';
ALTER TABLE answers ADD CONSTRAINT answers_verdict_check CHECK (verdict IN ('allow-once', 'always', 'deny', 'confirm'));
