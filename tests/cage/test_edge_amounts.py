"""Every amount and piece count checked at the edge against its column (issue 13, finding 8).

A huge opening count used to reach PostgreSQL and come back as "integer out of range" (an HTTP
500). The parsers (``casino.money.parse_amount``, ``parse_counts``, ``parse_pieces``) now refuse,
naming the field, whatever no column holds: the money columns' NUMERIC(14, 2) and the pieces
columns' ``integer``, limits shared with the models (``casino.models.money_field``). A total that
grows too large over many movements is refused by the command (``out_of_range``), never a 500.
The limits are worked out here by hand: 12 digits before the point, 2 after; 2**31 − 1 pieces.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from cage.models import Cage, ShiftLine
from casino.errors import InvalidCommand
from casino.models import Casino, Role, money_field
from casino.money import MONEY_MAX, PIECES_MAX, parse_amount, parse_counts
from eventstore.commands import run_command
from eventstore.models import StoredEvent
from games.limits import default_limits
from games.rules import money as pit_money
from games.services import sessions, tables

from .conftest import CASINO, Pit, carla, paulo
from .test_api import BASE, client_for, error_of
from .test_web import browser

pytestmark = pytest.mark.django_db

BIGGEST = "999999999999.99"  # NUMERIC(14, 2): 12 digits before the point, 2 after
TOO_BIG = "1000000000000.00"  # one cent more
MOST_PIECES = 2_147_483_647  # PostgreSQL integer


def test_the_limits_are_the_columns() -> None:
    field = money_field()
    assert (field.max_digits, field.decimal_places) == (14, 2)
    assert Decimal(BIGGEST) == MONEY_MAX
    assert Decimal(BIGGEST) == pit_money.MONEY_MAX  # the pit's pure rules repeat it
    assert PIECES_MAX == MOST_PIECES
    assert connection.ops.integer_field_range("IntegerField")[1] == MOST_PIECES
    assert ShiftLine._meta.get_field("opening").get_internal_type() == "IntegerField"


# --- the parsers: one table ---------------------------------------------------------------------

AMOUNTS: list[tuple[object, str | None]] = [
    (BIGGEST, None),
    ("999999999999.999", "is not an amount with at most two decimals"),
    (TOO_BIG, "amount 1,000,000,000,000.00 is more than the largest amount the books hold "
              "(999,999,999,999.99)"),
    ("1" + "0" * 40, "is more than the largest amount the books hold"),
    ("10.005", "is not an amount with at most two decimals"),
    ("-10.00", "amount cannot be negative (-10.00)"),
    ("ten", "amount 'ten' is not an amount with at most two decimals"),
    ("1e3", "amount '1e3' is not an amount with at most two decimals"),
    (10.5, "must be written as a string"),
]


@pytest.mark.parametrize(("value", "refused"), AMOUNTS)
def test_an_amount_fits_the_money_columns_or_is_refused_naming_the_field(
        value: object, refused: str | None) -> None:
    if refused is None:
        assert parse_amount(value) == Decimal(BIGGEST)
        return
    with pytest.raises(InvalidCommand) as error:
        parse_amount(value)
    assert refused in error.value.message
    assert error.value.extra["field"] == "amount"


COUNTS: list[tuple[dict[str, Any], str | None]] = [
    ({"0.01": MOST_PIECES}, None),  # 21,474,836.47: the most pieces a line holds
    ({"0.01": MOST_PIECES + 1}, "2,147,483,648 0.01 pieces is more than the books can hold"),
    ({"500.00": 10**12}, "1,000,000,000,000 500.00 pieces is more than the books can hold"),
    # fewer pieces than a line holds, but worth 1,000,000,000,000.00
    ({"500.00": 2_000_000_000}, "cash 1,000,000,000,000.00 is more than the largest amount"),
    ({"500.00": -1}, "must be a whole number of zero or more, not -1"),
    ({"500.00": "3"}, "must be a whole number of zero or more, not '3'"),
    ({"500.00": 2.0}, "must be a whole number of zero or more, not 2.0"),
    ({"500.001": 1}, "is not an amount with at most two decimals"),
]


@pytest.mark.parametrize(("counts", "refused"), COUNTS)
def test_a_count_fits_the_pieces_and_money_columns_or_is_refused_naming_the_field(
        counts: dict[str, Any], refused: str | None) -> None:
    if refused is None:
        assert parse_counts(counts, field="cash") == {Decimal("0.01"): MOST_PIECES}
        return
    with pytest.raises(InvalidCommand) as error:
        parse_counts(counts, field="cash")
    assert refused in error.value.message
    assert error.value.extra["field"].startswith("cash")


# --- finding 8: the huge opening count, through the API and the web admin ------------------------


def test_a_huge_opening_count_is_a_400_naming_the_field_and_records_nothing(
        cages: None) -> None:
    ana = client_for("ana", Role.CASHIER)
    before = StoredEvent.objects.count()
    huge = ana.post(f"{BASE}/shifts/", {"cage": "w1", "cash": {"500.00": 10**12}},
                    format="json")
    assert huge.status_code == 400
    error = error_of(huge)
    assert error["extra"]["field"] == "cash"
    assert "more than the books can hold" in error["message"]
    worth_too_much = ana.post(f"{BASE}/shifts/", {"cage": "w1", "cash": {"500.00": 1_999_999_999},
                                                  "chips": {"main": {"100.00": 10}}},
                              format="json")
    assert worth_too_much.status_code == 400  # 999,999,999,500.00 cash and 1,000.00 of chips
    assert "more than the largest amount the books hold" in error_of(worth_too_much)["message"]
    assert StoredEvent.objects.count() == before


def test_a_huge_opening_count_on_the_web_admin_is_a_form_error(cages: None) -> None:
    web = browser("ana", Role.CASHIER)
    before = StoredEvent.objects.count()
    page = web.post(f"/cage/{CASINO}/", {"cage": "w1", "blind": "1",
                                         "cash-500.00": "1000000000000",
                                         "idempotency_key": "huge"})
    assert page.status_code == 400  # the overview again, the count as typed
    assert 'name="cash-500.00" value="1000000000000"' in page.content.decode()
    assert "cash: 1,000,000,000,000 500.00 pieces is more than the books can hold" in (
        page.content.decode())
    assert StoredEvent.objects.count() == before


# --- each family of entry points: the cage, the pit, the jackpots ----------------------------

CAGE_MINIMUMS = [(BIGGEST, 201, None), (TOO_BIG, 400, "minimum_cash"),
                 ("100.001", 400, "minimum_cash"), ("-1.00", 400, "minimum_cash"),
                 ("lots", 400, "minimum_cash")]


@pytest.mark.parametrize(("minimum", "status", "field"), CAGE_MINIMUMS)
def test_the_cage_api_checks_amounts_at_the_edge(casino: Casino, minimum: str, status: int,
                                                 field: str | None) -> None:
    admin = client_for("admin", Role.ADMINISTRATOR)
    created = admin.post(f"{BASE}/cages/", {"code": "w9", "name": "Window 9", "kind": "window",
                                            "minimum_cash": minimum}, format="json")
    assert created.status_code == status, created.json()
    if field is None:
        assert Cage.objects.get(code="w9").minimum_cash == Decimal(BIGGEST)
    else:
        assert error_of(created)["extra"]["field"] == field
        assert not Cage.objects.filter(code="w9").exists()


def test_the_cage_api_checks_piece_counts_at_the_edge(window: str) -> None:
    ana = client_for("ana", Role.CASHIER)
    before = StoredEvent.objects.count()
    sale = ana.post(f"{BASE}/shifts/{window}/chip-sales/",
                    {"amount": "5.00", "chips": {"5.00": MOST_PIECES + 1}, "cash": {"5.00": 1}},
                    format="json")
    assert sale.status_code == 400
    assert error_of(sale)["extra"]["field"] == "chips"
    count = ana.post(f"{BASE}/shifts/{window}/count/",
                     {"cash": {"500.00": 10**15}, "chips": {}}, format="json")
    assert count.status_code == 400
    assert error_of(count)["extra"]["field"] == "cash"
    assert StoredEvent.objects.count() == before


@pytest.mark.parametrize(("amount", "refused"), [
    ("25.001", "amount '25.001' is not an amount with at most two decimals"),
    ("-25.00", "amount cannot be negative (-25.00)"),
    (25.5, "must be written as a string"),
    ("0.00", "amount must be more than zero"),
])
def test_the_cage_api_parses_a_sale_amount_before_the_service(window: str, amount: object,
                                                               refused: str) -> None:
    """The amount is parsed once, by the API's field: the same refusal the service gave."""
    ana = client_for("ana", Role.CASHIER)
    before = StoredEvent.objects.count()
    sale = ana.post(f"{BASE}/shifts/{window}/chip-sales/",
                    {"amount": amount, "chips": {"5.00": 5}, "cash": {"5.00": 5}}, format="json")
    assert sale.status_code == 400
    error = error_of(sale)
    assert (error["code"], error["extra"]["field"]) == ("invalid", "amount")
    assert refused in error["message"]
    assert StoredEvent.objects.count() == before


