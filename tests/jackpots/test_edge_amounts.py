"""A jackpot pool's amounts checked at the edge against the money columns (issue 13, finding 8):
NUMERIC(14, 2), so at most 999,999,999,999.99, worked out by hand; a refusal names the field
and records nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.errors import InvalidCommand
from casino.money import parse_amount
from eventstore.models import StoredEvent
from jackpots.models import JackpotPool
from jackpots.services import jackpot_pool_create

from .conftest import CASINO, TableMaker, admin, config_of

pytestmark = pytest.mark.django_db

STARTS = [("999999999999.99", None), ("1000000000000.00", "more than the largest amount"),
          ("10000.001", "at most two decimals"), ("-10000.00", "cannot be negative"),
          ("a lot", "is not an amount")]


@pytest.mark.parametrize(("start", "refused"), STARTS)
def test_a_pools_start_value_fits_the_money_columns(make_table: TableMaker, start: str,
                                                    refused: str | None) -> None:
    conf = config_of("stud_poker")
    table = make_table("stud_poker", "sp-edge")
    before = StoredEvent.objects.count()

    def create() -> None:
        jackpot_pool_create(
            casino=CASINO, pool_id="edge", name="Edge", game="stud_poker", tables=[table],
            bet=parse_amount(conf["bet"], field="bet"),
            increment_percent=conf["increment_percent"],
            start=parse_amount(start, field="start"),  # as the edge parses it
            paytable=conf["paytable"], approved_on="2024-03-01",
            approval_reference="IGJ 1/2024", metadata=admin())

    if refused is None:
        create()
        assert JackpotPool.objects.get(pool_id="edge").start == Decimal(start)
        return
    with pytest.raises(InvalidCommand) as error:
        create()
    assert refused in error.value.message
    assert error.value.extra["field"] == "start"
    assert StoredEvent.objects.count() == before
