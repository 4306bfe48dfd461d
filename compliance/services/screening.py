"""The cage's and the tables' side of anti-money-laundering law: before a movement is recorded,
``movement_check`` says whether it may be (refusing, saying why, until the patron is identified
and verified); after, ``alerts_raise`` records the alerts it raised (``AmlAlertRaised``).

Both run inside the movement's own command (its unit of work): the append lock the command took
first serialises the patron's movements, so the day's linked total read here is current. The
cashier's answer never says which alert was raised (no tipping off: ``docs/patrons.md``).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import TypedDict

from casino.errors import Conflict, Words, gettext_noop
from casino.models import Casino
from casino.money import fmt
from eventstore import store
from eventstore.records import Metadata

from .. import rules, thresholds
from ..events import AmlAlertGrown, AmlAlertRaised
from ..models import (
    AmlAlert,
    AnonymousMovement,
    Patron,
    PatronDay,
    PatronStatus,
    PatronTransaction,
)
from ._common import jurisdiction, patron_get
from .diligence import pep_check
from .linking import PeriodInForce, period_for

# Messages tests and screens rely on.
WHAT = {
    thresholds.PURCHASE: Words("a purchase of chips"),
    thresholds.REDEMPTION: Words("a redemption of chips"),
    thresholds.PAYOUT: Words("a payment of winnings"),
    thresholds.BUY_IN: Words("a buy-in at the table"),
}
IDENTIFY_SINGLE = gettext_noop("{what} of {amount} needs the patron identified and verified first "
                               "({threshold} or more: {source}): pick or register the patron, then record "
                               "it again")
IDENTIFY_MARKED = gettext_noop("with this movement the movements marked as one unidentified player "
                               "({mark}) {period} come to {total}, {threshold} or more ({source}): "
                               "identify and verify the player first, then record it again")
IDENTIFY_LINKED = gettext_noop("with this movement the patron's movements {period} come to {total}, "
                               "{threshold} or more ({source}): the patron must be identified and verified "
                               "first")
# the linking period, as the messages above say it (``linking.period_for``)
TODAY = Words("today")
OVER_DAYS = gettext_noop("in the {days} gaming days from {first_day}")
NOT_VERIFIED = gettext_noop("patron {patron} is registered but their document was not verified: verify it "
                            "before {what} of {amount}")
SHREDDED = gettext_noop("patron {patron}'s data was destroyed: register the person again")
# an amount of a table in another currency, as a refusal says it (issue 39)
CONVERTED = gettext_noop("{amount} {law} ({original} {currency} at {rate})")
NO_LAW_RATE = gettext_noop(
    "a movement in {currency} has no rate to {law}, the currency of the law's threshold: "
    "nothing was recorded")
CHEQUE_REFUSED = gettext_noop("{why} ({source}): pay it in cash, or as the law allows")


@dataclass(frozen=True)
class Checked:
    """A movement allowed: the patron it is recorded with ("" anonymous) and what it raises."""

    patron_id: str
    casino: str
    gaming_day: dt.date
    movement: rules.Movement
    rule: thresholds.ThresholdRule
    screening: rules.Screening
    # anonymous structuring at ``where``: the pattern's movements and total with this one
    pattern_movements: int = 0
    pattern_total: Decimal = Decimal("0.00")
    # the first gaming day of the linking period in force on ``gaming_day`` (the pattern's)
    period_first_day: dt.date | None = None
    # a table in another currency than the law's (issue 39): the movement's amount in it and
    # the rate it was converted at; the alerts keep them beside the law's figure
    currency: str = ""
    original_amount: Decimal | None = None
    rate: Decimal | None = None


def _earlier(casino: str, period: PeriodInForce, day: dt.date, patron_id: str,
             rule: thresholds.ThresholdRule) -> rules.Earlier:
    """The patron's movements of the linking period (``period``'s gaming days to ``day``)."""
    rows = list(PatronDay.objects.filter(casino=casino, gaming_day__range=(period.first_day, day),
                                         patron_id=patron_id))
    if not rows:
        return rules.Earlier()
    total = sum((row.cash if rule.cash_only else row.total for row in rows), Decimal("0.00"))
    below = sum(1 for t in PatronTransaction.objects.filter(
        casino=casino, gaming_day__range=(period.first_day, day), patron_id=patron_id)
        .only("kind", "amount", "cash")
        if rules.just_below(rule, rules.counted(rule, rules.Movement(t.kind, t.amount, t.cash))))
    return rules.Earlier(total=total, count=sum(row.transactions for row in rows),
                         just_below=below)


def _anonymous_just_below(casino: str, period: PeriodInForce, day: dt.date, where: str,
                          rule: thresholds.ThresholdRule) -> tuple[int, Decimal]:
    """The movements naming no patron at ``where`` (a cage window, "table <code>") that fell
    just below the threshold in the linking period (``period``'s gaming days to ``day``, as
    the identified patron's linked total counts them): how many, and their total as the rule
    counts them (the pattern an anonymous-structuring alert names)."""
    counted = [rules.counted(rule, rules.Movement(t.kind, t.amount, t.cash))
               for t in AnonymousMovement.objects.filter(
                   casino=casino, gaming_day__range=(period.first_day, day), where=where)
               .only("kind", "amount", "cash")]
    below = [value for value in counted if rules.just_below(rule, value)]
    return len(below), sum(below, Decimal("0.00"))


def _marked_total(casino: str, period: PeriodInForce, day: dt.date, mark: str,
                  rule: thresholds.ThresholdRule) -> tuple[Decimal, int]:
    """The movements of the linking period marked as the same unidentified person: what the
    rule counts of them, and how many."""
    counted = [rules.counted(rule, rules.Movement(t.kind, t.amount, t.cash))
               for t in AnonymousMovement.objects.filter(
                   casino=casino, gaming_day__range=(period.first_day, day), mark=mark)
               .only("kind", "amount", "cash")]
    return sum(counted, Decimal("0.00")), len(counted)


def _period_words(period: PeriodInForce) -> Words:
    return TODAY if period.days == 1 else Words(OVER_DAYS, days=period.days,
                                                 first_day=period.first_day.isoformat())


def movement_check(*, casino: Casino, patron: object, gaming_day: dt.date, kind: str,
                   amount: Decimal, cash: Decimal, where: str = "", mark: str = "",
                   currency: str = "", rate: Decimal | None = None) -> Checked:
    """Refuse (``Conflict``: ``identification_required``, ``verification_required``,
    ``patron_shredded``) a movement the law does not allow yet; an unknown patron reference is
    refused too (``unknown_patron``). ``where``: the cage window or "table <code>", where an
    anonymous movement is linked to the others just below the threshold (anonymous
    structuring: an alert the cashier never sees). ``currency`` and ``rate``: a table that
    plays in another currency than the book currency, and its session's rate (book currency
    per unit, the rate the ledger books the session at): the amounts are compared, summed and
    alerted in the law's currency (``rules.in_law_currency``)."""
    try:
        rule = thresholds.rule_for(jurisdiction(casino), gaming_day)
    except thresholds.NoRule as missing:
        raise Conflict("{missing}: nothing was recorded",
                       params={"missing": missing}, code="no_threshold") from None
    foreign = bool(currency) and currency != rule.currency
    if foreign and (rate is None or casino.currency != rule.currency):
        raise Conflict(NO_LAW_RATE, params=dict(currency=currency, law=rule.currency),
                       code="no_rate", field="currency")
    shown: object = None  # the amount as a refusal says it
    original = amount
    if foreign:
        shown = Words(CONVERTED, amount=fmt(rules.in_law_currency(amount, rate)),
                      law=rule.currency, original=fmt(amount), currency=currency, rate=rate)
        amount, cash = rules.in_law_currency(amount, rate), rules.in_law_currency(cash, rate)
    movement = rules.Movement(kind=kind, amount=amount, cash=cash)
    named = patron not in (None, "")
    found = patron_get(casino.code, patron) if named else None
    patron_id = str(found.patron_id) if found is not None else ""
    period = period_for(casino.code, gaming_day)
    earlier = (_earlier(casino.code, period, gaming_day, patron_id, rule)
               if found is not None else None)
    anonymous, pattern = ((_anonymous_just_below(casino.code, period, gaming_day, where, rule))
                          if found is None and where
                          and rules.just_below(rule, rules.counted(rule, movement))
                          else (0, Decimal("0.00")))
    screening = rules.screen(rule, movement, earlier, anonymous)
    marked = str(mark or "").strip()
    if found is None and marked and rule.linked:
        # the pit or the cashier marked the player as one person: linked as a patron's are,
        # and the movement that brings them to the threshold waits for the identification
        total, count = _marked_total(casino.code, period, gaming_day, marked, rule)
        linked = rules.screen(rule, movement, rules.Earlier(total=total, count=count))
        if linked.identify == "linked":
            raise Conflict(IDENTIFY_MARKED, params=dict(
                mark=marked, period=_period_words(period), total=fmt(linked.total_after), threshold=fmt(rule.identify_at),
                source=rule.citation), code="identification_required", field="patron",
                threshold=fmt(rule.identify_at), rule=rule.code,
                legal_source=rule.legal_source, linking_days=period.days,
                linking_period_source=period.source)
    facts = {"threshold": fmt(rule.identify_at), "rule": rule.code,
             "legal_source": rule.legal_source, "linking_days": period.days,
             "linking_period_source": period.source}
    if found is not None and found.status == PatronStatus.SHREDDED:
        raise Conflict(SHREDDED, params=dict(patron=patron_id), code="patron_shredded",
                       field="patron")
    if screening.needs_identification:
        if found is None:
            raise Conflict(IDENTIFY_SINGLE, params=dict(
                what=WHAT[kind], amount=shown or fmt(amount), threshold=fmt(rule.identify_at),
                source=rule.citation), code="identification_required", field="patron",
                **facts)
        if found.status != PatronStatus.VERIFIED:
            message, params = ((IDENTIFY_LINKED, dict(period=_period_words(period),
                                                      total=fmt(screening.total_after),
                                              threshold=fmt(rule.identify_at),
                                              source=rule.citation))
                       if screening.identify == "linked" else
                       (NOT_VERIFIED, dict(patron=patron_id, what=WHAT[kind],
                                           amount=shown or fmt(amount))))
            raise Conflict(message, params=params, code="verification_required", field="patron",
                           **facts)
        pep_check(casino=casino.code, patron=found, gaming_day=gaming_day, what=WHAT[kind],
                  amount=amount, total=screening.total_after, threshold=rule.identify_at,
                  source=rule.pep_citation)
    return Checked(patron_id=patron_id, casino=casino.code, gaming_day=gaming_day,
                   movement=movement, rule=rule, screening=screening,
                   pattern_movements=anonymous + 1 if anonymous else 0,
                   pattern_total=pattern + screening.counted if anonymous else Decimal("0.00"),
                   period_first_day=period.first_day, currency=currency if foreign else "",
                   original_amount=original if foreign else None,
                   rate=rate if foreign else None)


