-- The chain's check (ledger_chain) and the head (ledger_head) read a
-- node's rows as the tables' owner (SECURITY DEFINER), and row-level
-- security is forced on the owner too: an owner that is not a superuser,
-- as an admin sets one up, saw none of them, and every node's second row
-- was refused. The owner may read the ledger; the hub, which works as
-- sayso_hub, still reads only the person's rows.
CREATE POLICY ledger_owner_reads ON ledger FOR SELECT TO CURRENT_USER USING (true);

-- A row is stamped with its node's person: the hub's role, taken over,
-- could otherwise append to one person's chain a row another person then
-- reads as theirs.
CREATE FUNCTION ledger_person() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
	IF NEW.person_id IS DISTINCT FROM (SELECT person_id FROM nodes WHERE id = NEW.node_id) THEN
		RAISE EXCEPTION 'ledger of node %: row % is not stamped with the node''s person', NEW.node_id, NEW.seq
			USING ERRCODE = 'check_violation';
	END IF;
	RETURN NEW;
END
$$;
CREATE TRIGGER ledger_person BEFORE INSERT ON ledger
	FOR EACH ROW EXECUTE FUNCTION ledger_person();
