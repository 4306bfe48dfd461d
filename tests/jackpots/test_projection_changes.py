"""The jackpot projection's handlers as plain functions: a typed event and its recorded envelope
in, row changes out (``eventstore.changes``), with the figures worked out by hand. Those
that read the pool are given a ``Reader`` over a ``Writer`` (and the database); the others need
nothing. Last, a rebuild of one casino's jackpot rows that leaves another casino's untouched."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

import pytest

import eventstore
from casino.context import person_metadata, system_metadata
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from eventstore.changes import Change, Insert, Sql, Update, Upsert
from eventstore.events import Event
from eventstore.records import RecordedEvent
from eventstore.store import append
from eventstore.writer import Reader, Writer
from jackpots import events as ev
from jackpots.models import (
    METERS,
    JackpotConfigVersion,
    JackpotCoup,
    JackpotMeterReading,
    JackpotPool,
    JackpotPrize,
    JackpotTable,
)
from jackpots.projections import JackpotProjection

from .conftest import BLACKJACK_PAYTABLE, CASINO, DENOMINATIONS, PoolMaker, TableMaker, admin

D = Decimal
AT = dt.datetime(2024, 5, 17, 21, 30, tzinfo=dt.UTC)
POOL = "bj-1"
KEY = {"casino_id": CASINO, "pool_id": POOL}
projection = JackpotProjection()


def recorded(event: Event, *, version: int, position: int = 500,
             actor: str = "gestor") -> RecordedEvent:
    """``event`` as recorded on the pool's stream (made-up envelope)."""
    return RecordedEvent(
        position=position, stream=f"jackpot/{CASINO}.{POOL}", version=version,
        event_type=event.event_type, schema_version=event.schema_version,
        data=event.to_data(), metadata={"actor": actor, "role": "administrator",
                                        "casino": CASINO},
        recorded_at=AT, prev_hash="0" * 64, hash="f" * 64)


def reading(version: int, position: int, event_type: str, change: str, meters: dict[str, Any],
            *, round_id: str = "", table: str = "") -> Insert:
    return Insert(JackpotMeterReading, dict(
        KEY, version=version, position=position, recorded_at=AT, event_type=event_type,
        round_id=round_id, table=table, change=D(change), **meters))


# The pool as it stands before the events of the tests that read it: created 2024-03-01, grown
# by seven coups of blackjack (80 % to the pool, 10 % to the reserve), one two-aces prize paid.
METERS_BEFORE: dict[str, Any] = {
    "amount": D("12345.67"), "reserve": D("100.00"), "coups": 7, "bets_count": 20,
    "bets_amount": D("20.00"), "contributions": D("16.00"), "reserve_contributions": D("2.00"),
    "diverted": D("0.00"), "retained": D("2.00"), "hits": 1, "wins": D("25.00"),
    "prizes_unpaid": D("0.00"), "resets": 0, "seeded": D("10000.00"),
    "seeded_by_casino": D("10000.00"), "reserve_draws": D("0.00"), "corrections": D("2354.67"),
    "reserve_corrections": D("98.00"),
}


def after(**changed: Any) -> dict[str, Any]:
    """Every meter: ``METERS_BEFORE`` with ``changed`` (whole figures, worked out by hand)."""
    return {**METERS_BEFORE, **changed}


@pytest.fixture
def pool_row(casino: str) -> None:
    """The pool's row in the database, at version 8 of its stream (in a casino registered:
    ``JackpotPool``'s ordering joins the casino)."""
    JackpotPool.objects.create(
        **KEY, name="Blackjack", game="blackjack", tables=["bj1", "bj2"], bet=D("1.00"),
        increment_percent=D("80"), start=D("10000.00"), paytable=BLACKJACK_PAYTABLE,
        reserve_percent=D("10"), cap=None, approved_on=dt.date(2024, 3, 1),
        approval_reference="IGJ 123/2024", paytable_approved_on=dt.date(2024, 3, 1),
        paytable_approval_reference="IGJ 123/2024", config_version=1,
        created_at=dt.datetime(2024, 3, 1, 10, tzinfo=dt.UTC), version=8, **METERS_BEFORE)


