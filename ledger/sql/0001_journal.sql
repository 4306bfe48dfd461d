-- The general ledger: database-level guarantees (docs/database-guarantees.md, § Ledger).
-- refuse_rewrite() comes from eventstore/sql/0001_event_store.sql.

-- A line names its account by (casino, code): the account must exist in that casino's chart.
ALTER TABLE journal_line
    ADD CONSTRAINT journal_line_account_fk FOREIGN KEY (casino_id, account_code)
    REFERENCES ledger_account (casino_id, code);

-- An entry is stamped with the transaction that inserts it (whatever the INSERT said), and is
-- refused when its gaming day is closed. SQLSTATE 23514 (check_violation): Django raises
-- IntegrityError.
CREATE OR REPLACE FUNCTION journal_entry_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.txid := txid_current();
    IF EXISTS (SELECT 1 FROM ledger_period p
                WHERE p.casino_id = NEW.casino_id AND p.day = NEW.day) THEN
        RAISE EXCEPTION 'gaming day % of casino % is closed: it takes no new postings (post a correction in an open day that references what it corrects)',
            NEW.day, NEW.casino_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER journal_entry_before_insert
    BEFORE INSERT ON journal_entry
    FOR EACH ROW EXECUTE FUNCTION journal_entry_before_insert();

-- Balanced per entry, at commit. Deferred: the lines of an entry go in after the entry, in one
-- or several statements; the sums are checked when the transaction commits (or at SET
-- CONSTRAINTS ... IMMEDIATE). An entry has at least two lines and its debits equal its credits.
-- Lines can only be added in the transaction that inserted the entry (journal_line_check_entry
-- below), so checking each entry once, at the commit of that transaction, covers every line.
CREATE OR REPLACE FUNCTION journal_entry_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    totals record;
BEGIN
    SELECT count(*) AS lines, coalesce(sum(debit), 0) AS debit, coalesce(sum(credit), 0) AS credit
      INTO totals
      FROM journal_line
     WHERE entry_id = NEW.id;
    IF totals.lines < 2 THEN
        RAISE EXCEPTION 'journal entry % of casino % has % line(s): an entry has a debit and a credit at least',
            NEW.number, NEW.casino_id, totals.lines
            USING ERRCODE = 'check_violation';
    END IF;
    IF totals.debit <> totals.credit THEN
        RAISE EXCEPTION 'journal entry % of casino % does not balance: debits %, credits % (difference %)',
            NEW.number, NEW.casino_id, totals.debit, totals.credit, totals.debit - totals.credit
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER journal_entry_balanced
    AFTER INSERT ON journal_entry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION journal_entry_check_balanced();

-- Each new line belongs to an entry inserted by this same transaction, of the same casino, in a
-- day that is not closed. Checked once per INSERT statement over its transition table.
CREATE OR REPLACE FUNCTION journal_line_check_entry() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT n.casino_id AS line_casino, e.casino_id, e.number, e.day, e.txid,
           p.day AS closed_day
      INTO bad
      FROM new_lines n
      JOIN journal_entry e ON e.id = n.entry_id
      LEFT JOIN ledger_period p ON p.casino_id = e.casino_id AND p.day = e.day
     WHERE e.txid <> txid_current() OR n.casino_id <> e.casino_id OR p.day IS NOT NULL
     LIMIT 1;
    IF FOUND THEN
        IF bad.closed_day IS NOT NULL THEN
            RAISE EXCEPTION 'gaming day % of casino % is closed: it takes no new postings',
                bad.day, bad.casino_id
                USING ERRCODE = 'check_violation';
        ELSIF bad.line_casino <> bad.casino_id THEN
            RAISE EXCEPTION 'a line of journal entry % of casino % names casino %',
                bad.number, bad.casino_id, bad.line_casino
                USING ERRCODE = 'check_violation';
        END IF;
        RAISE EXCEPTION 'journal entry % of casino % was posted by an earlier transaction: its lines are final (post a new entry)',
            bad.number, bad.casino_id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER journal_line_check_entry
    AFTER INSERT ON journal_line
    REFERENCING NEW TABLE AS new_lines
    FOR EACH STATEMENT EXECUTE FUNCTION journal_line_check_entry();

-- Append-only, like the events.
CREATE TRIGGER journal_entry_refuse_update_delete
    BEFORE UPDATE OR DELETE ON journal_entry
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER journal_entry_refuse_truncate
    BEFORE TRUNCATE ON journal_entry
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER journal_line_refuse_update_delete
    BEFORE UPDATE OR DELETE ON journal_line
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER journal_line_refuse_truncate
    BEFORE TRUNCATE ON journal_line
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();

-- A closed day stays closed: no row of ledger_period is ever changed, deleted or truncated.
CREATE TRIGGER ledger_period_refuse_update_delete
    BEFORE UPDATE OR DELETE ON ledger_period
    FOR EACH ROW EXECUTE FUNCTION refuse_rewrite();
CREATE TRIGGER ledger_period_refuse_truncate
    BEFORE TRUNCATE ON ledger_period
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_rewrite();

--- reverse:
DROP TRIGGER IF EXISTS ledger_period_refuse_truncate ON ledger_period;
DROP TRIGGER IF EXISTS ledger_period_refuse_update_delete ON ledger_period;
DROP TRIGGER IF EXISTS journal_line_refuse_truncate ON journal_line;
DROP TRIGGER IF EXISTS journal_line_refuse_update_delete ON journal_line;
DROP TRIGGER IF EXISTS journal_entry_refuse_truncate ON journal_entry;
DROP TRIGGER IF EXISTS journal_entry_refuse_update_delete ON journal_entry;
DROP TRIGGER IF EXISTS journal_line_check_entry ON journal_line;
DROP FUNCTION IF EXISTS journal_line_check_entry();
DROP TRIGGER IF EXISTS journal_entry_balanced ON journal_entry;
DROP FUNCTION IF EXISTS journal_entry_check_balanced();
DROP TRIGGER IF EXISTS journal_entry_before_insert ON journal_entry;
DROP FUNCTION IF EXISTS journal_entry_before_insert();
ALTER TABLE journal_line DROP CONSTRAINT IF EXISTS journal_line_account_fk;
