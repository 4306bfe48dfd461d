"""What today's demo leaves for each person to find on the first run (issue 36, item 2).

Played today, after the three days (``demo.days.SHOWCASES``), through the services as a casino's
staff would:

* compliance: in Lisbon a registered patron buys chips twice just below the threshold
  (1,800.00 then 1,900.00: linked to 3,700.00, a ``linked_threshold`` and a ``structuring``
  alert), and three players naming no one buy 1,900.00 each at the main window, each marked
  with the pseudonym the pit gave them (``TODAY_PATTERN``); yesterday three others had bought
  1,700.00, 1,800.00 and 1,900.00 there (``YESTERDAY_PATTERN``, played by ``play_day`` on
  yesterday's clock: an ``anonymous_structuring`` alert of yesterday, 5,400.00). Today's
  three are in the linking period with yesterday's, so they grow yesterday's alert, never a
  new one: 5,400.00 + 3 x 1,900.00 = 11,100.00, the pattern's total over the two gaming days
  (issue 34); in Macau a registered patron buys MOP 500,000.00 in cash
  (a ``large_transaction`` report), then buys in HKD 490,000.00 at a table playing in Hong
  Kong dollars (another report, at the session's rate: at 1.03, MOP 504,700.00, the alert
  showing "HKD 490000.00 at rate 1.030000 = MOP 504700.00", issue 39). Lisbon's compliance officer first sets a
  linking period of two gaming days from today (issue 34). One compliance officer drafts a report on Lisbon's
  patron's alerts: it waits for the second's review, due today (Portugal: "de imediato", Lei
  n.º 83/2017, art. 43.º), on the officer's "Waiting for you";
* a jackpot owed: today's flush at the stud poker table is not paid yet (``demo.days``);
* approvals waiting, each for its second person: a round voided after its outcome (asked by
  one pit boss, for the other), a cashier's adjustment (for the cage supervisor), a jackpot
  meter correction (asked by the cage supervisor, for the accountant), a cage supervisor's role
  for ``caixa2``, covering (asked by ``gestor``, for ``gestora``: the roles screen shows it).

The patrons' names and documents are fictional and go to the patron vault only (encrypted);
the events name a patron by reference.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from cage import services as cage
from casino.models import Casino, Role
from casino.money import parse_amount
from casino.services.approvals import approval_request
from compliance.models import AmlAlert
from compliance.services import linking_period_set, patron_register, suspicious_report_draft
from demo.cage import MAIN, DemoCage, _cash_in
from demo.day import DemoDay, _as, _pit
from eventstore import clock
from games import services as pit
from games.models import Table, TableSession
from jackpots.models import JackpotPool

# name, document number, nationality, date of birth: fictional people
LISBON_PATRON = ("Ana Sofia Ribeiro", "C1234567", "PT", "1981-03-14")
MACAU_PATRON = ("Chan Tai Man", "M7654321", "CN", "1975-08-02")
# Anonymous structuring at Lisbon's main window over two gaming days (issue 34): chips bought
# for cash just below the identification threshold (2,000.00; the band from 1,600.00), each
# player marked with the pit's pseudonym for them (``P-`` and hexadecimal digits, never a
# description). Each mark is one player: two of one mark would be linked (3,200.00 or more)
# and the second refused until the player is identified, so the pattern is several players'.
YESTERDAY_PATTERN = (("1700.00", "P-5a17"), ("1800.00", "P-5b18"), ("1900.00", "P-5c19"))
TODAY_PATTERN = (("1900.00", "P-7d01"), ("1900.00", "P-7e02"), ("1900.00", "P-7f03"))
# Macau's patron buys in at an HKD table: at the session's rate (1.03 on the first day, a few
# thousandths either way after) MOP 500,000.00 or more, a large transaction in cash
MACAU_HKD_BUY_IN = "490000.00"


def _register(cage_: DemoCage, casino: str, who: tuple[str, str, str, str]) -> str:
    name, number, country, born = who
    return str(patron_register(
        metadata=cage_.cashier(casino), window=MAIN, verified=True, name=name,
        document_type="id_card" if country == "PT" else "passport", document_number=number,
        document_country=country, date_of_birth=born, nationality=country,
        address="Rua da Demonstração 2" if country == "PT" else "Avenida da Demonstração 8",
        pep=False, document_image=f"demo/{number}.png").patron_id)


def _sell(cage_: DemoCage, casino: str, amount: Decimal, chip: str,
          patron: str | None = None, mark: str | None = None) -> None:
    currency = Casino.objects.get(code=casino).currency
    chips = {chip: int(amount // Decimal(chip))}
    cage_._ensure(casino, chips)
    cage.chips_sell(shift_id=cage_.shift(casino), amount=parse_amount(amount), chips=chips,
                    cash=_cash_in(amount, currency), chip_set="main", patron=patron,
                    mark=mark, metadata=cage_.cashier(casino))


def play_day(d: DemoDay) -> None:
    """Yesterday's half of Lisbon's anonymous structuring (``demo.days.DAY_PLAYERS``): on
    yesterday's clock, ``YESTERDAY_PATTERN`` at the main window, the third raising the alert
    today's movements grow (``compliance_showcase``). Any other day, nothing."""
    if d.casino != "lisboa" or not d.over:
        return
    lisboa = Casino.objects.get(code="lisboa")
    if d.day != lisboa.gaming_day(timezone.now()) - dt.timedelta(days=1):
        return
    for amount, mark in YESTERDAY_PATTERN:
        _sell(d.cage, "lisboa", Decimal(amount), "100", mark=mark)
        d.advance(dt.timedelta(minutes=20))