def alerts_raise(checked: Checked, *, event_type: str, reference: str, where: str,
                 metadata: Metadata) -> list[str]:
    """Record each alert the movement raised, on a stream of its own; their ids. Anonymous
    structuring at one window or table is one alert for the linking period: the first movement
    that makes the pattern raises it with the pattern's whole total, each further one grows it
    (``AmlAlertGrown``), so its total is always the pattern's. Over a linking period of more
    than one gaming day, the pattern spans the period's days."""
    ids: list[str] = []
    for kind in checked.screening.alerts:
        if kind == rules.ANONYMOUS_STRUCTURING:
            ids.append(_anonymous_structuring(checked, event_type=event_type,
                                              reference=reference, where=where,
                                              metadata=metadata))
            continue
        alert_id = str(uuid.uuid4())
        store.append(f"aml_alert/{alert_id}", [AmlAlertRaised(
            alert_id=alert_id, casino=checked.casino, kind=kind, rule=checked.rule.code,
            patron_id=checked.patron_id, gaming_day=checked.gaming_day,
            movement=checked.movement.kind, event_type_of_movement=event_type,
            reference=reference, where=where, amount=checked.movement.amount,
            cash=checked.movement.cash, threshold=checked.rule.identify_at,
            day_total=checked.screening.total_after, **_in_currency(checked))],
            expected_version=0, metadata=metadata)
        ids.append(alert_id)
    return ids


