"""Properties of the ledger after any valid sequence of cage and table operations, each one a
call of the cage's or the pit's own service (a refused operation records nothing and is
skipped):

* every entry balances, and the trial balance sums to zero (memorandum and real accounts apart);
* the cage's cash and chips (what each shift expects) equal the window's accounts;
* a table's round results equal its revenue account, and revenue + variance = its inventory win;
* the chips in circulation account equals the chips in service less those the casino holds;
* a replay of the events computes the same journal (``rebuild_projections --check``).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from typing import Any

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eventstore
from cage import services as cage
from cage.models import Shift, ShiftStatus
from casino.errors import DomainError
from games.models import Round, RoundStatus, TableSession
from games.services import rounds, sessions, tables
from ledger import reports

from .conftest import CASINO, NEW_CHIPS, TABLE_FLOAT, Floor, cashier, make_floor, pit_boss

pytestmark = pytest.mark.django_db

FAR = (dt.date(2000, 1, 1), dt.date(2100, 1, 1))
CHIPS = ["100.00", "25.00", "5.00", "1.00"]


def chips_counts(max_pieces: int = 6) -> st.SearchStrategy[dict[str, int]]:
    return st.dictionaries(st.sampled_from(CHIPS), st.integers(1, max_pieces), min_size=1,
                           max_size=3)


def value(counts: dict[str, int]) -> D:
    return sum((D(d) * n for d, n in counts.items()), D("0.00"))


bets = st.lists(st.one_of(
    st.builds(lambda seat, kind, amount: {"seat": seat, "type": kind, "amount": str(amount)},
              st.integers(1, 8), st.sampled_from(["red", "black", "even", "odd"]),
              st.integers(1, 60)),
    st.builds(lambda seat, n, amount: {"seat": seat, "type": "straight", "numbers": [n],
                                       "amount": str(amount)},
              st.integers(1, 8), st.integers(0, 36), st.integers(1, 5)),
), min_size=1, max_size=4)

operations = st.lists(st.one_of(
    st.tuples(st.just("sell"), chips_counts()),
    st.tuples(st.just("redeem"), st.integers(1, 4)),
    st.tuples(st.just("fill"), chips_counts()),
    st.tuples(st.just("credit"), chips_counts(3), st.sampled_from(["receive", "void", "wait"])),
    st.tuples(st.just("buy_in"), st.integers(1, 40)),
    st.tuples(st.just("spin"), bets, st.integers(0, 36)),
    st.tuples(st.just("correct"), st.integers(0, 36)),
    st.tuples(st.just("close"), st.integers(-20, 20), st.integers(-4, 4),
              st.sampled_from(["roll", "recount"]), st.integers(-10, 10)),
    st.tuples(st.just("transfer"), st.integers(1, 5)),
    st.tuples(st.just("drop_definition"), st.sampled_from(["counted", "recorded"])),
), min_size=1, max_size=25)


def run(floor: Floor, op: tuple[Any, ...]) -> None:
    kind = op[0]
    if kind == "sell":
        chips = op[1]
        rest = value(chips) - 100 * chips.get("100.00", 0)
        cash = {"100.00": chips.get("100.00", 0), "1.00": int(rest)}
        floor.sell(chips, {d: n for d, n in cash.items() if n})
    elif kind == "redeem":
        floor.redeem({"100.00": op[1]}, {"100.00": op[1]})
    elif kind == "fill":
        floor.fill("r1", op[1])
    elif kind == "credit":
        slip = floor.credit("r1", op[1], receive=op[2] == "receive")
        if op[2] == "void":
            floor.void_credit(slip)
    elif kind == "buy_in":
        floor.buy_in("r1", f"{op[1] * 5}.00")
    elif kind == "spin":
        floor.spin("r1", op[1], op[2])
    elif kind == "correct":
        last = (Round.objects.filter(session_id=floor.tables["r1"], status=RoundStatus.SETTLED)
                .order_by("-number").first())
        if last is None or (last.outcome or {}).get("number") == op[1]:
            return
        rounds.round_correct(round_id=str(last.round_id), outcome={"number": op[1]},
                             reason="misread", metadata=pit_boss("rita"))
    elif kind == "close":
        # the count is near what the float should hold, the drop box near what was recorded
        _, off, drop_off, reopen, recount_off = op
        session = floor.tables["r1"]
        closing = in_pieces(balance("0120.r1") + off)
        recorded = TableSession.objects.get(session_id=session).drop_recorded
        drop = max(D(0), recorded + 5 * drop_off)
        floor.close_table("r1", closing, str(drop))
        if drop:
            cage.drop_box_receive(shift_id=floor.window, session_id=session, table="r1",
                                  cash={"5.00": int(drop / 5)}, amount=drop.quantize(D("0.01")),
                                  metadata=cashier())
        if reopen == "roll":
            floor.tables["r1"] = str(sessions.table_session_open(
                casino=CASINO, table="r1", metadata=pit_boss()).session_id)
        else:
            floor.open_table("r1", opening=in_pieces(value(closing) + recount_off))
    elif kind == "transfer":
        floor.stock_window({"100.00": op[1]}, {"25.00": op[1]})
    elif kind == "drop_definition":
        tables.drop_definition_set(casino=CASINO, basis=op[1], reason="test",
                                   metadata=pit_boss())


def in_pieces(amount: D) -> dict[str, int]:
    amount = max(D(0), amount)
    hundreds = int(amount // 100)
    return {d: n for d, n in (("100.00", hundreds), ("1.00", int(amount - 100 * hundreds))) if n}


def balance(code: str) -> D:
    return reports.account_balance(casino=CASINO, code=code)


def check_invariants(floor: Floor) -> None:
    with connection.cursor() as cursor:
        cursor.execute("""SELECT e.number FROM journal_entry e JOIN journal_line l
                          ON l.entry_id = e.id GROUP BY e.number
                          HAVING sum(l.debit) <> sum(l.credit) OR count(*) < 2""")
        assert cursor.fetchall() == []
    tb = reports.trial_balance(casino=CASINO, day_from=FAR[0], day_to=FAR[1])
    assert tb.balanced
    assert sum((r.closing for r in tb.rows if r.code.startswith("0")), D(0)) == 0
    # the cage
    for shift in Shift.objects.exclude(status=ShiftStatus.CLOSED):
        lines = list(shift.lines.all())
        cash = sum((x.denomination * x.expected for x in lines if x.kind == "cash"), D(0))
        chips = sum((x.denomination * x.expected for x in lines if x.kind == "chips"), D(0))
        assert balance(f"1110.{shift.cage}") == cash
        assert balance(f"0110.{shift.cage}") == chips
    # the table
    results = sum((r.result for r in Round.objects.filter(table="r1",
                                                          status=RoundStatus.SETTLED)), D(0))
    assert -balance("7211.r1") == results
    closed = TableSession.objects.filter(table="r1", status="closed")
    if not TableSession.objects.filter(table="r1", status="open").exists():
        win = sum((s.table_win for s in closed), D(0))
        assert -(balance("7211.r1") + balance("7212.r1")) == win
        # every chip (put into service at the vault, or on the table when it first opened) is
        # held by a cage, on the table, on its way, or in a player's hand
        existing = value(NEW_CHIPS) + value(TABLE_FLOAT)
        held = sum((balance(f"0110.{s.cage}") for s in Shift.objects.exclude(
            status=ShiftStatus.CLOSED)), D(0))
        last = TableSession.objects.filter(table="r1").order_by("-closed_at").first()
        on_table = last.closing_amount if last is not None else D(0)
        assert -balance("2781") == existing - held - on_table - balance("0130")
    assert eventstore.check(["ledger"]) == []


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(operations)
def test_the_ledger_agrees_with_the_cage_and_the_tables_after_any_operations(
        ops: list[tuple[Any, ...]]) -> None:
    with transaction.atomic():
        floor = make_floor()
        floor.stock_window({"100.00": 20, "50.00": 20}, {"100.00": 40, "25.00": 100,
                                                         "5.00": 200, "1.00": 200})
        floor.open_table("r1")
        for op in ops:
            try:
                with transaction.atomic():
                    run(floor, op)
            except DomainError:
                pass  # refused by a service: nothing was recorded
        check_invariants(floor)
        if "r1" in floor.tables:
            run(floor, ("close", 0, 0, "roll", 0))
            floor.close_table("r1", in_pieces(balance("0120.r1")), "0.00")
            check_invariants(floor)
        transaction.set_rollback(True)
