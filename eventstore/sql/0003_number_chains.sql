-- Number each casino's chain in the events recorded before one chain per casino (a one-off,
-- docs/adr/0007-one-chain-per-casino.md). No event's data, hashes or position change: the new
-- column is filled once, by the database owner, with the update trigger off for this statement
-- only. Where those events did not chain by casino (casinos interleaved on the one global
-- chain), the last of them is written down in event_legacy_chain: up to it the chain is global,
-- after it each casino's events chain among themselves, from the casino's last event before.
CREATE TABLE event_legacy_chain (
    last_position bigint PRIMARY KEY CHECK (last_position >= 1)
);
COMMENT ON TABLE event_legacy_chain IS
    'The last event of the global chain: the events up to it were recorded before one hash chain per casino';

ALTER TABLE event DISABLE TRIGGER event_refuse_update_delete;
UPDATE event SET sequence = numbered.sequence
FROM (SELECT position, row_number() OVER (PARTITION BY casino_id ORDER BY position) AS sequence
      FROM event) AS numbered
WHERE event.position = numbered.position;
ALTER TABLE event ENABLE TRIGGER event_refuse_update_delete;

INSERT INTO event_legacy_chain (last_position)
SELECT max(position) FROM event
WHERE EXISTS (SELECT 1 FROM event AS e
              LEFT JOIN event AS b ON b.casino_id = e.casino_id AND b.sequence = e.sequence - 1
              WHERE e.prev_hash <> coalesce(b.hash, repeat('0', 64)))
HAVING max(position) IS NOT NULL;

CREATE TRIGGER event_legacy_chain_refuse_update_delete
    BEFORE UPDATE OR DELETE ON event_legacy_chain
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();

--- reverse:
DROP TABLE IF EXISTS event_legacy_chain;
