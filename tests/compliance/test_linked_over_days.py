"""Issue 34 and 37, worked by hand (Portugal, PT-1: identification at 2,000.00; the band just
below it 1,600.00 to 1,999.99; the third anonymous movement in the band at one window raises
``anonymous_structuring``):

* anonymous structuring counts over the configured linking period (``LinkingPeriodSet``, read
  as of the day), as the identified patron's linked total does, not per gaming day;
* a hand pay of the slot floor is a payout in the patron's linked total (``PatronDay``), and so
  in the identification and alert checks, as the cage's payouts are; an anonymous one is an
  anonymous movement of the window that paid it.

The hand pays are paid at window C1 of Casino lisboa on days the demo's clock stands at (noon,
Lisbon; the gaming day closes at 06:00)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal
from typing import Any

import pytest

from casino.context import person_metadata
from casino.errors import Conflict
from casino.models import Role
from compliance.models import AmlAlert, AnonymousMovement, PatronDay
from compliance.services import linking_period_set, patron_register
from eventstore.clock import clock_set
from machines.services.handpays import hand_pay_pay, hand_pay_record
from tests.machines.conftest import casino, floor, make_machine, money, person  # noqa: F401

LISBON = zoneinfo.ZoneInfo("Europe/Lisbon")
MONDAY = dt.date(2026, 12, 7)  # day 1
OLGA = person_metadata(username="olga", role=Role.COMPLIANCE_OFFICER, casino="lisboa")


def noon(day: int) -> Any:
    """The clock at noon of day ``day`` (1: Monday 7 December 2026)."""
    at = dt.datetime.combine(MONDAY + dt.timedelta(days=day - 1), dt.time(12), tzinfo=LISBON)
    return clock_set(lambda: at)


def pay(day: int, handpay: str, amount: str, patron: str = "") -> None:
    """A jackpot of ``amount`` on M001 (its limit 100.00), paid at C1 on day ``day``, sofia the
    second person (above the four-eyes threshold)."""
    with noon(day):
        hand_pay_record(casino="lisboa", machine="M001", handpay_id=handpay, kind="jackpot",
                        amount=money(amount), machine_event=f"EV-{handpay}", metadata=floor())
        hand_pay_pay(casino="lisboa", handpay_id=handpay, window="C1", slip=f"S-{handpay}",
                     witnessed_by="sofia", patron=patron, metadata=person("ana"))


@pytest.fixture
def machine(settings: Any, make_machine: Any) -> str:  # noqa: F811
    settings.DEBUG = True  # the demo's clock
    return str(make_machine("M001", limit="100.00"))


def test_anonymous_structuring_counts_over_the_linking_period(machine: str) -> None:
    with noon(1):
        linking_period_set(days=3, from_day=MONDAY.isoformat(), reason="policy of 2026",
                           metadata=OLGA)
    # one a day, each in the band: per gaming day there would never be three
    pay(1, "H1", "1900.00")
    pay(2, "H2", "1800.00")
    assert not AmlAlert.objects.exists()  # two in days 1-2
    pay(3, "H3", "1700.00")  # the third in days 1-3: the alert, 1,900 + 1,800 + 1,700
    alert = AmlAlert.objects.get()
    assert (alert.kind, alert.where, alert.gaming_day, alert.day_total, alert.reference) == (
        "anonymous_structuring", "C1", MONDAY + dt.timedelta(days=2), Decimal("5400.00"), "H3")
    # day 4 (period days 2-4: 1,800 + 1,700 + 1,650, three): the alert of day 3 is in the
    # period, it grows by the movement: 5,400.00 + 1,650.00 = 7,050.00
    pay(4, "H4", "1650.00")
    assert [(a.alert_id, a.day_total) for a in AmlAlert.objects.all()] == [
        (alert.alert_id, Decimal("7050.00"))]
    # days 8 and 9 (period 7-9): two in the band, nothing; the old alert stays as it was
    pay(8, "H8", "1600.00")
    pay(9, "H9", "1700.00")
    assert [(a.alert_id, a.day_total) for a in AmlAlert.objects.all()] == [
        (alert.alert_id, Decimal("7050.00"))]
    # day 10 (period 8-10): three again; the alert of day 3 is outside the period: a new one,
    # 1,600 + 1,700 + 1,750 = 5,050.00
    pay(10, "H10", "1750.00")
    new = AmlAlert.objects.exclude(alert_id=alert.alert_id).get()
    assert (new.kind, new.gaming_day, new.day_total) == (
        "anonymous_structuring", MONDAY + dt.timedelta(days=9), Decimal("5050.00"))
    # each hand pay is an anonymous movement of the window, on its gaming day
    assert [(m.gaming_day.day, m.amount) for m in AnonymousMovement.objects.filter(
        where="C1")] == [(7, Decimal("1900.00")), (8, Decimal("1800.00")),
                         (9, Decimal("1700.00")), (10, Decimal("1650.00")),
                         (14, Decimal("1600.00")), (15, Decimal("1700.00")),
                         (16, Decimal("1750.00"))]


def test_a_gaming_day_alone_without_a_period_set(machine: str) -> None:
    # no period set: the gaming day alone; three in three days raise nothing
    for day, amount in ((1, "1900.00"), (2, "1800.00"), (3, "1700.00")):
        pay(day, f"H{day}", amount)
    assert not AmlAlert.objects.exists()


MARIA: dict[str, Any] = {"name": "Maria Ferreira", "document_type": "id_card",
         "document_number": "12345678 9 ZZ1", "document_country": "PT",
         "date_of_birth": "1971-04-02", "nationality": "PT", "address": "Rua das Flores 12",
         "pep": False, "document_image": "scans/cc-0001.jpg"}


def test_a_hand_pay_counts_in_the_patrons_linked_total(machine: str) -> None:
    with noon(1):
        maria = str(patron_register(metadata=person("ana"), window="C1", verified=True,
                                    **MARIA).patron_id)
        rui = str(patron_register(metadata=person("ana"), window="C1", **{
            **MARIA, "name": "Rui", "document_number": "99887766"}).patron_id)
    # Maria, verified: 1,500.00 then 1,000.00 = 2,500.00, 2,000.00 or more in linked
    # movements: the second raises the linked-threshold alert with the day's total
    pay(1, "H1", "1500.00", maria)
    pay(1, "H2", "1000.00", maria)
    day = PatronDay.objects.get(patron_id=maria)
    assert (day.payouts, day.cash, day.transactions) == (
        Decimal("2500.00"), Decimal("2500.00"), 2)
    linked = AmlAlert.objects.get(kind="linked_threshold")
    assert (str(linked.patron_id), linked.amount, linked.day_total, linked.reference) == (
        maria, Decimal("1000.00"), Decimal("2500.00"), "H2")
    # Rui, registered but not verified: 1,500.00 passes; 600.00 more makes 2,100.00: refused
    # until his document is verified, nothing paid
    pay(1, "H3", "1500.00", rui)
    with pytest.raises(Conflict) as refused:
        pay(1, "H4", "600.00", rui)
    assert refused.value.code == "verification_required"
    assert "2100.00" in refused.value.message
    assert PatronDay.objects.get(patron_id=rui).payouts == Decimal("1500.00")
    # the linked sums rebuild from the events as they stand live
    from tests.games.conftest import rebuild_differences
    assert rebuild_differences() == []
