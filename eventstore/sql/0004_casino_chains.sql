-- One hash chain per casino (docs/event-hash.md, docs/adr/0007-one-chain-per-casino.md).
-- Each event has its casino's chain number, `sequence` (1, 2, 3 ... per casino_id; the events of
-- no casino, casino_id '', are a chain of their own), and its `prev_hash` is the hash of the
-- casino's event before it. The global `position` stays gapless: it is handed out under a lock
-- of its own, taken by an append and held to the end of its transaction.

-- The casino's append lock (a command's first round trip): the idempotency key looked up under
-- it. The query runs inside a VOLATILE function, so under READ COMMITTED it takes its own snapshot
-- after the lock is granted: it sees everything the casino's previous appender committed.
DROP FUNCTION IF EXISTS event_append_lock(bigint, text, text);
CREATE FUNCTION event_append_lock(p_lock_key bigint, p_casino text, p_key text)
RETURNS TABLE (lock_xid bigint, record_key text, record_command text, record_fingerprint text,
               record_result jsonb)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(p_lock_key);
    RETURN QUERY
    SELECT txid_current(), c.idempotency_key::text, c.command::text, c.fingerprint::text, c.result
    FROM (SELECT 1) AS one
    LEFT JOIN command_record AS c ON c.casino_id = p_casino AND c.idempotency_key = p_key;
END;
$$;

-- Where an append goes: the casino's lock (re-entrant: a command holds it already), then the
-- global position lock, then the store's last position and the casino's last sequence and hash,
-- read after both are granted. The position lock is the one moment casinos wait for each other:
-- from an append to its commit (ADR 0007 says why that much is needed for a gapless position).
CREATE OR REPLACE FUNCTION event_append_head(p_lock_key bigint, p_casino text,
                                             p_position_lock_key bigint)
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

-- Only the global position lock: every casino's appends wait (a rebuild of the projections).
CREATE OR REPLACE FUNCTION event_position_lock(p_position_lock_key bigint) RETURNS void
LANGUAGE sql VOLATILE AS $$ SELECT pg_advisory_xact_lock(p_position_lock_key) $$;

-- Each new event continues the store and its casino's chain: its position follows the one
-- before it with no gap; its sequence follows its casino's last one; its prev_hash is the hash
-- of its casino's event before it (64 zeros for a casino's first event). Checked once per INSERT
-- statement over its transition table: each statement's first row of a casino against the
-- table (one probe of the casino's chain index), each later row against the row before it.
CREATE OR REPLACE FUNCTION event_check_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    new_row record;
    before_position bigint;
    chain_casino text;
    chain_sequence bigint;
    chain_hash text;
BEGIN
    FOR new_row IN SELECT position, casino_id, sequence, prev_hash, hash FROM new_events
                   ORDER BY position LOOP
        IF before_position IS NULL THEN
            IF new_row.position <> 1
               AND NOT EXISTS (SELECT 1 FROM event WHERE position = new_row.position - 1) THEN
                RAISE EXCEPTION 'event position % does not follow the last position (% is missing)',
                    new_row.position, new_row.position - 1
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
        ELSIF new_row.position <> before_position + 1 THEN
            RAISE EXCEPTION 'event position % does not follow the last position (% is missing)',
                new_row.position, new_row.position - 1
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF chain_casino IS DISTINCT FROM new_row.casino_id THEN
            chain_casino := new_row.casino_id;
            chain_sequence := new_row.sequence - 1;
            IF chain_sequence = 0 THEN
                chain_hash := repeat('0', 64);
            ELSE
                chain_hash := (SELECT hash FROM event WHERE casino_id = new_row.casino_id
                               AND sequence = chain_sequence);
                IF chain_hash IS NULL THEN
                    RAISE EXCEPTION 'event % of casino % does not follow its chain (its event % is missing)',
                        new_row.position, quote_literal(new_row.casino_id), chain_sequence
                        USING ERRCODE = 'integrity_constraint_violation';
                END IF;
            END IF;
        END IF;
        IF new_row.sequence <> chain_sequence + 1 THEN
            RAISE EXCEPTION 'event % of casino % does not follow its chain (its event % is missing)',
                new_row.position, quote_literal(new_row.casino_id), new_row.sequence - 1
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF new_row.prev_hash <> chain_hash THEN
            RAISE EXCEPTION 'event % does not chain to the hash of its casino''s event %',
                new_row.position, chain_sequence
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        before_position := new_row.position;
        chain_sequence := new_row.sequence;
        chain_hash := new_row.hash;
    END LOOP;
    RETURN NULL;
END;
$$;

--- reverse:
DROP FUNCTION IF EXISTS event_position_lock(bigint);
DROP FUNCTION IF EXISTS event_append_head(bigint, text, bigint);
DROP FUNCTION IF EXISTS event_append_lock(bigint, text, text);