@pytest.fixture
def reader(pool_row: None) -> Reader:
    """A reader over a fresh writer, the pool's row in the database."""
    return Reader(Writer())


def changes_of(handler: Any, event: Event, rec: RecordedEvent, reader: Reader | None = None
               ) -> list[Change]:
    made = handler(event, rec) if reader is None else handler(event, rec, reader=reader)
    return list(made)


def pool_meters() -> dict[str, Any]:
    row = JackpotPool.objects.filter(**KEY).values(*METERS).get()
    return dict(row)


# --- handlers that read nothing ---------------------------------------------------------------


def test_a_pool_created_is_its_row_its_tables_and_configuration_1() -> None:
    event = ev.JackpotPoolCreated(
        pool_id=POOL, casino=CASINO, name="Blackjack", game="blackjack", tables=("bj1", "bj2"),
        bet=D("1.00"), increment_percent=D("80"), start=D("10000.00"),
        paytable=tuple(BLACKJACK_PAYTABLE), reserve_percent=D("0"), cap=D("50000.00"),
        approved_on=dt.date(2024, 3, 1), approval_reference="IGJ 123/2024")
    pool = dict(
        KEY, name="Blackjack", game="blackjack", tables=["bj1", "bj2"],
        approved_on=dt.date(2024, 3, 1), approval_reference="IGJ 123/2024",
        paytable_approved_on=dt.date(2024, 3, 1), paytable_approval_reference="IGJ 123/2024",
        config_version=1, created_at=AT, version=1, bet=D("1.00"), increment_percent=D("80"),
        start=D("10000.00"), paytable=BLACKJACK_PAYTABLE, reserve_percent=D("0"),
        cap=D("50000.00"))
    assert changes_of(projection.created, event, recorded(event, version=1, position=41)) == [
        Insert(JackpotPool, pool),
        Upsert(JackpotTable, {"casino_id": CASINO, "table": "bj1"}, values={"pool_id": POOL}),
        Upsert(JackpotTable, {"casino_id": CASINO, "table": "bj2"}, values={"pool_id": POOL}),
        Insert(JackpotConfigVersion, dict(
            KEY, version=1, config={
                "jackpot": {"bet": "1.00", "increment_percent": "80", "start": "10000.00",
                            "paytable": BLACKJACK_PAYTABLE},
                "reserve_percent": "0", "cap": "50000.00", "tables": ["bj1", "bj2"]},
            event_type="JackpotPoolCreated", changed=["created"],
            approved_on=dt.date(2024, 3, 1), approval_reference="IGJ 123/2024", reason="",
            recorded_by="gestor", effective_at=AT, position=41)),
    ]


def test_a_coup_settled_is_its_row_and_the_pools_stream_version() -> None:
    event = ev.JackpotCoupSettled(
        pool_id=POOL, round_id="r-77", table="bj1", config_version=2,
        request={"game": "blackjack", "pool": "12345.67", "bets": []},
        result={"pool_after": "12347.27"}, seats={"seat1": {"seat": 1, "player": "P-a002"}})
    assert changes_of(projection.coup_settled, event,
                      recorded(event, version=12, position=903, actor="paulo")) == [
        Insert(JackpotCoup, dict(
            KEY, round_id="r-77", table="bj1", config_version=2,
            request={"game": "blackjack", "pool": "12345.67", "bets": []},
            result={"pool_after": "12347.27"}, seats={"seat1": {"seat": 1, "player": "P-a002"}},
            settled_at=AT, settled_by="paulo", position=903)),
        Update(JackpotPool, KEY, set={"version": 12}),
    ]


# --- handlers that read the pool ----------------------------------------------------------------


