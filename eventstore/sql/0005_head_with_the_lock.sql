-- The append's head read with the casino's lock, and the position checked by the INSERT itself
-- (docs/adr/0010-head-with-the-lock.md): an append no longer waits for a round trip of its own.

-- The casino's append lock (a command's first round trip): what ``event_append_lock`` (0004) gives,
-- the idempotency key looked up under it, and where the command's first append will go: the casino's last sequence and hash (exact:
-- only the holder of this lock appends to the casino's chain) and the store's last position (a
-- guess: another casino may append before this command does; ``event_append_at`` checks it).
-- The query runs inside a VOLATILE function, so under READ COMMITTED it takes its own snapshot
-- after the lock is granted: it sees everything the casino's previous appender committed.
DROP FUNCTION IF EXISTS event_append_begin(bigint, text, text);
CREATE FUNCTION event_append_begin(p_lock_key bigint, p_casino text, p_key text)
RETURNS TABLE (lock_xid bigint, record_key text, record_command text, record_fingerprint text,
               record_result jsonb, last_position bigint, last_sequence bigint, last_hash text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    RETURN QUERY
    SELECT txid_current(), c.idempotency_key::text, c.command::text, c.fingerprint::text, c.result,
           (SELECT max(e.position) FROM event AS e), chain.sequence, chain.hash::text
    FROM (SELECT 1) AS one
    LEFT JOIN command_record AS c ON c.casino_id = p_casino AND c.idempotency_key = p_key
    LEFT JOIN LATERAL (SELECT e.sequence, e.hash FROM event AS e WHERE e.casino_id = p_casino
                       ORDER BY e.sequence DESC LIMIT 1) AS chain ON true;
END;
$$;

-- The position lock, taken by the append's INSERT (an InitPlan of its WHERE clause, run once
-- before any row), then the store's last position, read after the lock is granted (its own
-- snapshot: the previous holder's events are visible), must be the one the append was hashed
-- after. If another casino appended meanwhile, nothing of the INSERT is written: with
-- ``p_strict`` it fails with serialization_failure (40001; the projections' writes sent after it
-- in the same pipeline are not run, and the store rolls back its savepoint), else it inserts no
-- row. Either way the store reads the head again and hashes anew (store.append), or, where it
-- cannot, the command is refused as a retryable conflict.
CREATE OR REPLACE FUNCTION event_append_at(p_position_lock_key bigint, p_after bigint,
                                           p_strict boolean)
RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    found_position bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(p_position_lock_key);
    found_position := coalesce((SELECT max(position) FROM event), 0);
    IF found_position = p_after THEN
        RETURN true;
    END IF;
    IF p_strict THEN
        RAISE EXCEPTION 'the store''s last position is % where the append was hashed after %',
            found_position, p_after
            USING ERRCODE = 'serialization_failure', HINT = 'event_append_at';
    END IF;
    RETURN false;
END;
$$;

--- reverse:
-- Nothing: two functions of new names, which the code before this migration never calls (and a
-- test that migrates back across 0004 and on again goes on appending with the current code).
