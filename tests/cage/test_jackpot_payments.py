"""Jackpots are paid only against a recorded hit (issue 13, finding 3: the cage paid 1,000.00 for
pool "x", round "y", and a ledger account for pool "x" appeared).

The cashier picks the hit; its pool, round and winner come from it; the cash and chips add up to
what is paid now; instalments add up to what the hit owes, never more; the ledger's
``jackpot_payable`` of the pool is what the hits owe less what was paid (docs/cage.md,
docs/jackpots.md § Paying a prize).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum
from django.test import Client
from rest_framework.test import APIClient

import eventstore
from casino.context import person_metadata, system_metadata
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.models import Membership, Role
from casino.money import parse_amount
from casino.services.casinos import casino_register
from eventstore import read_stream
from eventstore.models import StoredEvent
from jackpots.answers import PrizePayAnswer
from jackpots.models import JackpotPool, JackpotPrize
from jackpots.services import jackpot_prize_pay
from jackpots.services.payouts import NOT_A_HIT

from .conftest import CASINO, CHIP_SET, JACKPOT_POOL, Hit, ana, bruno, paulo, record_hit

pytestmark = pytest.mark.django_db
D = Decimal


def payable(pool_id: str) -> Decimal:
    """Credit less debit of the pool's ``jackpot_payable`` account in the journal."""
    from ledger.chart import account
    from ledger.models import JournalLine

    sums = JournalLine.objects.filter(
        casino_code=CASINO, account_code=account("jackpot_payable", pool_id).code).aggregate(
        debit=Sum("debit"), credit=Sum("credit"))
    return ((sums["credit"] or D(0)) - (sums["debit"] or D(0))).quantize(D("0.01"))


def accounts_of_pool(pool_id: str) -> int:
    from ledger.chart import account
    from ledger.models import JournalLine

    return JournalLine.objects.filter(
        casino_code=CASINO, account_code=account("jackpot_payable", pool_id).code).count()


def pay(hit: Hit, shift: str, **kwargs: Any) -> PrizePayAnswer:
    kwargs.setdefault("metadata", ana())
    if "amount" in kwargs:  # parsed as the edge parses it
        kwargs["amount"] = parse_amount(kwargs["amount"], field="amount")
    return jackpot_prize_pay(prize_id=hit.prize_id, shift_id=shift, **kwargs)


def test_a_payment_for_a_pool_and_round_that_were_never_hit_is_refused(window: str) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(NotFound) as refused:
        jackpot_prize_pay(prize_id="x", shift_id=window, amount=Decimal("1000.00"),
                          cash={"100.00": 10}, metadata=ana())
    assert refused.value.message == NOT_A_HIT.format(prize="x", casino=CASINO)
    assert refused.value.message.startswith("there is no jackpot hit 'x' in lisboa")
    assert refused.value.extra["field"] == "prize_id"
    assert StoredEvent.objects.count() == before
    assert accounts_of_pool("x") == 0
    with pytest.raises(TypeError):  # pool, round and winner are not the cage's to type
        jackpot_prize_pay(prize_id="x", shift_id=window, pool_id="x",  # type: ignore[call-arg]
                          round_id="y", metadata=ana())


def test_a_hit_of_another_casino_is_not_paid_here(window: str, hit: Hit) -> None:
    casino_register(code="porto", name="Casino Porto", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("porto", job="test"))
    elsewhere = person_metadata(username="rita", role=Role.CASHIER, casino="porto")
    with pytest.raises(NotFound, match="there is no jackpot hit"):
        pay(hit, window, metadata=elsewhere)
    assert JackpotPrize.objects.get(prize_id=hit.prize_id).paid_amount == D("0.00")


def test_the_pool_round_and_winner_come_from_the_hit(window: str, hit: Hit) -> None:
    paid = pay(hit, window, amount="1500.00", cash={"100.00": 10, "50.00": 10})
    assert (paid.pool_id, paid.round_id, paid.amount, paid.owed) == (
        JACKPOT_POOL, "round-77", "1500.00", "8500.80")  # 10,000.80 - 1,500.00
    (recorded,) = [r for r in read_stream(f"shift/{window}") if r.event_type == "JackpotPaid"]
    assert (recorded.data["prize_id"], recorded.data["pool_id"], recorded.data["round_id"],
            recorded.data["winner"]) == (hit.prize_id, JACKPOT_POOL, "round-77", "seat-3")


