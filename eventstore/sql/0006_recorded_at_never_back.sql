-- A casino's recorded_at never goes back within its chain (issue 34; docs/event-hash.md,
-- § recorded_at). Both head reads also give the casino's last recorded_at, and the append stamps
-- its events with the later of the clock and that: a clock that steps back (NTP, a VM resumed)
-- gives events stamped with the last moment recorded, never an earlier one, so a fold by time
-- (events recorded before a gaming day's boundary) and a fold by position agree.
DROP FUNCTION IF EXISTS event_append_begin(bigint, text, text);
CREATE FUNCTION event_append_begin(p_lock_key bigint, p_casino text, p_key text)
RETURNS TABLE (lock_xid bigint, record_key text, record_command text, record_fingerprint text,
               record_result jsonb, last_position bigint, last_sequence bigint, last_hash text,
               last_recorded_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    RETURN QUERY
    SELECT txid_current(), c.idempotency_key::text, c.command::text, c.fingerprint::text, c.result,
           (SELECT max(e.position) FROM event AS e), chain.sequence, chain.hash::text,
           chain.recorded_at
    FROM (SELECT 1) AS one
    LEFT JOIN command_record AS c ON c.casino_id = p_casino AND c.idempotency_key = p_key
    LEFT JOIN LATERAL (SELECT e.sequence, e.hash, e.recorded_at FROM event AS e
                       WHERE e.casino_id = p_casino
                       ORDER BY e.sequence DESC LIMIT 1) AS chain ON true;
END;
$$;

DROP FUNCTION IF EXISTS event_append_head(bigint, text, bigint);
CREATE FUNCTION event_append_head(p_lock_key bigint, p_casino text, p_position_lock_key bigint)
RETURNS TABLE (last_position bigint, last_sequence bigint, last_hash text,
               last_recorded_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    PERFORM pg_advisory_xact_lock(p_position_lock_key);
    RETURN QUERY
    SELECT (SELECT max(e.position) FROM event AS e), chain.sequence, chain.hash::text,
           chain.recorded_at
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT e.sequence, e.hash, e.recorded_at FROM event AS e
                       WHERE e.casino_id = p_casino
                       ORDER BY e.sequence DESC LIMIT 1) AS chain ON true;
END;
$$;

--- reverse:
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
DROP FUNCTION IF EXISTS event_append_head(bigint, text, bigint);
CREATE FUNCTION event_append_head(p_lock_key bigint, p_casino text, p_position_lock_key bigint)
RETURNS TABLE (last_position bigint, last_sequence bigint, last_hash text)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    PERFORM pg_advisory_xact_lock(p_position_lock_key);
    RETURN QUERY
    SELECT (SELECT max(e.position) FROM event AS e), chain.sequence, chain.hash::text
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (SELECT e.sequence, e.hash FROM event AS e WHERE e.casino_id = p_casino
                       ORDER BY e.sequence DESC LIMIT 1) AS chain ON true;
END;
$$;
