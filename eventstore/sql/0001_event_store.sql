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

-- Each new event continues the chain: its position follows the one before it with no gap, and
-- its prev_hash is that event's hash (64 zeros for position 1). Checked once per INSERT
-- statement over its transition table: one primary-key probe per new row, whatever the size of
-- the table (a join here could be planned as a scan of the whole table). The primary key
-- already refuses a position taken twice.
CREATE OR REPLACE FUNCTION event_check_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    new_row record;
    before_hash text;
BEGIN
    FOR new_row IN SELECT position, prev_hash FROM new_events ORDER BY position LOOP
        IF new_row.position = 1 THEN
            before_hash := repeat('0', 64);
        ELSE
            before_hash := (SELECT hash FROM event WHERE position = new_row.position - 1);
            IF before_hash IS NULL THEN
                RAISE EXCEPTION 'event position % does not follow the last position (% is missing)',
                    new_row.position, new_row.position - 1
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
        END IF;
        IF new_row.prev_hash <> before_hash THEN
            RAISE EXCEPTION 'event % does not chain to the hash of event %',
                new_row.position, new_row.position - 1
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE TRIGGER event_check_chain
    AFTER INSERT ON event
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION event_check_chain();

--- reverse:
DROP TRIGGER IF EXISTS event_check_chain ON event;
DROP FUNCTION IF EXISTS event_check_chain();
DROP TRIGGER IF EXISTS command_record_refuse_truncate ON command_record;
DROP TRIGGER IF EXISTS command_record_refuse_update_delete ON command_record;
DROP TRIGGER IF EXISTS event_refuse_truncate ON event;
DROP TRIGGER IF EXISTS event_refuse_update_delete ON event;
DROP FUNCTION IF EXISTS refuse_rewrite();
