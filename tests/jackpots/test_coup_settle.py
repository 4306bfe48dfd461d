"""The platform's own recording of a coup: ``jackpot_coup_settle`` -> events -> meters.

Every worked example of docs/jackpots.md with its figures; what each event carries; the
reserve and the cap; a change never applies to a round already open; one coup per round.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

import eventstore
from casino.errors import Conflict, InvalidCommand, NotAllowed
from eventstore import read_stream
from jackpots import selectors
from jackpots.answers import CoupSettleAnswer
from jackpots.models import JackpotCoup, JackpotPool, JackpotPrize
from jackpots.rules import pay_coup
from jackpots.services import (
    jackpot_coup_settle,
    jackpot_pool_change,
    jackpot_pool_create,
    jackpot_pool_set_tables,
)

from .conftest import (
    BLACKJACK,
    CASINO,
    EXAMPLES,
    STUD,
    admin,
    example_table_bets,
    pit,
)
from .meters import meter_correct

pytestmark = pytest.mark.django_db
D = Decimal


def jackpot_differences() -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    return list(eventstore.check(["jackpots"]))


def pool_of(pool_id: str) -> JackpotPool:
    return JackpotPool.objects.get(casino_id=CASINO, pool_id=pool_id)


def settle(pool_id: str, bets: list[dict[str, Any]], *, round_id: str | None = None,
           table: str | None = None, **kwargs: Any) -> CoupSettleAnswer:
    table = table or pool_of(pool_id).tables[0]
    return jackpot_coup_settle(pool_id=pool_id, round_id=round_id or str(uuid.uuid4()),
                               table=table, bets=bets, metadata=pit(), **kwargs)


# --- the worked examples ------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_example_recorded_by_the_platform(name: str, make_pool) -> None:
    example = EXAMPLES[name]
    expected = example["result"]
    pool_id = make_pool(example["game"], amount=example["pool"])
    before = pool_of(pool_id)
    rid = str(uuid.uuid4())

    answer = settle(pool_id, example_table_bets(name), round_id=rid)

    # the answer is the documented result (docs/jackpots.md § Worked examples)
    assert answer.result == expected
    # the events: contributions, one hit per winning bet (lowest combination first), the reset
    # after a top prize, the coup as data
    recorded = [r for r in read_stream(before.stream) if r.version > before.version]
    types = [r.event_type for r in recorded]
    winners = [b for b in expected["bets"] if b["prize"] != "0.00"]
    assert types == (["JackpotContributed"] + ["JackpotHit"] * len(winners)
                     + (["JackpotReset"] if expected["jackpot_won"] else [])
                     + ["JackpotCoupSettled"])
    contributed = recorded[0].data
    assert contributed["to_pool"] == expected["contributions"]
    assert contributed["pool_after"] == expected["pool_at_payment"]
    hits = [r.data for r in recorded if r.event_type == "JackpotHit"]
    assert sorted((h["bet_id"], h["amount"]) for h in hits) == sorted(
        (b["id"], b["prize"]) for b in winners)
    assert hits[-1]["pool_after"] == (
        recorded[-2].data["leftover"] if expected["jackpot_won"] else expected["pool_after"])
    # the meters
    pool = pool_of(pool_id)
    assert pool.amount == D(expected["pool_after"])
    assert pool.wins == D(expected["paid"])
    assert pool.hits == len(winners)
    assert pool.resets == (1 if expected["jackpot_won"] else 0)
    assert pool.contributions == D(expected["contributions"])
    assert pool.bets_count == len(expected["bets"])
    assert pool.prizes_unpaid == D(expected["paid"])
    # the prizes owed, each with its table, round and seat
    prizes = JackpotPrize.objects.filter(pool_id=pool_id)
    assert {(p.seat, p.combination, p.amount) for p in prizes} == {
        (int(b["id"].removeprefix("seat")), b["combination"], D(b["prize"])) for b in winners}
    assert {p.round_id for p in prizes} == {rid}
    # the recorded request recomputes to the recorded result
    coup = JackpotCoup.objects.get(pool_id=pool_id, round_id=rid)
    assert pay_coup(coup.request) == coup.result == expected
    assert jackpot_differences() == []


def test_example_a_meter_history_and_last_hits(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="52345.67")
    moment = timezone.now()
    rid = str(uuid.uuid4())
    settle(pool_id, example_table_bets("A"), round_id=rid)
    now = selectors.pool_meters(CASINO, pool_id)
    assert now["amount"] == "10000.00"
    assert now["resets"] == 1
    assert now["hits"] == 4
    then = selectors.pool_meters(CASINO, pool_id, as_of=moment)
    assert then["amount"] == "52345.67"
    assert then["hits"] == 0
    assert then["wins"] == "0.00"
    hits = selectors.hit_list(CASINO, pool_id)
    assert [h["combination"] for h in hits] == ["royal_flush", "four_of_a_kind", "flush", "flush"]
    assert {h["round_id"] for h in hits} == {rid}
    assert {h["table"] for h in hits} == {pool_of(pool_id).tables[0]}
    assert selectors.hit_list(CASINO, pool_id, as_of=moment) == []
    history = list(selectors.meter_history(CASINO, pool_id))
    assert [r.event_type for r in history][:2] == ["JackpotSeeded", "JackpotMeterCorrected"]
    assert history[-1].amount == D("10000.00")


# --- starting a pool ----------------------------------------------------------------------------


def test_a_start_value_below_10000_times_the_bet_is_refused_citing_the_article(make_table
                                                                               ) -> None:
    table = make_table("blackjack", "bj-low")
    with pytest.raises(InvalidCommand) as refused:
        jackpot_pool_create(
            casino=CASINO, pool_id="low", name="Low", game="blackjack", tables=[table],
            bet=Decimal("5.00"), increment_percent="80", start=Decimal("49999.99"),
            paytable=[{"combination": "four_aces", "pays": "jackpot"}],
            approved_on="2024-03-01", approval_reference="IGJ 1/2024", metadata=admin())
    assert refused.value.code == "start_below_minimum"
    assert "n.º 44" in refused.value.message
    assert "n.º 44" in refused.value.extra["article"]
    assert refused.value.extra["minimum"] == "50000.00"
    assert not JackpotPool.objects.exists()


def test_stud_poker_start_below_the_minimum_cites_its_own_article(make_table) -> None:
    table = make_table("stud_poker", "sp-low")
    with pytest.raises(InvalidCommand) as refused:
        jackpot_pool_create(
            casino=CASINO, pool_id="low", name="Low", game="stud_poker", tables=[table],
            bet=Decimal("1.00"), increment_percent="70", start=Decimal("9999.99"), paytable=STUD["paytable"],
            approved_on="2024-03-01", approval_reference="IGJ 1/2024", metadata=admin())
    assert refused.value.code == "start_below_minimum"
    assert "póquer sem descarte" in refused.value.extra["article"]
    assert "n.º 10" in refused.value.extra["article"]


def test_a_change_to_a_start_below_the_minimum_is_refused(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    with pytest.raises(InvalidCommand) as refused:
        jackpot_pool_change(casino=CASINO, pool_id=pool_id, bet=Decimal("2.00"), approved_on="2024-04-01",
                            approval_reference="IGJ 9/2024", metadata=admin())
    assert refused.value.code == "start_below_minimum"


def test_a_new_pool_is_funded_at_its_start_value(make_pool) -> None:
    pool = pool_of(make_pool("blackjack"))
    assert pool.amount == D("10000.00")
    assert pool.seeded == pool.seeded_by_casino == D("10000.00")
    assert pool.jackpot_option() == {"bet": "1.00", "increment_percent": "80",
                                     "start": "10000.00",
                                     "paytable": BLACKJACK["paytable"]}
    assert pool.paytable_approval_reference == "IGJ 123/2024"


def test_only_the_administrator_sets_up_a_pool(make_table) -> None:
    table = make_table("stud_poker", "sp-x")
    with pytest.raises(NotAllowed):
        jackpot_pool_create(
            casino=CASINO, pool_id="p", name="P", game="stud_poker", tables=[table], bet=Decimal("1.00"),
            increment_percent="70", start=Decimal("10000.00"), paytable=STUD["paytable"],
            approved_on="2024-03-01", approval_reference="IGJ", metadata=pit())


def test_a_table_feeds_one_pool_and_plays_its_game(make_pool, make_table) -> None:
    first = make_pool("stud_poker")
    table = pool_of(first).tables[0]
    with pytest.raises(Conflict) as taken:
        make_pool("stud_poker", tables=[table])
    assert taken.value.code == "table_feeds_another_pool"
    blackjack = make_table("blackjack", "bj-9")
    with pytest.raises(InvalidCommand):
        make_pool("stud_poker", tables=[blackjack])
    assert selectors.table_jackpot_option(CASINO, table) == pool_of(first).jackpot_option()
    assert selectors.table_jackpot_option(CASINO, blackjack) is None


# --- contributions: reserve and cap -------------------------------------------------------------


def test_the_reserve_takes_its_share_and_funds_the_next_reset(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="52345.67", reserve_percent="10")
    answer = settle(pool_id, example_table_bets("A"))
    assert answer.result == EXAMPLES["A"]["result"]  # the reserve changes none of the figures
    pool = pool_of(pool_id)
    # 5 chips x 0.10 into the reserve, then the reset draws all of it (0.50), the casino 9,999.50
    assert pool.reserve_contributions == D("0.50")
    assert pool.reserve_draws == D("0.50")
    assert pool.reserve == D("0.00")
    assert pool.seeded_by_casino == D("10000.00") + D("9999.50")
    assert pool.retained == D("5.00") - D("3.50") - D("0.50")
    reset = next(r.data for r in read_stream(pool.stream) if r.event_type == "JackpotReset")
    assert (reset["from_reserve"], reset["from_casino"]) == ("0.50", "9999.50")


def test_a_reserve_with_enough_in_it_funds_the_whole_restart(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="52345.67", reserve_percent="10")
    meter_correct(pool_id, meter="reserve", direction="up", amount="20000.00",
                  explanation="reserve carried over")
    settle(pool_id, example_table_bets("A"))
    pool = pool_of(pool_id)
    assert pool.amount == D("10000.00")
    assert pool.reserve == D("20000.50") - D("10000.00")
    assert pool.seeded_by_casino == D("10000.00")  # only the first start


def test_a_cap_diverts_contributions_to_the_reserve(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="30001.00", cap="30002.00")
    answer = settle(pool_id, example_table_bets("B"))
    # room for 1.00 under the cap: 0.70, then 0.30 of the second chip; 1.10 diverted
    assert answer.result["diverted"] == "1.10"
    assert answer.result["pool_at_payment"] == "30002.00"
    assert answer.result["pool_after"] == "26911.80"
    pool = pool_of(pool_id)
    assert pool.diverted == D(answer.result["diverted"])
    assert pool.reserve == pool.diverted
    coup = JackpotCoup.objects.get(pool_id=pool_id)
    assert coup.request["cap"] == "30002.00"
    assert pay_coup(coup.request) == coup.result


# --- parameter changes and open rounds ----------------------------------------------------------


def test_a_change_never_applies_to_a_round_already_open(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="30000.00")
    opened = timezone.now()
    jackpot_pool_change(casino=CASINO, pool_id=pool_id, bet=Decimal("2.00"), start=Decimal("20000.00"),
                        increment_percent="50", approved_on="2024-04-01",
                        approval_reference="IGJ 9/2024", reason="new chips", metadata=admin())
    # the round opened before the change: one chip of 1.00 at 70%
    old = settle(pool_id, example_table_bets("B"), opened_at=opened)
    assert old.result == EXAMPLES["B"]["result"]
    assert old.config_version == 1
    # a round opened after it: one chip of 2.00 at 50%, and a 1.00 chip is refused
    with pytest.raises(InvalidCommand) as refused:
        settle(pool_id, example_table_bets("B"))
    assert refused.value.code == "invalid_bet"
    bets = [dict(b, amount="2.00") for b in example_table_bets("B")]
    new = settle(pool_id, bets)
    assert new.config_version == 2
    assert new.result["contributions"] == "3.00"
    pool = pool_of(pool_id)
    assert (pool.bet, pool.start, pool.config_version) == (D("2.00"), D("20000.00"), 2)
    assert pool.approval_reference == "IGJ 9/2024"
    assert pool.paytable_approval_reference == "IGJ 123/2024"  # the paytable did not change
    history = list(selectors.pool_config_history(CASINO, pool_id))
    assert [h.changed for h in history] == [["created"], ["bet", "increment_percent", "start"]]


def test_a_paytable_change_carries_its_approval(make_pool) -> None:
    pool_id = make_pool("stud_poker")
    paytable = [{"combination": "royal_flush", "pays": "jackpot"},
                {"combination": "straight_flush", "pays": "20%"}]
    jackpot_pool_change(casino=CASINO, pool_id=pool_id, paytable=paytable,
                        approved_on="2024-05-02", approval_reference="IGJ 77/2024",
                        metadata=admin())
    pool = pool_of(pool_id)
    assert pool.paytable == paytable
    assert (pool.paytable_approved_on, pool.paytable_approval_reference) == (
        dt.date(2024, 5, 2), "IGJ 77/2024")
    with pytest.raises(InvalidCommand) as same:
        jackpot_pool_change(casino=CASINO, pool_id=pool_id, paytable=paytable,
                            approved_on="2024-05-02", approval_reference="x", metadata=admin())
    assert same.value.code == "no_change"


def test_a_table_added_later_feeds_only_rounds_opened_after(make_pool, make_table) -> None:
    pool_id = make_pool("stud_poker", amount="30000.00")
    opened = timezone.now()
    extra = make_table("stud_poker", "sp-extra")
    jackpot_pool_set_tables(casino=CASINO, pool_id=pool_id,
                            tables=[*pool_of(pool_id).tables, extra], metadata=admin())
    with pytest.raises(Conflict) as refused:
        settle(pool_id, example_table_bets("B"), table=extra, opened_at=opened)
    assert refused.value.code == "table_not_in_pool"
    settle(pool_id, example_table_bets("B"), table=extra)


# --- eligibility and once per round -------------------------------------------------------------


def test_one_chip_per_player_and_coup(make_pool) -> None:
    pool_id = make_pool("blackjack")
    bets = [{"seat": 1, "player": "P-a002", "amount": "1.00", "cards": ["AS", "AH"]},
            {"seat": 2, "player": "P-a002", "amount": "1.00", "cards": ["2S", "AH"]}]
    with pytest.raises(InvalidCommand) as refused:
        settle(pool_id, bets)
    assert refused.value.code == "one_chip_per_player"
    assert "n.º 47" in refused.value.extra["article"]


def test_a_back_bettor_has_a_chip_of_his_own_on_the_seat(make_pool) -> None:
    pool_id = make_pool("blackjack", amount="20000.00")
    bets = [{"seat": 1, "player": "P-a002", "amount": "1.00", "cards": ["AS", "AH"]},
            {"seat": 1, "player": "P-a003", "amount": "1.00", "cards": ["AS", "AH"]}]
    answer = settle(pool_id, bets)
    assert [b["prize"] for b in answer.result["bets"]] == ["25.00", "25.00"]  # JP-5


def test_a_round_is_paid_once(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="52345.67")
    rid = str(uuid.uuid4())
    first = settle(pool_id, example_table_bets("A"), round_id=rid)
    again = settle(pool_id, example_table_bets("A"), round_id=rid)
    assert again == first
    assert pool_of(pool_id).coups == 1
    assert pool_of(pool_id).amount == D("10000.00")


def test_an_invalid_coup_records_nothing(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="52345.67")
    version = pool_of(pool_id).version
    bets = example_table_bets("A")
    bets[1]["cards"] = ["2H", "5H", "9H", "JH", "XX"]
    with pytest.raises(InvalidCommand) as refused:
        settle(pool_id, bets)
    assert refused.value.code == "invalid_outcome"
    assert pool_of(pool_id).version == version


# --- corrections --------------------------------------------------------------------------------


def test_a_meter_goes_down_only_by_an_approved_correction_of_someone_else(make_pool) -> None:
    from casino.context import person_metadata
    from casino.models import Role
    from casino.services.approvals import approval_grant, approval_request

    pool_id = make_pool("stud_poker")
    down = {"kind": "jackpot_meter_correction", "subject": pool_id, "reason": "recording_error",
            "explanation": "miscount", "details": {"meter": "pool", "direction": "down",
                                                   "amount": "10.00"}}
    with pytest.raises(NotAllowed):  # a pit boss does not correct a pool (finding 6)
        approval_request(metadata=pit("chefe"), **down)
    asker = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino=CASINO)
    asked = approval_request(metadata=asker, **down)
    with pytest.raises(NotAllowed) as four_eyes:
        approval_grant(approval_id=asked.approval_id, metadata=asker)
    assert four_eyes.value.code == "four_eyes"
    assert pool_of(pool_id).amount == D("10000.00")
    with pytest.raises(Conflict):
        approval_request(metadata=asker, **dict(down, details={
            "meter": "pool", "direction": "down", "amount": "10000.01"}))
    approval_grant(approval_id=asked.approval_id, metadata=person_metadata(
        username="contabilista", role=Role.ACCOUNTANT, casino=CASINO))
    pool = pool_of(pool_id)
    assert pool.amount == D("9990.00")
    assert pool.corrections == D("-10.00")


def test_the_pit_may_hand_amounts_as_decimals_but_never_as_floats(make_pool) -> None:
    pool_id = make_pool("stud_poker", amount="30000.00")
    bets = [dict(b, amount=D("1.00")) for b in example_table_bets("B")]
    assert settle(pool_id, bets).result == EXAMPLES["B"]["result"]
    floats = [dict(b, amount=1.0) for b in example_table_bets("B")]
    with pytest.raises(InvalidCommand) as refused:
        settle(pool_id, floats)
    assert refused.value.code == "malformed"
