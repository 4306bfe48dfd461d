"""Any sequence of a cash table's commands (seats, buy-ins, hands with their approved rake,
cash-outs, rake box counts) leaves the table's figures equal to the ledger's and the projections
equal to a rebuild: the players' money = buy-ins − rake − cash-outs, never revenue."""

from __future__ import annotations

import itertools
from decimal import Decimal as D

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eventstore.compare import check
from pokerroom.models import PokerTable
from pokerroom.rules.rake import RakeRule, rake_due
from pokerroom.services.tables import (
    poker_chips_buy,
    poker_hands_record,
    poker_player_leave,
    poker_player_seat,
    poker_table_open,
    rake_box_count,
)

from .conftest import CASINO, credit_balance, floor

RULE = RakeRule(D("10"), D("2.50"), D("1.00"))
_tables = itertools.count(1)

step = st.one_of(
    st.tuples(st.just("hand"), st.integers(1, 40), st.integers(1, 40), st.booleans()),
    st.tuples(st.just("count"), st.integers(-100, 100)),
    st.tuples(st.just("leave"), st.integers(0, 100)),
)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=8))
def test_any_sequence_keeps_the_table_and_the_ledger_equal(casino: str,
                                                          steps: list[tuple]) -> None:
    table = f"hp{next(_tables)}"
    poker_table_open(casino=CASINO, table=table, game="holdem", seats=9, min_buy_in=D("10.00"),
                     max_buy_in=D("500.00"), rake_percent="10", rake_cap=D("2.50"),
                     minimum_pot=D("1.00"), approval_reference="SRIJ P", metadata=floor())
    seated = [1, 2]
    for seat in seated:
        poker_player_seat(casino=CASINO, table=table, seat=seat, metadata=floor())
        poker_chips_buy(casino=CASINO, table=table, seat=seat, amount=D("200.00"),
                        metadata=floor())
    for kind, *args in steps:
        found = PokerTable.objects.get(casino_id=CASINO, code=table)
        if kind == "hand" and len(seated) == 2:
            a, b, flop = D(args[0]), D(args[1]), args[2]
            rake = rake_due(RULE, a + b, flop_dealt=flop)
            poker_hands_record(casino=CASINO, table=table, metadata=floor(), hands=[{
                "contributions": {"1": str(a), "2": str(b)},
                "awards": {"1": str(a + b - rake)}, "rake": str(rake), "flop_dealt": flop}])
        elif kind == "count":
            counted = max(found.rake_uncounted + D(args[0]) / 100, D(0))
            rake_box_count(casino=CASINO, table=table, counted=counted, second_counter="rita",
                           metadata=floor())
        elif kind == "leave" and seated:
            share = (found.players_money * D(args[0]) / 100).quantize(D("0.01"))
            poker_player_leave(casino=CASINO, table=table, seat=seated.pop(),
                               cashed_out=share, metadata=floor())
    found = PokerTable.objects.get(casino_id=CASINO, code=table)
    # players' money = 400.00 bought − rake − cashed out, in the projection and in the ledger
    assert found.players_money == D("400.00") - found.rake_recorded - found.cashed_out
    assert credit_balance("poker_players_money", table) == found.players_money
    assert credit_balance("poker_rake", table) == found.rake_recorded
    assert credit_balance("rake_box_difference", table) == found.rake_counted - (
        found.rake_recorded - found.rake_uncounted)
    assert check(["pokerroom", "ledger"]) == []
