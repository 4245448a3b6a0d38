-- The chain's check (ledger_chain) and the head (ledger_head) read a
-- node's rows as the tables' owner (SECURITY DEFINER), and row-level
-- security is forced on the owner too: an owner that is not a superuser,
-- as an admin sets one up, saw none of them, and every node's second row
-- was refused. The owner may read the ledger; the hub, which works as
-- sayso_hub, still reads only the person's rows.
CREATE POLICY ledger_owner_reads ON ledger FOR SELECT TO CURRENT_USER USING (true);