def _anonymous_structuring(checked: Checked, *, event_type: str, reference: str, where: str,
                           metadata: Metadata) -> str:
    # the pattern is the linking period's (``period_first_day`` to the gaming day): an alert
    # raised within it grows; one raised before it began names another pattern, and a new
    # alert is raised with the period's total
    first_day = checked.period_first_day or checked.gaming_day
    grown = (AmlAlert.objects.filter(casino=checked.casino, where=where,
                                     gaming_day__range=(first_day, checked.gaming_day),
                                     kind=rules.ANONYMOUS_STRUCTURING)
             .order_by("-gaming_day", "-raised_at").first())
    if grown is not None:
        alert_id = str(grown.alert_id)
        stream = f"aml_alert/{alert_id}"
        # the pattern's total: the alert's with this movement (within one gaming day, the
        # day's movements in the band; over a longer period, every movement that kept the
        # pattern going while the alert's day was in the period)
        store.append(stream, [AmlAlertGrown(
            alert_id=alert_id, reference=reference, amount=checked.movement.amount,
            cash=checked.movement.cash, day_total=grown.day_total + checked.screening.counted,
            movements=checked.pattern_movements, **_in_currency(checked))],
            expected_version=store.stream_version(stream), metadata=metadata)
        return alert_id
    alert_id = str(uuid.uuid4())
    store.append(f"aml_alert/{alert_id}", [AmlAlertRaised(
        alert_id=alert_id, casino=checked.casino, kind=rules.ANONYMOUS_STRUCTURING,
        rule=checked.rule.code, patron_id="", gaming_day=checked.gaming_day,
        movement=checked.movement.kind, event_type_of_movement=event_type, reference=reference,
        where=where, amount=checked.movement.amount, cash=checked.movement.cash,
        threshold=checked.rule.identify_at, day_total=checked.pattern_total,
        **_in_currency(checked))],
        expected_version=0, metadata=metadata)
    return alert_id