@pytest.mark.django_db
def test_two_chips_of_1_00_at_80_percent_move_the_pool_by_1_60(reader: Reader) -> None:
    # 2 x 1.00 staked: 80 % = 1.60 to the pool, 10 % = 0.20 to the reserve, 0.20 retained.
    event = ev.JackpotContributed(
        pool_id=POOL, round_id="r-1", table="bj1", config_version=1,
        bets=({"bet_id": "a", "seat": 1, "player": "P-a002", "amount": "1.00", "to_pool": "0.80",
               "to_reserve": "0.10", "diverted": "0.00"},
              {"bet_id": "b", "seat": 2, "player": "P-a003", "amount": "1.00", "to_pool": "0.80",
               "to_reserve": "0.10", "diverted": "0.00"}),
        amount=D("2.00"), to_pool=D("1.60"), to_reserve=D("0.20"), diverted=D("0.00"),
        retained=D("0.20"), pool_after=D("12347.27"), reserve_after=D("100.20"))
    made = changes_of(projection.contributed, event, recorded(event, version=9, position=600),
                      reader)
    assert made == [
        Update(JackpotPool, KEY, set={"version": 9}, add={
            "amount": D("1.60"), "reserve": D("0.20"), "coups": 1, "bets_count": 2,
            "bets_amount": D("2.00"), "contributions": D("1.60"),
            "reserve_contributions": D("0.20"), "diverted": D("0.00"), "retained": D("0.20")}),
        reading(9, 600, "JackpotContributed", "1.60", after(
            amount=D("12347.27"), reserve=D("100.20"), coups=8, bets_count=22,
            bets_amount=D("22.00"), contributions=D("17.60"), reserve_contributions=D("2.20"),
            retained=D("2.20")), round_id="r-1", table="bj1"),
    ]
    writer = Writer()
    writer.add(made)
    writer.flush()
    assert pool_meters() == after(
        amount=D("12347.27"), reserve=D("100.20"), coups=8, bets_count=22,
        bets_amount=D("22.00"), contributions=D("17.60"), reserve_contributions=D("2.20"),
        retained=D("2.20"))


@pytest.mark.django_db
def test_a_hit_takes_the_prize_off_the_pool_and_owes_it(reader: Reader) -> None:
    event = ev.JackpotHit(
        pool_id=POOL, prize_id="p-1", round_id="r-2", table="bj2", bet_id="seat3", seat=3,
        player="P-a003", combination="three_aces", top=False, amount=D("250.00"),
        nominal=D("250.00"), winners=1, pool_before=D("12345.67"), pool_after=D("12095.67"))
    assert changes_of(projection.hit, event, recorded(event, version=9, position=610),
                      reader) == [
        Update(JackpotPool, KEY, set={"last_hit_at": AT, "version": 9}, add={
            "amount": D("-250.00"), "hits": 1, "wins": D("250.00"),
            "prizes_unpaid": D("250.00")}),
        reading(9, 610, "JackpotHit", "-250.00", after(
            amount=D("12095.67"), hits=2, wins=D("275.00"), prizes_unpaid=D("250.00")),
            round_id="r-2", table="bj2"),
        Insert(JackpotPrize, dict(
            prize_id="p-1", **KEY, round_id="r-2", table="bj2", bet_id="seat3", seat=3,
            player="P-a003", combination="three_aces", top=False, amount=D("250.00"),
            pool_before=D("12345.67"), pool_after=D("12095.67"), hit_at=AT, position=610)),
    ]


@pytest.mark.django_db
def test_a_prize_paid_moves_only_what_is_owed(reader: Reader) -> None:
    JackpotPool.objects.filter(**KEY).update(prizes_unpaid=D("275.00"))
    event = ev.JackpotPrizePaid(
        pool_id=POOL, prize_id="p-1", round_id="r-2", seat=3, player="P-a003", amount=D("250.00"),
        payout_id="po-9", shift_id="sh-4")
    assert changes_of(projection.prize_paid, event,
                      recorded(event, version=10, position=700, actor="ana"), reader) == [
        Update(JackpotPool, KEY, set={"version": 10}, add={"prizes_unpaid": D("-250.00")}),
        reading(10, 700, "JackpotPrizePaid", "0.00", after(prizes_unpaid=D("25.00")),
                round_id="r-2"),
        Update(JackpotPrize, {"prize_id": "p-1"}, add={"paid_amount": D("250.00")}, set={
            "paid": True, "paid_at": AT, "payout_id": "po-9", "shift_id": "sh-4",
            "paid_by": "ana"}),
    ]


