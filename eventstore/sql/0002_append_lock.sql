-- The append's first round trip, and a chain check that probes the table once per INSERT.
-- See docs/database-guarantees.md and eventstore/store.py.

-- Take the append lock, then read the head of the store and look up an idempotency key. The
-- query runs inside a VOLATILE function, so under READ COMMITTED it takes its own snapshot after
-- the lock is granted: it sees everything the previous appender committed, and the key it finds
-- (or does not find) is the truth for as long as this transaction holds the lock. One statement,
-- so the application sends it with its BEGIN in a single round trip.
CREATE OR REPLACE FUNCTION event_append_lock(p_lock_key bigint, p_casino text, p_key text)
RETURNS TABLE (lock_xid bigint, last_position bigint, last_hash text, record_key text,
               record_command text, record_fingerprint text, record_result jsonb)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    RETURN QUERY
    SELECT txid_current(), head.position, head.hash::text, c.idempotency_key::text,
           c.command::text, c.fingerprint::text, c.result
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT e.position, e.hash FROM event AS e ORDER BY e.position DESC LIMIT 1)
        AS head ON true
    LEFT JOIN command_record AS c ON c.casino_id = p_casino AND c.idempotency_key = p_key;
END;
$$;

-- Each new event continues the chain: its position follows the one before it with no gap, and
-- its prev_hash is that event's hash (64 zeros for position 1). Checked once per INSERT
-- statement over its transition table: the statement's first row is checked against the table
-- (one primary-key probe), each later row against the row before it in the same statement. The
-- primary key already refuses a position taken twice.
CREATE OR REPLACE FUNCTION event_check_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    new_row record;
    before_position bigint;
    before_hash text;
BEGIN
    FOR new_row IN SELECT position, prev_hash, hash FROM new_events ORDER BY position LOOP
        IF before_position IS NULL AND new_row.position = 1 THEN
            before_hash := repeat('0', 64);
        ELSIF before_position IS NULL THEN
            before_hash := (SELECT hash FROM event WHERE position = new_row.position - 1);
            IF before_hash IS NULL THEN
                RAISE EXCEPTION 'event position % does not follow the last position (% is missing)',
                    new_row.position, new_row.position - 1
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
        ELSIF new_row.position <> before_position + 1 THEN
            RAISE EXCEPTION 'event position % does not follow the last position (% is missing)',
                new_row.position, new_row.position - 1
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF new_row.prev_hash <> before_hash THEN
            RAISE EXCEPTION 'event % does not chain to the hash of event %',
                new_row.position, new_row.position - 1
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        before_position := new_row.position;
        before_hash := new_row.hash;
    END LOOP;
    RETURN NULL;
END;
$$;

--- reverse:
DROP FUNCTION IF EXISTS event_append_lock(bigint, text, text);