class InCurrency(TypedDict):
    currency: str
    original_amount: Decimal | None
    rate: Decimal | None


def _in_currency(checked: Checked) -> InCurrency:
    """What an alert event keeps of a movement in another currency than the law's (issue 39)."""
    return InCurrency(currency=checked.currency, original_amount=checked.original_amount,
                      rate=checked.rate)


def cheque_check(checked: Checked, *, prize: bool) -> None:
    """A payment by casino cheque (``docs/patrons.md``), after ``movement_check``: only to an
    identified (verified) patron; for chips (``prize`` False), only up to what the patron bought
    by card or cheque that gaming day, less the casino cheques issued to them already
    (``rules.casino_cheque_allowed``); a prize, only to the identified winner
    (``rules.prize_cheque_allowed``). Refused ``cheque_not_allowed``, saying why."""
    identified = bool(checked.patron_id) and Patron.objects.filter(
        patron_id=checked.patron_id, status=PatronStatus.VERIFIED).exists()
    if prize:
        why = rules.prize_cheque_allowed(identified=identified)
    else:
        day = (PatronDay.objects.filter(casino=checked.casino, gaming_day=checked.gaming_day,
                                        patron_id=checked.patron_id).first()
               if identified else None)
        why = rules.casino_cheque_allowed(
            identified=identified,
            bought_by_card_or_cheque=day.card_or_cheque if day else Decimal("0.00"),
            cheques_issued=day.casino_cheques if day else Decimal("0.00"),
            amount=checked.movement.amount)
    if why:
        raise Conflict(CHEQUE_REFUSED, params={"why": why, "source": "Lei n.º 83/2017, art. 76.º, n.º 3"},
                       code="cheque_not_allowed", field="payment")