@pytest.mark.django_db
def test_an_instalment_leaves_the_rest_of_the_prize_owed(reader: Reader) -> None:
    # 100.00 of a 250.00 prize: 150.00 still owed, so the prize is not paid in full.
    JackpotPool.objects.filter(**KEY).update(prizes_unpaid=D("275.00"))
    event = ev.JackpotPrizePaid(
        pool_id=POOL, prize_id="p-1", round_id="r-2", seat=3, player="P-a003", amount=D("100.00"),
        payout_id="po-9", shift_id="sh-4", owed_after=D("150.00"))
    assert changes_of(projection.prize_paid, event,
                      recorded(event, version=10, position=700, actor="ana"), reader) == [
        Update(JackpotPool, KEY, set={"version": 10}, add={"prizes_unpaid": D("-100.00")}),
        reading(10, 700, "JackpotPrizePaid", "0.00", after(prizes_unpaid=D("175.00")),
                round_id="r-2"),
        Update(JackpotPrize, {"prize_id": "p-1"}, add={"paid_amount": D("100.00")}, set={
            "paid": False, "paid_at": AT, "payout_id": "po-9", "shift_id": "sh-4",
            "paid_by": "ana"}),
    ]


@pytest.mark.django_db
def test_a_reset_restarts_the_pool_from_the_reserve_first(reader: Reader) -> None:
    # The reserve's 100.00 funds part of the 10,000.00 start, the casino the other 9,900.00.
    event = ev.JackpotReset(
        pool_id=POOL, round_id="r-3", table="bj1", start=D("10000.00"), leftover=D("0.00"),
        from_reserve=D("100.00"), from_casino=D("9900.00"), pool_after=D("22345.67"),
        reserve_after=D("0.00"))
    assert changes_of(projection.reset, event, recorded(event, version=9, position=620),
                      reader) == [
        Update(JackpotPool, KEY, set={"version": 9}, add={
            "amount": D("10000.00"), "reserve": D("-100.00"), "resets": 1,
            "seeded": D("10000.00"), "seeded_by_casino": D("9900.00"),
            "reserve_draws": D("100.00")}),
        reading(9, 620, "JackpotReset", "10000.00", after(
            amount=D("22345.67"), reserve=D("0.00"), resets=1, seeded=D("20000.00"),
            seeded_by_casino=D("19900.00"), reserve_draws=D("100.00")),
            round_id="r-3", table="bj1"),
    ]


@pytest.mark.django_db
def test_a_seed_and_corrections_of_either_meter(reader: Reader) -> None:
    seed = ev.JackpotSeeded(pool_id=POOL, amount=D("500.00"), from_casino=D("450.00"),
                            from_reserve=D("50.00"), pool_after=D("12845.67"),
                            reserve_after=D("50.00"))
    assert changes_of(projection.seeded, seed, recorded(seed, version=9, position=630),
                      reader)[1] == reading(9, 630, "JackpotSeeded", "500.00", after(
                          amount=D("12845.67"), reserve=D("50.00"), seeded=D("10500.00"),
                          seeded_by_casino=D("10450.00"), reserve_draws=D("50.00")))

    down = ev.JackpotMeterCorrected(
        pool_id=POOL, meter="pool", direction="down", amount=D("0.67"), before=D("12345.67"),
        after=D("12345.00"), reason="miscount", requested_by="gestor", approved_by="chefe")
    assert changes_of(projection.corrected, down, recorded(down, version=9, position=640),
                      reader) == [
        Update(JackpotPool, KEY, set={"version": 9},
               add={"amount": D("-0.67"), "corrections": D("-0.67")}),
        reading(9, 640, "JackpotMeterCorrected", "-0.67",
                after(amount=D("12345.00"), corrections=D("2354.00"))),
    ]
    up = ev.JackpotMeterCorrected(
        pool_id=POOL, meter="reserve", direction="up", amount=D("5.00"), before=D("100.00"),
        after=D("105.00"), reason="carried over", requested_by="gestor", approved_by="chefe")
    assert changes_of(projection.corrected, up, recorded(up, version=9, position=650),
                      reader) == [
        Update(JackpotPool, KEY, set={"version": 9},
               add={"reserve": D("5.00"), "reserve_corrections": D("5.00")}),
        reading(9, 650, "JackpotMeterCorrected", "0.00",  # the pool itself did not move
                after(reserve=D("105.00"), reserve_corrections=D("103.00"))),
    ]


