-- A person's rules travel as signed changes (005); the first schema's
-- rules table was never written.
DROP TABLE rules;
