"""Anti-money-laundering at the cage (docs/patrons.md), Portugal (Lei n.º 83/2017, art. 76.º):
2,000.00 or more in one movement, or in a patron's movements of one gaming day, needs the patron
identified and verified; the figures below are worked out by hand."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from cage import services as cage
from cage.answers import ChipsRedeemAnswer, ChipsSellAnswer
from cage.models import Shift
from casino.errors import Conflict, NotFound
from casino.models import Role
from compliance.models import AmlAlert, PatronDay, PatronTransaction
from compliance.services import patron_register
from eventstore.models import StoredEvent
from eventstore.verify import verify_chain
from jackpots.services import jackpot_prize_pay

from .conftest import Hit, act, ana

MARIA = {
    "name": "Maria Antónia Ferreira", "document_type": "id_card",
    "document_number": "12345678 9 ZZ1", "document_country": "PT",
    "date_of_birth": "1971-04-02", "nationality": "PT",
    "address": "Rua das Flores 12, 1200-195 Lisboa", "pep": False,
    "document_image": "scans/2026/12/cc-0001.jpg",
}


def register(verified: bool = True, **changes: Any) -> str:
    result = patron_register(metadata=ana(), window="w1", verified=verified,
                             **{**MARIA, **changes})
    return str(result.patron_id)


def redeem_2500(window: str, patron: str | None = None) -> ChipsRedeemAnswer:
    # 25 chips of 100.00 in; 20 notes of 100.00 and 10 of 50.00 out: 2,500.00
    return cage.chips_redeem(shift_id=window, amount=Decimal("2500.00"), chips={"100.00": 25},
                             cash={"100.00": 20, "50.00": 10}, patron=patron, metadata=ana())


def buy_800(window: str, patron: str) -> ChipsSellAnswer:
    return cage.chips_sell(shift_id=window, amount=Decimal("800.00"), chips={"100.00": 8},
                           cash={"100.00": 8}, patron=patron, metadata=ana())


def test_an_anonymous_redemption_of_2500_is_refused_until_the_patron_is_identified(
        window: str) -> None:
    version = Shift.objects.get(id=window).version
    with pytest.raises(Conflict) as refused:
        redeem_2500(window)
    assert refused.value.code == "identification_required"
    assert "a redemption of chips of 2500.00" in refused.value.message
    assert "Lei n.º 83/2017" in refused.value.message
    assert refused.value.extra["threshold"] == "2000.00"
    assert Shift.objects.get(id=window).version == version  # nothing recorded

    patron = register()
    done = redeem_2500(window, patron)
    assert done.patron_id == patron
    event = StoredEvent.objects.filter(event_type="ChipsRedeemed").get()
    assert event.data["patron_id"] == patron
    assert event.schema_version == 2
    row = PatronTransaction.objects.get()
    assert (row.kind, row.amount, row.cash, str(row.patron_id)) == (
        "redemption", Decimal("2500.00"), Decimal("2500.00"), patron)
    # one movement at the threshold: identified, and no alert (nothing linked)
    assert not AmlAlert.objects.exists()


def test_below_the_threshold_a_player_stays_anonymous(window: str) -> None:
    # 1,999.00: 1,900.00 + 75.00 + 20.00 + 4.00 of chips; 1,500.00 + 400.00 + 50.00 + 40.00
    # + 5.00 + 4.00 of cash
    done = cage.chips_sell(shift_id=window, amount=Decimal("1999.00"), chips={"100.00": 19, "25.00": 3,
                                                                      "5.00": 4, "1.00": 4},
                           cash={"500.00": 3, "200.00": 2, "50.00": 1, "20.00": 2, "5.00": 1,
                                 "2.00": 2},
                           metadata=ana())
    assert done.patron_id is None
    assert not PatronTransaction.objects.exists()


def test_three_purchases_of_800_by_one_patron_raise_the_linked_alert_at_the_third(
        window: str) -> None:
    patron = register()
    buy_800(window, patron)
    buy_800(window, patron)
    assert not AmlAlert.objects.exists()  # 1,600.00: below 2,000.00
    third = buy_800(window, patron)
    alert = AmlAlert.objects.get()
    assert (alert.kind, alert.amount, alert.day_total, alert.threshold, alert.rule) == (
        "linked_threshold", Decimal("800.00"), Decimal("2400.00"), Decimal("2000.00"), "PT-1")
    assert alert.reference == third.transaction_id
    assert str(alert.patron_id) == patron
    assert "alert" not in str(third)  # the cashier is not told (no tipping off)
    day = PatronDay.objects.get()
    assert (day.purchases, day.transactions) == (Decimal("2400.00"), 3)


def test_linked_movements_of_a_patron_not_verified_are_refused_at_the_threshold(
        window: str) -> None:
    patron = register(verified=False, document_image="")
    buy_800(window, patron)
    buy_800(window, patron)
    with pytest.raises(Conflict) as refused:
        buy_800(window, patron)
    assert refused.value.code == "verification_required"
    assert "come to 2400.00" in refused.value.message
    assert PatronDay.objects.get().transactions == 2


def test_two_purchases_just_below_the_threshold_raise_a_structuring_alert(window: str) -> None:
    patron = register()
    for _ in range(2):  # 1,900.00 each: in [1,600.00, 2,000.00)
        cage.chips_sell(shift_id=window, amount=Decimal("1900.00"), chips={"100.00": 19},
                        cash={"100.00": 19}, patron=patron, metadata=ana())
    assert sorted(AmlAlert.objects.values_list("kind", flat=True)) == [
        "linked_threshold", "structuring"]


def test_an_unknown_patron_is_refused(window: str) -> None:
    with pytest.raises(NotFound) as refused:
        buy_800(window, "00000000-0000-4000-8000-000000000000")
    assert refused.value.code == "unknown_patron"


def test_a_jackpot_of_10000_80_is_paid_only_to_an_identified_winner(window: str, hit: Hit
                                                                    ) -> None:
    cash = {"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50}  # 4,500.00
    chips = {"100.00": 50, "25.00": 20, "1.00": 0}  # 5,500.00
    with pytest.raises(Conflict) as refused:
        jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, amount=Decimal("10000.00"), cash=cash,
                          chips=chips, metadata=ana())
    assert refused.value.code == "identification_required"
    patron = register()
    paid = jackpot_prize_pay(prize_id=hit.prize_id, shift_id=window, amount=Decimal("10000.00"),
                             cash=cash, chips=chips, patron=patron, metadata=ana())
    assert paid.patron_id == patron
    row = PatronTransaction.objects.get()
    assert (row.kind, row.amount, row.cash) == ("payout", Decimal("10000.00"), Decimal("4500.00"))


def test_projections_rebuild_with_patrons_alerts_and_old_events(window: str) -> None:
    patron = register()
    for _ in range(3):
        buy_800(window, patron)
    out = StringIO()
    call_command("rebuild_projections", "--check", stdout=out)
    assert "OK: rebuilt state equals live state" in out.getvalue()
    assert verify_chain().ok


def test_a_cashier_may_not_draft_a_report(window: str) -> None:
    from casino.errors import NotAllowed
    from compliance.services import suspicious_report_draft

    patron = register()
    for _ in range(3):
        buy_800(window, patron)
    alert = AmlAlert.objects.get()
    with pytest.raises(NotAllowed):
        suspicious_report_draft(alert_ids=[str(alert.alert_id)], narrative="x", metadata=ana())
    officer = act("olga", Role.COMPLIANCE_OFFICER)
    report = suspicious_report_draft(alert_ids=[str(alert.alert_id)],
                                     narrative="three buys in one night", metadata=officer)
    assert report.status == "drafted"