@pytest.mark.django_db
def test_new_parameters_are_the_next_configuration(reader: Reader) -> None:
    event = ev.JackpotParametersChanged(
        pool_id=POOL, config_version=2, changed=("bet", "start", "cap"), bet=D("2.00"),
        increment_percent=D("80"), start=D("20000.00"), paytable=tuple(BLACKJACK_PAYTABLE),
        reserve_percent=D("10"), cap=D("60000.00"), approved_on=dt.date(2024, 6, 1),
        approval_reference="IGJ 200/2024", reason="bigger chips")
    parameters = dict(bet=D("2.00"), increment_percent=D("80"), start=D("20000.00"),
                      paytable=BLACKJACK_PAYTABLE, reserve_percent=D("10"), cap=D("60000.00"))
    assert changes_of(projection.parameters_changed, event,
                      recorded(event, version=9, position=660), reader) == [
        # the paytable did not change: its approval stays that of 2024-03-01
        Update(JackpotPool, KEY, set=dict(
            parameters, approved_on=dt.date(2024, 6, 1), approval_reference="IGJ 200/2024",
            config_version=2, version=9)),
        Insert(JackpotConfigVersion, dict(
            KEY, version=2, config={
                "jackpot": {"bet": "2.00", "increment_percent": "80", "start": "20000.00",
                            "paytable": BLACKJACK_PAYTABLE},
                "reserve_percent": "10", "cap": "60000.00", "tables": ["bj1", "bj2"]},
            event_type="JackpotParametersChanged", changed=["bet", "start", "cap"],
            approved_on=dt.date(2024, 6, 1), approval_reference="IGJ 200/2024",
            reason="bigger chips", recorded_by="gestor", effective_at=AT, position=660)),
    ]


@pytest.mark.django_db
def test_tables_changed_unlink_the_removed_link_the_added(reader: Reader) -> None:
    event = ev.JackpotTablesChanged(pool_id=POOL, config_version=2, tables=("bj2", "bj3"),
                                    added=("bj3",), removed=("bj1",), reason="bj1 closed")
    assert changes_of(projection.tables_changed, event,
                      recorded(event, version=9, position=670), reader) == [
        Update(JackpotPool, KEY, set={"tables": ["bj2", "bj3"], "config_version": 2,
                                      "version": 9}),
        Sql('DELETE FROM "jackpots_jackpottable" WHERE casino_id = %s AND pool_id = %s AND '
            '"table" IN (%s)', [CASINO, POOL, "bj1"]),
        Upsert(JackpotTable, {"casino_id": CASINO, "table": "bj3"}, values={"pool_id": POOL}),
        # the parameters as the database holds them (80.0000 %, 10.0000 %), written as the
        # configuration always writes them
        Insert(JackpotConfigVersion, dict(
            KEY, version=2, config={
                "jackpot": {"bet": "1.00", "increment_percent": "80", "start": "10000.00",
                            "paytable": BLACKJACK_PAYTABLE},
                "reserve_percent": "10", "cap": None, "tables": ["bj2", "bj3"]},
            event_type="JackpotTablesChanged", changed=["tables"], approved_on=None,
            approval_reference="", reason="bj1 closed", recorded_by="gestor",
            effective_at=AT, position=670)),
    ]