def compliance_showcase(cage_: DemoCage) -> None:
    """The alerts and the drafted report (see the module's text)."""
    if Casino.objects.filter(code="lisboa").exists():
        # the compliance officer links two gaming days from today on (issue 34): the
        # linking period's screen shows it in force, with its author, in its history
        lisboa = Casino.objects.get(code="lisboa")
        linking_period_set(days=2, from_day=lisboa.gaming_day(clock.now()).isoformat(),
                           reason="the casino's policy: movements of today and yesterday are "
                                  "linked", metadata=_as("lisboa", Role.COMPLIANCE_OFFICER,
                                                         "conformidade"))
        ana = _register(cage_, "lisboa", LISBON_PATRON)
        _sell(cage_, "lisboa", Decimal("1800.00"), "100", ana)
        _sell(cage_, "lisboa", Decimal("1900.00"), "100", ana)
        for amount, mark in TODAY_PATTERN:
            _sell(cage_, "lisboa", Decimal(amount), "100", mark=mark)
        alerts = [str(a) for a in AmlAlert.objects.filter(
            casino="lisboa", patron_id=ana).values_list("alert_id", flat=True)]
        if alerts:
            suspicious_report_draft(
                alert_ids=alerts, metadata=_as("lisboa", Role.COMPLIANCE_OFFICER,
                                               "conformidade"),
                narrative="Two purchases of chips in one evening, each just below the "
                          "identification threshold, 3,700.00 in all; little play at the tables "
                          "between them. The patron cashed out soon after.")
    if Casino.objects.filter(code="macau").exists():
        chan = _register(cage_, "macau", MACAU_PATRON)
        _sell(cage_, "macau", Decimal("500000.00"), "10000", chan)
        # and buys in at a table playing in Hong Kong dollars (demo/currencies.py): the
        # large-transaction report keeps the HKD figure and the rate beside the patacas (issue 39)
        hkd = TableSession.objects.filter(casino_id="macau", status="open").exclude(
            currency="").order_by("table").first()
        if hkd is not None:
            pit.drop_record(session_id=str(hkd.session_id), amount=MACAU_HKD_BUY_IN,
                            patron=chan, metadata=_pit("macau"))


def approvals_showcase(cage_: DemoCage) -> None:
    """Four approvals, each waiting for its second person (see the module's text)."""
    if not Casino.objects.filter(code="lisboa").exists():
        return
    session = TableSession.objects.filter(casino_id="lisboa", table="ra1",
                                          status="open").first()
    if session is not None:
        meta = _pit("lisboa")
        table = Table.objects.get(casino_id="lisboa", code="ra1")
        rid = pit.round_open(session_id=str(session.session_id), bets=[
            {"seat": 4, "type": "red", "amount": "10.00"},
            {"seat": 5, "type": "straight", "numbers": [17], "amount": "10.00"}],
            metadata=meta).round_id
        pit.round_close_betting(round_id=rid, metadata=meta)
        pit.outcome_record(round_id=rid, outcome={"number": 17}, metadata=meta)
        approval_request(
            kind="round_void", subject=rid, reason="foreign_object",
            explanation=f"a chip fell on the wheel of {table.code} as the ball dropped; the "
                        "dealer called golpe nulo",
            metadata=_as("lisboa", Role.PIT_BOSS, "fiscal"))
    cage.adjustment_request(
        shift_id=cage_.shift("lisboa"), direction="in", cash={"20.00": 1},
        reason="a 20.00 note found under the counter's cash drawer at the change of shift",
        metadata=cage_.cashier("lisboa"))
    pool = JackpotPool.objects.filter(casino_id="lisboa").first()
    if pool is not None:
        approval_request(
            kind="jackpot_meter_correction", subject=str(pool.pool_id), reason="display_fault",
            explanation="the controller showed the meter 10.00 below the pool's figure after "
                        "a power cut; the display was checked against the controller's log",
            details={"meter": "pool", "direction": "up", "amount": "10.00"},
            metadata=_as("lisboa", Role.CAGE_SUPERVISOR, "supervisor"))
    # a role's four eyes (issue 35): gestor asks for caixa2 to cover the cage supervisor's
    # post; gestora approves it on the approvals page (the roles screen shows it waiting)
    from django.contrib.auth import get_user_model

    from casino.models import Approval

    cover = get_user_model().objects.filter(username="caixa2").first()
    if cover is not None and not Approval.objects.filter(
            casino_id="lisboa", kind="role_grant", subject=f"{cover.pk}:cage_supervisor",
            status="requested").exists():
        approval_request(
            kind="role_grant", subject=f"{cover.pk}:cage_supervisor", reason="cover",
            explanation="covers the cage supervisor's post during the supervisor's leave",
            metadata=_as("lisboa", Role.ADMINISTRATOR, "gestor"))