def test_the_web_count_form_checks_piece_counts_at_the_edge(window: str) -> None:
    web: Client = browser("ana", Role.CASHIER)
    before = StoredEvent.objects.count()
    page = web.post(f"/cage/{CASINO}/shifts/{window}/count/",
                    {"cash-500.00": str(10**15), "idempotency_key": "k"})
    assert page.status_code == 200  # the form again, with the error
    assert "more than the books can hold" in page.content.decode()
    assert StoredEvent.objects.count() == before


PIT_DROPS = [(BIGGEST, None), (TOO_BIG, "more than the largest amount the books hold"),
             ("5.001", "at most two decimals"), ("-5.00", "cannot be negative"),
             ("five", "is not an amount")]


@pytest.mark.parametrize(("amount", "refused"), PIT_DROPS)
def test_the_pit_checks_amounts_at_the_edge(pit: Pit, amount: str, refused: str | None,
                                           identified_patron: Any) -> None:
    # the largest amount is a buy-in the law asks an identified patron for (docs/patrons.md)
    patron = identified_patron(CASINO) if refused is None else None
    before = StoredEvent.objects.count()
    if refused is None:
        sessions.drop_record(session_id=pit.session_id, amount=amount, patron=patron,
                             metadata=paulo())
        # the buy-in, and the large-transaction alert it raises for the compliance officer
        # (50,000.00 or more by an identified patron in Portugal: docs/patrons.md, issue 34)
        assert StoredEvent.objects.count() == before + 2
        return
    with pytest.raises(InvalidCommand) as error:
        sessions.drop_record(session_id=pit.session_id, amount=amount, metadata=paulo())
    assert refused in error.value.message
    assert error.value.extra["field"] == "amount"
    assert StoredEvent.objects.count() == before