@pytest.mark.django_db
def test_a_coup_in_one_append_reads_the_pool_as_each_event_left_it(pool_row: None) -> None:
    """Contribution, top prize, reset and the coup through one writer, as in one append: each
    reading sees the meters the events before it left, written or still pending."""
    writer = Writer()
    batch = Reader(writer)
    contributed = ev.JackpotContributed(
        pool_id=POOL, round_id="r-4", table="bj1", config_version=1,
        bets=({"bet_id": "a", "seat": 1, "player": "P-a002", "amount": "1.00", "to_pool": "0.80",
               "to_reserve": "0.10", "diverted": "0.00"},),
        amount=D("1.00"), to_pool=D("0.80"), to_reserve=D("0.10"), diverted=D("0.00"),
        retained=D("0.10"), pool_after=D("12346.47"), reserve_after=D("100.10"))
    hit = ev.JackpotHit(
        pool_id=POOL, prize_id="p-top", round_id="r-4", table="bj1", bet_id="a", seat=1,
        player="P-a002", combination="four_aces_suited", top=True, amount=D("12346.47"),
        nominal=D("12346.47"), winners=1, pool_before=D("12346.47"), pool_after=D("0.00"))
    reset = ev.JackpotReset(
        pool_id=POOL, round_id="r-4", table="bj1", start=D("10000.00"), leftover=D("0.00"),
        from_reserve=D("100.10"), from_casino=D("9899.90"), pool_after=D("10000.00"),
        reserve_after=D("0.00"))
    for version, (handler, event) in enumerate(
            [(projection.contributed, contributed), (projection.hit, hit),
             (projection.reset, reset)], start=9):
        writer.add(changes_of(handler, event, recorded(event, version=version,
                                                       position=800 + version), batch))
    writer.flush()
    final = after(amount=D("10000.00"), reserve=D("0.00"), coups=8, bets_count=21,
                  bets_amount=D("21.00"), contributions=D("16.80"),
                  reserve_contributions=D("2.10"), retained=D("2.10"), hits=2,
                  wins=D("12371.47"), prizes_unpaid=D("12346.47"), resets=1,
                  seeded=D("20000.00"), seeded_by_casino=D("19899.90"),
                  reserve_draws=D("100.10"))
    assert pool_meters() == final
    readings = list(JackpotMeterReading.objects.filter(**KEY).order_by("version")
                    .values_list("version", "change", "amount", "reserve", "wins"))
    assert readings == [
        (9, D("0.80"), D("12346.47"), D("100.10"), D("25.00")),
        (10, D("-12346.47"), D("0.00"), D("100.10"), D("12371.47")),
        (11, D("10000.00"), D("10000.00"), D("0.00"), D("12371.47")),
    ]
    last = JackpotMeterReading.objects.filter(**KEY, version=11).values(*METERS).get()
    assert dict(last) == final
    pool = JackpotPool.objects.get(**KEY)
    assert (pool.version, pool.last_hit_at) == (11, AT)


# --- a rebuild of one casino --------------------------------------------------------------------

OTHER = "porto"


def _other_casino_pool() -> str:
    """Casino ``OTHER`` with a blackjack table and a pool that has had a coup with a prize."""
    from games.limits import default_limits
    from games.services import table_configure
    from jackpots.services import jackpot_coup_settle, jackpot_pool_create

    casino_register(code=OTHER, name="Casino Porto", currency="EUR", time_zone="Europe/Lisbon",
                    gaming_day_closes_at=6, metadata=system_metadata(OTHER, job="test"))
    chip_set_register(casino=OTHER, code="main", name="Value chips",
                      denominations=DENOMINATIONS, metadata=system_metadata(OTHER, job="test"))
    boss = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=OTHER)
    table_configure(casino=OTHER, code="p-bj", name="P-BJ", game="blackjack", options={},
                    seats=7, chip_set="main", limits=default_limits("blackjack", D("5"), {}),
                    metadata=boss)
    jackpot_pool_create(casino=OTHER, pool_id="porto-bj", name="Porto", game="blackjack",
                        tables=["p-bj"], bet=Decimal("1.00"), increment_percent="80", start=Decimal("10000.00"),
                        paytable=BLACKJACK_PAYTABLE, approved_on="2024-03-01",
                        approval_reference="IGJ 9/2024", metadata=boss)
    jackpot_coup_settle(pool_id="porto-bj", round_id=str(uuid.uuid4()), table="p-bj",
                        bets=[{"seat": 2, "player": "P-a008", "amount": "1.00",
                               "cards": ["AD", "AC"]}],
                        metadata=person_metadata(username="paulo", role=Role.PIT_BOSS,
                                                 casino=OTHER))
    return "porto-bj"


