-- Append-only event store: database-level guarantees (docs/database-guarantees.md).

-- Refuse any change to a recorded row. Raised as SQLSTATE 23000 so Django reports IntegrityError.
CREATE OR REPLACE FUNCTION refuse_rewrite() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER event_refuse_update_delete
    BEFORE UPDATE OR DELETE ON event
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER event_refuse_truncate
    BEFORE TRUNCATE ON event
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();

CREATE TRIGGER command_record_refuse_update_delete
    BEFORE UPDATE OR DELETE ON command_record
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER command_record_refuse_truncate
    BEFORE TRUNCATE ON command_record
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();

-- Each new event continues the chain: its position follows the last one with no gap, and its
-- prev_hash is the last event's hash (the genesis prev_hash is 64 zeros). Rows inserted earlier
-- by the same INSERT statement are visible here, so a multi-row insert is checked row by row.
CREATE OR REPLACE FUNCTION event_check_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last_position bigint;
    last_hash text;
BEGIN
    SELECT position, hash INTO last_position, last_hash
        FROM event ORDER BY position DESC LIMIT 1;
    IF last_position IS NULL THEN
        last_position := 0;
        last_hash := repeat('0', 64);
    END IF;
    IF NEW.position <> last_position + 1 THEN
        RAISE EXCEPTION 'event position % does not follow the last position %', NEW.position, last_position
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.prev_hash <> last_hash THEN
        RAISE EXCEPTION 'event % does not chain to the hash of event %', NEW.position, last_position
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER event_check_chain
    BEFORE INSERT ON event
    FOR EACH ROW EXECUTE FUNCTION event_check_chain();

--- reverse:
DROP TRIGGER IF EXISTS event_check_chain ON event;
DROP FUNCTION IF EXISTS event_check_chain();
DROP TRIGGER IF EXISTS command_record_refuse_truncate ON command_record;
DROP TRIGGER IF EXISTS command_record_refuse_update_delete ON command_record;
DROP TRIGGER IF EXISTS event_refuse_truncate ON event;
DROP TRIGGER IF EXISTS event_refuse_update_delete ON event;
DROP FUNCTION IF EXISTS refuse_rewrite();