def test_instalments_add_up_to_what_the_hit_owes_and_never_more(window: str, hit: Hit) -> None:
    three_aces = record_hit(seat=5, cards=("AS", "AH", "AD"), round_id="round-78")
    assert three_aces.amount == D("250.00")  # 250 times the 1.00 bet
    # owed: 10,000.80 (the top hit) + 250.00
    assert payable(JACKPOT_POOL) == D("10250.80")

    pay(hit, window, amount="1500.00", cash={"100.00": 10, "50.00": 10})
    pay(three_aces, window, amount="100.00", cash={"100.00": 1})
    pay(three_aces, window, amount="50.00", chip_set=CHIP_SET, chips={"25.00": 2})
    prize = JackpotPrize.objects.get(prize_id=three_aces.prize_id)
    assert (prize.paid_amount, prize.owed, prize.paid) == (D("150.00"), D("100.00"), False)
    # 8,500.80 + 100.00 still owed, and the pool and the ledger say so alike
    assert payable(JACKPOT_POOL) == D("8600.80")
    assert JackpotPool.objects.get(pool_id=JACKPOT_POOL).prizes_unpaid == D("8600.80")

    with pytest.raises(Conflict) as more:
        pay(three_aces, window, amount="150.00", cash={"100.00": 1, "50.00": 1})
    assert more.value.code == "more_than_owed"
    assert more.value.message == ("this hit owes 100.00 (prize 250.00, 150.00 paid already): "
                                  "150.00 is more than it owes")
    assert more.value.extra["field"] == "amount"

    rest = pay(three_aces, window, cash={"50.00": 2})  # no amount: all it still owes
    assert (rest.amount, rest.owed) == ("100.00", "0.00")
    assert JackpotPrize.objects.get(prize_id=three_aces.prize_id).paid
    with pytest.raises(Conflict) as twice:
        pay(three_aces, window, amount="1.00", cash={"1.00": 1})
    assert twice.value.code == "already_paid"
    assert "paid in full already" in twice.value.message

    assert payable(JACKPOT_POOL) == D("8500.80")
    owed = sum((p.owed for p in JackpotPrize.objects.filter(pool_id=JACKPOT_POOL)), D(0))
    assert owed == D("8500.80")
    paid_out = [r.data["amount"] for r in read_stream(f"shift/{window}")
                if r.event_type == "JackpotPaid"]
    assert paid_out == ["1500.00", "100.00", "50.00", "100.00"]
    assert eventstore.check(["jackpots", "cage", "ledger"]) == []


@pytest.mark.parametrize(("kwargs", "error", "field"), [
    ({"amount": "100.00", "cash": {"50.00": 1}}, InvalidCommand, "cash"),
    ({"amount": "100.00"}, InvalidCommand, "cash and chips"),
    ({"amount": "0.00", "cash": {}}, InvalidCommand, "amount"),
    ({"amount": 100.5, "cash": {"100.00": 1}}, InvalidCommand, "amount"),
    ({"amount": "20000.00", "cash": {"100.00": 1}}, Conflict, "amount"),
])
def test_what_is_paid_adds_up_in_cash_and_chips(window: str, hit: Hit, kwargs: dict[str, Any],
                                                 error: type[Exception], field: str) -> None:
    before = StoredEvent.objects.count()
    with pytest.raises(error) as refused:
        pay(hit, window, **kwargs)
    assert refused.value.extra["field"] == field  # type: ignore[attr-defined]
    assert StoredEvent.objects.count() == before


def test_only_the_cage_pays_a_jackpot(window: str, hit: Hit) -> None:
    with pytest.raises(NotAllowed):
        pay(hit, window, cash={"100.00": 1}, metadata=paulo())


def test_a_window_that_does_not_hold_it_pays_nothing(window: str, hit: Hit) -> None:
    with pytest.raises(Conflict) as refused:
        pay(hit, window, amount="5000.00", cash={"100.00": 50})  # it holds 20 notes of 100
    assert refused.value.code == "not_enough"
    assert JackpotPrize.objects.get(prize_id=hit.prize_id).paid_amount == D("0.00")
    assert payable(JACKPOT_POOL) == D("10000.80")


# --- the edges: the cage's API and the shift screen -----------------------------------------------


