from django.db import migrations

# The refusal of a moved casino's event (0003) gets a SQLSTATE of its own, and the cell the
# casino moved to as its DETAIL: the command that met it answers "moved to cell X" (a 410, the
# one error family: casino.errors.CasinoMoved), never a 500. Five characters, not ending in
# 000 (a class code), as PostgreSQL's manual asks of a code of one's own (PL/pgSQL, Errors and
# Messages); casino.errors.MOVED_SQLSTATE names the same.
REFUSE = """
CREATE OR REPLACE FUNCTION cells_refuse_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moved record;
BEGIN
    SELECT m.casino_id, m.to_cell INTO moved FROM cells_moved_out AS m
    WHERE m.casino_id IN (SELECT n.casino_id FROM new_events AS n) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'casino % moved to cell %: this cell records no more of its events',
            quote_literal(moved.casino_id), quote_literal(moved.to_cell)
            USING ERRCODE = 'CM410', DETAIL = moved.to_cell;
    END IF;
    RETURN NULL;
END $$;
"""
UNDO = """
CREATE OR REPLACE FUNCTION cells_refuse_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    moved record;
BEGIN
    SELECT m.casino_id, m.to_cell INTO moved FROM cells_moved_out AS m
    WHERE m.casino_id IN (SELECT n.casino_id FROM new_events AS n) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'casino % moved to cell %: this cell records no more of its events',
            quote_literal(moved.casino_id), quote_literal(moved.to_cell)
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;
"""


class Migration(migrations.Migration):

    dependencies = [
        ('cells', '0003_moved_out'),
    ]

    operations = [
        migrations.RunSQL(REFUSE, UNDO),
    ]
