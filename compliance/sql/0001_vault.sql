-- The patron vault (docs/patrons.md): personal data, encrypted under a key per patron.
-- Crypto-shredding is the one way out: once a row's wrapped key is gone it never comes back,
-- and a shredded row never changes again. No row is ever deleted: the tombstone stays, so that
-- every event naming the patron still names a row.
CREATE OR REPLACE FUNCTION patron_vault_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'patron % cannot be deleted: destroy their key instead (crypto-shredding)',
            OLD.patron_id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.wrapped_key IS NULL THEN
        RAISE EXCEPTION 'patron %''s data was destroyed: the row never changes again',
            OLD.patron_id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.patron_id <> OLD.patron_id OR NEW.casino <> OLD.casino
       OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'patron %: the reference, casino and time of a vault row never change',
            OLD.patron_id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER patron_vault_guard
    BEFORE UPDATE OR DELETE ON compliance_patron_vault
    FOR EACH ROW EXECUTE FUNCTION patron_vault_guard();

--- reverse:
DROP TRIGGER IF EXISTS patron_vault_guard ON compliance_patron_vault;
DROP FUNCTION IF EXISTS patron_vault_guard();