def _user(username: str, role: str) -> User:
    user = User.objects.create_user(username=username, password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def test_through_the_cage_api_the_hit_is_chosen_from_those_owed(window: str, hit: Hit) -> None:
    api = APIClient()
    api.force_authenticate(_user("ana", Role.CASHIER))
    owed = api.get(f"/api/v1/jackpots/{CASINO}/prizes/", {"unpaid": "true"}).json()
    assert [(h["prize_id"], h["amount"], h["owed"]) for h in owed] == [
        (hit.prize_id, "10000.80", "10000.80")]

    before = StoredEvent.objects.count()
    free_text = api.post(f"/api/v1/cage/{CASINO}/shifts/{window}/jackpot-payouts/", {
        "pool_id": "x", "round_id": "y", "winner": "somebody", "amount": "1000.00",
        "cash": {"100.00": 10}}, format="json")
    assert free_text.status_code == 400
    assert "prize_id" in str(free_text.json())
    unknown = api.post(f"/api/v1/cage/{CASINO}/shifts/{window}/jackpot-payouts/", {
        "prize_id": "x", "amount": "1000.00", "cash": {"100.00": 10}}, format="json")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["extra"]["field"] == "prize_id"
    assert StoredEvent.objects.count() == before
    assert accounts_of_pool("x") == 0

    paid = api.post(f"/api/v1/cage/{CASINO}/shifts/{window}/jackpot-payouts/", {
        "prize_id": hit.prize_id, "amount": "1000.00", "cash": {"100.00": 10}}, format="json")
    assert paid.status_code == 201, paid.json()
    assert (paid.json()["pool_id"], paid.json()["owed"]) == (JACKPOT_POOL, "9000.80")
    owed = api.get(f"/api/v1/jackpots/{CASINO}/prizes/", {"unpaid": "true"}).json()
    assert [(h["paid_amount"], h["owed"], h["paid"]) for h in owed] == [
        ("1000.00", "9000.80", False)]
    too_much = api.post(f"/api/v1/jackpots/{CASINO}/prizes/{hit.prize_id}/payment/", {
        "shift_id": window, "amount": "9000.81", "cash": {"100.00": 1}}, format="json")
    assert too_much.status_code == 409
    assert too_much.json()["error"]["code"] == "more_than_owed"


def test_the_shift_screen_offers_the_hits_owed_and_pays_one(window: str, hit: Hit) -> None:
    browser = Client()
    browser.force_login(_user("ana", Role.CASHIER))
    # the terminal draws one movement at a time: the jackpot payout, chosen (issue 36)
    page = browser.get(f"/cage/{CASINO}/shifts/{window}/", {"m": "jackpot"}).content.decode()
    assert f'<option value="{hit.prize_id}">' in page
    assert "owes €10,000.80" in page
    assert 'name="pool_id"' not in page
    assert 'name="winner"' not in page

    done = browser.post(f"/cage/{CASINO}/shifts/{window}/", {
        "m": "jackpot", "action": "jackpot", "prize_id": hit.prize_id, "amount": "500.00",
        "cash-100.00": "5", "idempotency_key": "k1"}, follow=True)
    assert "jackpot paid" in done.content.decode()
    assert JackpotPrize.objects.get(prize_id=hit.prize_id).owed == D("9500.80")
    assert "owes €9,500.80" in done.content.decode()

    refused = browser.post(f"/cage/{CASINO}/shifts/{window}/", {
        "m": "jackpot", "action": "jackpot", "prize_id": "x", "amount": "1000.00",
        "cash-100.00": "10", "idempotency_key": "k2"})
    assert "there is no jackpot hit" in refused.content.decode()
    assert JackpotPrize.objects.get(prize_id=hit.prize_id).owed == D("9500.80")


def test_a_second_cashier_sees_what_the_first_paid(window: str, hit: Hit,
                                                   identified_patron: Any) -> None:
    """Two windows pay instalments of one hit: 2,000.00 + 8,000.00 of 10,000.80 (to the
    identified winner: 2,000.00 or more); a further 1,000.00 is more than the 0.80 left."""
    from cage import services as cage

    winner = identified_patron(CASINO)
    other = cage.shift_open(cage="w2", cash={"100.00": 90}, metadata=bruno()).shift_id
    pay(hit, window, amount="2000.00", cash={"100.00": 20}, patron=winner)
    pay(hit, str(other), amount="8000.00", cash={"100.00": 80}, patron=winner,
        metadata=bruno())
    with pytest.raises(Conflict) as more:
        pay(hit, str(other), amount="1000.00", cash={"100.00": 10}, metadata=bruno())
    assert more.value.code == "more_than_owed"
    assert JackpotPrize.objects.get(prize_id=hit.prize_id).owed == D("0.80")
    assert payable(JACKPOT_POOL) == D("0.80")