MODELS = JackpotProjection.models


def rows_of(casino: str, *, ids: bool) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for model in MODELS:
        rows = [dict(r) for r in model._default_manager.filter(casino_id=casino).values()]
        if not ids:
            for r in rows:
                r.pop("id", None)
        out[model.__name__] = sorted(rows, key=repr)
    return out


@pytest.mark.django_db
def test_rebuilding_one_casino_leaves_the_others_jackpot_rows_untouched(
        make_pool: PoolMaker, make_table: TableMaker) -> None:
    from jackpots.services import (
        jackpot_coup_settle,
        jackpot_pool_change,
        jackpot_pool_set_tables,
    )

    other_pool = _other_casino_pool()
    pool_id = make_pool("blackjack", reserve_percent="10")
    first = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id).tables[0]
    second = make_table("blackjack", "bj-second")
    jackpot_pool_set_tables(casino=CASINO, pool_id=pool_id, tables=[second], reason="moved",
                            metadata=admin())
    jackpot_pool_set_tables(casino=CASINO, pool_id=pool_id, tables=[second, first],
                            reason="back", metadata=admin())
    jackpot_pool_change(casino=CASINO, pool_id=pool_id, approved_on="2024-04-01",
                        approval_reference="IGJ 124/2024", reserve_percent="5",
                        metadata=admin())
    round_id = str(uuid.uuid4())
    jackpot_coup_settle(pool_id=pool_id, round_id=round_id, table=first,
                        bets=[{"seat": 1, "player": "P-a002", "amount": "1.00",
                               "cards": ["AD", "AC"]},
                              {"seat": 4, "player": "P-a003", "amount": "1.00",
                               "cards": ["KD", "9C"]}],
                        metadata=person_metadata(username="paulo", role=Role.PIT_BOSS,
                                                 casino=CASINO))
    # The prize paid, as the cage's payment records it on the pool (the cage's own JackpotPaid
    # is the cage's projection's business, not this one's).
    prize = JackpotPrize.objects.get(casino_id=CASINO, pool_id=pool_id)
    pool = JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id)
    append(pool.stream, [ev.JackpotPrizePaid(
        pool_id=pool_id, prize_id=prize.prize_id, round_id=round_id, seat=1, player="P-a002",
        amount=prize.amount, payout_id="po-1", shift_id="sh-1")],
        expected_version=pool.version,
        metadata=person_metadata(username="ana", role=Role.CASHIER, casino=CASINO))

    # 2 x 1.00 at 80 % (5 % to the reserve) on 10,000.00: 10,001.60; two aces pay 25 x 1.00
    pool.refresh_from_db()
    assert (pool.amount, pool.reserve, pool.prizes_unpaid) == (D("9976.60"), D("0.10"), D("0"))
    assert pool.config_version == 4
    assert sorted(JackpotTable.objects.filter(casino_id=CASINO, pool_id=pool_id)
                  .values_list("table", flat=True)) == sorted([first, second])
    assert JackpotPrize.objects.get(prize_id=prize.prize_id).paid
    other_before = rows_of(OTHER, ids=True)
    assert all(other_before[m.__name__] for m in MODELS)  # a row of each kind there
    assert other_before["JackpotPool"][0]["pool_id"] == other_pool
    mine_before = rows_of(CASINO, ids=False)

    eventstore.rebuild(["jackpots"], casino=CASINO)

    assert rows_of(OTHER, ids=True) == other_before
    assert rows_of(CASINO, ids=False) == mine_before
    assert eventstore.check(["jackpots"]) == []
