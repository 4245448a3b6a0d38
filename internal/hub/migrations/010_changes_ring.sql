-- The person's page reads the changes to sign when the hub rings, as it
-- reads its cards, rather than on a clock: a change a node offers, and a
-- signature the page posts for one, ring the change's person's pages.
CREATE FUNCTION ring_change() RETURNS trigger LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
	PERFORM pg_notify('sayso_changes', c.person_id::text) FROM changes c WHERE c.id = NEW.change_id;
	RETURN NULL;
END
$$;
CREATE TRIGGER changes_ring AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION ring_person();
CREATE TRIGGER change_signatures_ring AFTER INSERT ON change_signatures FOR EACH ROW EXECUTE FUNCTION ring_change();