def test_the_pit_checks_piece_counts_at_the_edge(pit: Pit) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand) as error:
        sessions.fill_request(session_id=pit.session_id, slip="F-9",
                              chips={"100.00": MOST_PIECES + 1}, metadata=paulo())
    assert error.value.extra["field"] == "chips"
    assert "more than the books can hold" in error.value.message
    assert StoredEvent.objects.count() == before


def test_a_total_too_large_for_its_column_is_refused_not_a_500(casino: Casino) -> None:
    """The edge refuses every single figure; a total grown past its column over many movements
    comes back from PostgreSQL as numeric_value_out_of_range: refused, nothing recorded."""
    before = StoredEvent.objects.count()

    def overflowing() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT %s::integer + 1", [MOST_PIECES])

    with pytest.raises(InvalidCommand) as error:
        run_command(command="test_overflow", metadata=carla(), payload={},
                    handler=overflowing)
    assert error.value.code == "out_of_range"
    assert "larger than the books can hold" in error.value.message
    assert StoredEvent.objects.count() == before


@pytest.mark.parametrize(("maximum", "refused"), [
    (TOO_BIG, "straight: 1,000,000,000,000.00 is more than the largest amount the books hold"),
    ("1e40", "is more than the largest amount the books hold"),
    ("10.001", "is not a positive amount with at most two decimals"),
])
def test_the_pit_checks_table_limits_at_the_edge(casino: Casino, maximum: str,
                                                 refused: str) -> None:
    limits = default_limits("french_roulette", Decimal("1.00"))
    limits["straight"]["max"] = maximum
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand) as error:
        tables.table_configure(casino=CASINO, code="r9", name="Roulette 9",
                               game="french_roulette", seats=8, chip_set="main", limits=limits,
                               metadata=paulo())
    assert refused in error.value.message
    assert error.value.extra["field"] == "limits"
    assert StoredEvent.objects.count() == before


def test_the_pit_checks_colour_chips_at_the_edge(pit: Pit) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(InvalidCommand) as error:
        sessions.colour_chips_issue(session_id=pit.session_id, colour="red", player="P-a002",
                                    chip_value="1.00", chips=MOST_PIECES + 1, metadata=paulo())
    assert error.value.extra["field"] == "chips"
    assert "more than the books can hold" in error.value.message
    assert StoredEvent.objects.count() == before
