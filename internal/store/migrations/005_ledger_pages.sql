-- The pages read the ledger a page at a time: newest first by id (the
-- primary key), a session's rows by ledger_session, and what a session
-- last did of each kind (its last step, message, end; the folder of its
-- last step) by one seek each in ledger_session_kind.
CREATE INDEX ledger_session_kind ON ledger(session, kind, at);
