"""Casino cheques at the cage (docs/cage.md § Casino cheques; Lei n.º 83/2017, art. 76.º, n.ºs 3
and 4): a redemption or a jackpot paid by a pre-numbered casino cheque, nominative to the
identified patron and crossed; for chips, never more than the patron bought by card or cheque
that gaming day. The cheque leaves no drawer: the window's cash, the cage's figures and the
ledger still agree. Figures worked out by hand."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.utils import translation

from cage import selectors
from cage import services as cage
from cage.events import ChipsRedeemed, JackpotPaid
from cage.models import CasinoCheque, Shift
from casino.errors import Conflict, InvalidCommand
from compliance.models import PatronDay
from edge.web.refusals import refusal_text
from eventstore.models import StoredEvent
from jackpots.services import jackpot_prize_pay
from ledger.postings import post
from reporting.reconciliation import reconcile

from .conftest import CASINO, Hit, ana
from .test_aml import register

D = Decimal
# Window 1 holds 4,500.00 of cash: 20 × 100.00 + 20 × 50.00 + 50 × 20.00 + 50 × 10.00.
WINDOW_CASH = D("4500.00")


def _cash_of_w1() -> Decimal:
    return next(v.cash_value for v in selectors.cage_list(casino=CASINO) if v.cage.code == "w1")


def _buy_3000_by_card(window: str, patron: str) -> None:
    cage.chips_sell(shift_id=window, amount=Decimal("3000.00"), chips={"100.00": 30}, payment="card",
                    patron=patron, metadata=ana())


def test_a_redemption_by_casino_cheque_up_to_what_the_patron_bought_by_card(window: str
                                                                            ) -> None:
    patron = register()
    _buy_3000_by_card(window, patron)
    assert _cash_of_w1() == WINDOW_CASH  # a card takes no cash into the drawer

    done = cage.chips_redeem(shift_id=window, amount=Decimal("2500.00"), chips={"100.00": 25},
                             payment="casino_cheque", cheque_number="000123", patron=patron,
                             metadata=ana())
    assert (done.payment, done.cheque_number) == ("casino_cheque", "000123")
    assert _cash_of_w1() == WINDOW_CASH  # nor does a cheque take any out

    cheque = CasinoCheque.objects.get()
    assert (cheque.number, cheque.kind, cheque.amount, str(cheque.patron_id)) == (
        "000123", "redemption", D("2500.00"), patron)
    stored = StoredEvent.objects.filter(event_type="ChipsRedeemed").get()
    assert stored.data["payment"] == "casino_cheque"
    assert stored.data["cheque_number"] == "000123"
    assert stored.data["cash"] == {}
    assert stored.data["patron_id"] == patron
    assert "Maria" not in json.dumps(stored.data)  # the payee by reference, never by name
    day = PatronDay.objects.get()
    # bought 3,000.00 by card, 2,500.00 paid back by cheque: 500.00 left
    assert (day.card_or_cheque, day.casino_cheques) == (D("3000.00"), D("2500.00"))

    version = Shift.objects.get(id=window).version
    with pytest.raises(Conflict) as refused:  # 600.00 > the 500.00 left
        cage.chips_redeem(shift_id=window, amount=Decimal("600.00"), chips={"100.00": 6},
                          payment="casino_cheque", cheque_number="000124", patron=patron,
                          metadata=ana())
    assert refused.value.code == "cheque_not_allowed"
    assert "500.00 left" in refused.value.message
    assert "art. 76.º" in refused.value.message
    assert Shift.objects.get(id=window).version == version  # nothing recorded

    with pytest.raises(Conflict) as reused:
        cage.chips_redeem(shift_id=window, amount=Decimal("500.00"), chips={"100.00": 5},
                          payment="casino_cheque", cheque_number="000123", patron=patron,
                          metadata=ana())
    assert reused.value.code == "cheque_number_used"
    assert "000123" in reused.value.message
    # the cheque's kind in words, never its code (issue 36), in English and in pt-PT
    assert "(redemption " in reused.value.message
    with translation.override("pt-pt"):
        assert "(troca por numerário " in refusal_text(reused.value)
    assert Shift.objects.get(id=window).version == version


def test_a_casino_cheque_only_to_an_identified_patron(window: str) -> None:
    with pytest.raises(Conflict) as anonymous:
        cage.chips_redeem(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                          payment="casino_cheque", cheque_number="000200", metadata=ana())
    assert anonymous.value.code == "cheque_not_allowed"
    assert "identified patron" in anonymous.value.message

    patron = register()  # identified, but bought nothing by card or cheque today: 0.00 left
    cage.chips_sell(shift_id=window, amount=Decimal("500.00"), chips={"100.00": 5},
                    cash={"100.00": 5}, patron=patron, metadata=ana())  # in cash: no room
    with pytest.raises(Conflict) as cash_bought:
        cage.chips_redeem(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                          payment="casino_cheque", cheque_number="000200", patron=patron,
                          metadata=ana())
    assert "0.00 left" in cash_bought.value.message
    assert not CasinoCheque.objects.exists()


def test_a_cheque_payment_takes_no_cash_and_needs_its_number(window: str) -> None:
    patron = register()
    _buy_3000_by_card(window, patron)
    with pytest.raises(InvalidCommand) as with_cash:
        cage.chips_redeem(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                          cash={"100.00": 1}, payment="casino_cheque", cheque_number="000300",
                          patron=patron, metadata=ana())
    assert with_cash.value.extra["field"] == "cash"
    with pytest.raises(InvalidCommand) as no_number:
        cage.chips_redeem(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                          payment="casino_cheque", patron=patron, metadata=ana())
    assert no_number.value.extra["field"] == "cheque_number"
    with pytest.raises(InvalidCommand) as number_alone:
        cage.chips_redeem(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                          cash={"100.00": 1}, cheque_number="000300", metadata=ana())
    assert number_alone.value.extra["field"] == "cheque_number"
    with pytest.raises(InvalidCommand) as card_with_cash:
        cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                        cash={"100.00": 1}, payment="card", metadata=ana())
    assert card_with_cash.value.extra["field"] == "cash"
    with pytest.raises(InvalidCommand) as unknown:
        cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"100.00": 1},
                        payment="bitcoin", metadata=ana())
    assert unknown.value.extra["field"] == "payment"


def test_a_jackpot_by_casino_cheque_to_the_identified_winner(window: str, hit: Hit) -> None:
    with pytest.raises(Conflict) as anonymous:  # 10,000.80: the winner is identified first
        jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, payment="casino_cheque",
                          cheque_number="J-0001", metadata=ana())
    assert anonymous.value.code == "identification_required"
    patron = register()
    paid = jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, payment="casino_cheque",
                             cheque_number="j-0001", patron=patron, metadata=ana())
    assert (paid.amount, paid.payment, paid.cheque_number) == (
        "10000.80", "casino_cheque", "J-0001")
    assert _cash_of_w1() == WINDOW_CASH
    cheque = CasinoCheque.objects.get()
    assert (cheque.kind, cheque.amount) == ("jackpot", D("10000.80"))
    # a prize is not limited by what the winner bought by card: nothing was
    assert PatronDay.objects.get().casino_cheques == D("0.00")


def test_reconcile_the_drawer_the_cage_and_the_ledger_after_cheques(window: str, hit: Hit
                                                                   ) -> None:
    patron = register()
    _buy_3000_by_card(window, patron)
    cage.chips_redeem(shift_id=window, amount=Decimal("2500.00"), chips={"100.00": 25},
                      payment="casino_cheque", cheque_number="000123", patron=patron,
                      metadata=ana())
    jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, payment="casino_cheque",
                      cheque_number="J-0001", patron=patron, metadata=ana())
    report = reconcile(casino=CASINO, gaming_day=Shift.objects.get(id=window).gaming_day)
    lines = {(line.subject, line.what.split(" (")[0]): line for line in report.lines}
    w1_cash = lines[("w1", "cash now")]
    assert (w1_cash.platform, w1_cash.ledger) == (WINDOW_CASH, WINDOW_CASH)
    # 2,500.00 + 10,000.80 = 12,500.80 of cheques issued; 3,000.00 by card to clear
    cheques = lines[("casino cheques", "issued, not yet presented")]
    assert (cheques.platform, cheques.ledger, cheques.ok) == (D("12500.80"), D("12500.80"), True)
    card = lines[("card and cheque", "chips sold by card or cheque, to clear")]
    assert (card.platform, card.ledger, card.ok) == (D("3000.00"), D("3000.00"), True)
    assert all(line.ok for line in report.lines if line.area == "cage")


def test_old_movements_read_as_paid_in_cash() -> None:
    stored = {"transaction_id": "t", "shift_id": "00000000-0000-4000-8000-000000000001",
              "window": "w1", "chip_set": "main", "chips": {"100.00": 1},
              "cash": {"100.00": 1}, "amount": "100.00", "patron_id": ""}
    assert ChipsRedeemed.from_data(stored).payment == "cash"
    posting = post(ChipsRedeemed.from_data(stored), None)  # type: ignore[arg-type]
    assert posting is not None
    assert {line.account.code for line in posting.lines} == {"2781", "1110.w1", "0110.w1",
                                                             "0190"}
    assert JackpotPaid.from_data({
        "payout_id": "p", "shift_id": "s", "window": "w1", "pool_id": "bj", "round_id": "r",
        "winner": "", "amount": "1.00", "cash": {"1.00": 1}, "chip_set": "",
        "chips": {}}).cheque_number == ""


def test_a_redemption_by_casino_cheque_through_the_api(window: str) -> None:
    from django.contrib.auth.models import User
    from rest_framework.test import APIClient

    from casino.models import Membership, Role

    user = User.objects.create_user(username="ana", password="x")
    Membership.objects.create(user=user, casino_id=CASINO, role=Role.CASHIER)
    api = APIClient()
    api.force_authenticate(user)
    patron = register()
    base = f"/api/v1/cage/{CASINO}/shifts/{window}"
    sold = api.post(f"{base}/chip-sales/", {"amount": "1000.00", "chips": {"100.00": 10},
                                            "payment": "cheque", "patron": patron},
                    format="json")
    assert sold.status_code == 201, sold.json()
    assert sold.json()["payment"] == "cheque"
    over = api.post(f"{base}/chip-redemptions/", {
        "amount": "1100.00", "chips": {"100.00": 11}, "payment": "casino_cheque",
        "cheque_number": "000777", "patron": patron}, format="json")
    assert over.status_code == 409, over.json()
    assert over.json()["error"]["code"] == "cheque_not_allowed"
    assert "1000.00 left" in over.json()["error"]["message"]
    paid = api.post(f"{base}/chip-redemptions/", {
        "amount": "1000.00", "chips": {"100.00": 10}, "payment": "casino_cheque",
        "cheque_number": "000777", "patron": patron}, format="json")
    assert paid.status_code == 201, paid.json()
    assert (paid.json()["cheque_number"], paid.json()["amount"]) == ("000777", "1000.00")
    bad = api.post(f"{base}/chip-redemptions/", {
        "amount": "100.00", "chips": {"100.00": 1}, "payment": "voucher"}, format="json")
    assert bad.status_code == 400
    assert _cash_of_w1() == WINDOW_CASH
