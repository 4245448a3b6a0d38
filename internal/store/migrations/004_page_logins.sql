-- The person's page: the browser sessions it let in and their tabs, so
-- that a tab stays logged in across a restart of sayso serve. Only the
-- SHA-256 of each secret is kept: the cookie and the tab's key themselves
-- live in the person's browser alone, and a hash read from here lets
-- nobody in. The rows are never backed up nor restored.
CREATE TABLE page_logins (
	session BLOB PRIMARY KEY,  -- SHA-256 of the browser's cookie
	until   INTEGER NOT NULL   -- when the browser session ends
);
CREATE TABLE page_tabs (
	tab     BLOB PRIMARY KEY,  -- SHA-256 of the tab's key
	session BLOB NOT NULL REFERENCES page_logins(session) ON DELETE CASCADE
);
CREATE INDEX page_tabs_session ON page_tabs(session);
