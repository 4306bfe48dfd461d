"""The tips' services (writes). Each is a command (``@command``: one transaction, one unit of
work) that checks state and permission, asks the pure rule (``tips.distribution``) and appends
events. ``docs/tips.md`` says the flow: a box dropped, counted by one counter, confirmed by
another; a misplaced tip or drop reported by one person and confirmed by another; a period
distributed once its boxes are counted.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from django.db.models import Q

from casino.context import require_role
from casino.errors import (
    Conflict,
    InvalidCommand,
    NotAllowed,
    NotFound,
    choice_words,
    gettext_noop,
    kind_words,
)
from casino.jurisdictions import Jurisdiction, jurisdiction_of
from casino.models import Casino
from casino.money import (
    CASH_DENOMINATIONS,
    Money,
    counts_as_data,
    counts_value,
    fmt,
    parse_counts,
    parse_pieces,
)
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from games.models import Table

from . import distribution as rule
from . import events as ev
from .answers import (
    TipBoxAnswer,
    TipCorrectionAnswer,
    TipPeriodAnswer,
    TipRuleAnswer,
    TipStaffAnswer,
)
from .models import TipBox, TipCorrection, TipPeriod, TipRule, TipStaff
from .roles import (
    CONFIGURE_ROLES,
    CORRECTION_ROLES,
    COUNTER_ROLES,
    DISTRIBUTE_ROLES,
    DROP_ROLES,
)
from .selectors import period_answer

_CODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
_POINTS = re.compile(r"^[0-9]{1,4}(\.[0-9]{1,4})?$")
DIRECTIONS = ("drop_to_tips", "tips_to_drop")
PLACES = ("table", "room")

# Messages tests and screens rely on.
OWN_COUNT = gettext_noop("you recorded this count: a second counter counts the tip box and "
                         "confirms it")
COUNTS_DIFFER = gettext_noop("your count ({mine}) is not the first counter's: count the tip "
                             "box again together, and record the count again if the first one "
                             "was wrong")
OWN_REPORT = gettext_noop("you reported this correction: a second person confirms it")
NOT_COUNTED = gettext_noop("tip boxes of period {period} are not counted and confirmed yet: "
                           "{boxes}")
DISTRIBUTED = gettext_noop("the tips of period {period} were distributed already (by {who})")


# --- reading what a command needs ---------------------------------------------------------------


def _num(value: Decimal) -> str:
    """A number of points or a percentage as written: ``10``, ``2.5`` (never ``1E+1``)."""
    return format(value.normalize(), "f")


def _casino(metadata: Metadata) -> Casino:
    found = Casino.objects.filter(code=metadata.casino).first()
    if found is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": metadata.casino})
    return found


def _today(casino: Casino) -> dt.date:
    return casino.gaming_day(clock.now())  # the demo's clock on a past day


def _date(value: object, *, field: str) -> dt.date:
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise InvalidCommand('{field} is a date such as "2026-11-30"', params={"field": field},
                         field=field)


def _text(value: object, *, field: str, limit: int = 500, required: bool = True) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidCommand("{field} must be text", params={"field": field}, field=field)
    value = value.strip()
    if required and not value:
        raise InvalidCommand("{field} is required", params={"field": field}, field=field)
    if len(value) > limit:
        raise InvalidCommand("{field} is longer than {limit} characters",
                             params={"field": field, "limit": limit}, field=field)
    return value


def _code(value: object, *, field: str) -> str:
    if not isinstance(value, str) or not _CODE.match(value):
        raise InvalidCommand("{field} {value!r} must be letters, digits, dashes or underscores "
                             "(at most 32)", params={"field": field, "value": value},
                             field=field)
    return value


def _rule(casino: Casino) -> TipRule:
    found = TipRule.objects.filter(casino_id=casino.code).first()
    if found is None:
        raise Conflict("casino {casino} has no rule of distribution of tips yet: the "
                       "administrator sets it first", params={"casino": casino.code},
                       code="no_tip_rule")
    return found


def _currency(casino: Casino, currency: str | None) -> str:
    """The currency of a tip count: the casino's (the only one its cash is counted in)."""
    if currency in (None, "", casino.currency):
        return casino.currency
    raise InvalidCommand("casino {casino} counts its tips in {accepted}, not {currency!r}",
                         params={"casino": casino.code, "accepted": casino.currency,
                                 "currency": currency}, field="currency", code="currency")


def _not_distributed(casino: Casino, tip_rule: TipRule, day: dt.date) -> str:
    """The period ``day`` belongs to, refused if it was distributed already."""
    period, _first, _last = rule.period_of(day, tip_rule.period)
    done = TipPeriod.objects.filter(casino_id=casino.code, period=period).first()
    if done is not None:
        raise Conflict(DISTRIBUTED, params={"period": period, "who": done.distributed_by},
                       code="period_distributed", field="gaming_day", period=period)
    return period


def _past_day(casino: Casino, value: object) -> dt.date:
    day = _today(casino) if value in (None, "") else _date(value, field="gaming_day")
    if day > _today(casino):
        raise InvalidCommand("gaming day {day} has not begun", params={"day": day.isoformat()},
                             field="gaming_day")
    return day


def _table(casino: Casino, code: object) -> str:
    table = _code(code, field="table")
    if not Table.objects.filter(casino_id=casino.code, code=table).exists():
        raise NotFound("there is no table {code!r} in casino {casino!r}",
                       params={"code": table, "casino": casino.code}, field="table")
    return table


# --- the rule and the staff --------------------------------------------------------------------


def _categories(value: object) -> tuple[dict[str, str], ...]:
    if not isinstance(value, Mapping) or not value:
        raise InvalidCommand('categories map each category to its points, such as {"croupier": '
                             '"10"}', field="categories")
    out = []
    for category, points in value.items():
        _code(category, field="categories")
        text = str(points).strip() if isinstance(points, str | int) and not isinstance(
            points, bool) else ""
        if not _POINTS.match(text) or Decimal(text) <= 0:
            raise InvalidCommand("category {category}: points {points!r} must be a number above "
                                 "zero written as a string (at most four decimals)",
                                 params={"category": category, "points": points},
                                 field="categories")
        out.append({"category": category, "points": str(Decimal(text))})
    return tuple(sorted(out, key=lambda c: c["category"]))


def _percent(value: object) -> Decimal:
    try:
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise InvalidOperation
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise InvalidCommand('fund_percent is a percentage written as a string, such as "0" or '
                             '"5"', field="fund_percent") from None
    if not number.is_finite() or not 0 <= number <= 100 or number != number.quantize(
            Decimal("0.0001")):
        raise InvalidCommand("fund_percent must be from 0 to 100 (at most four decimals), not "
                             "{value}", params={"value": value}, field="fund_percent")
    return number


@command("tip_rule_set")
def tip_rule_set(*, period: str, categories: Mapping[str, object], source: str,
                 effective_from: object, fund_percent: object = None, metadata: Metadata
                 ) -> TipRuleAnswer:
    """The casino's rule of distribution. In Portugal the period is the month and the fund's
    share is the law's (``fund_percent`` is refused); elsewhere (Macau) the casino's policy
    sets both."""
    require_role(metadata, CONFIGURE_ROLES, "setting the rule of distribution of tips")
    casino = _casino(metadata)
    portugal = jurisdiction_of(casino.code, casino.currency) == Jurisdiction.PORTUGAL.value
    if period not in rule.PERIOD_KINDS:
        raise InvalidCommand("the tips are distributed by {periods}, not {period!r}",
                             params={"periods": choice_words(rule.PERIOD_KINDS, "tip period"),
                                     "period": period},
                             field="period")
    if portugal and period != "month":
        raise InvalidCommand("in Portugal the tips are distributed by the month (Despacho "
                             "Normativo 42/89), not by the {period}",
                             params={"period": kind_words(period, "tip period")},
                             field="period", code="law")
    if portugal and fund_percent not in (None, ""):
        raise InvalidCommand("in Portugal the fund's share is the law's (12 %, 15 % from 1 "
                             "January 2017): it is not set by the casino", field="fund_percent",
                             code="law")
    percent = None if portugal else _percent("0" if fund_percent in (None, "") else fund_percent)
    cats = _categories(categories)
    since = _date(effective_from, field="effective_from")
    where = _text(source, field="source")
    before = TipRule.objects.filter(casino_id=casino.code).first()
    store.append(f"tiprule/{casino.code}", [ev.TipRuleSet(
        casino=casino.code, period=period, fund_percent=percent, categories=cats, source=where,
        effective_from=since)], expected_version=0 if before is None else before.version,
        metadata=metadata)
    return TipRuleAnswer(casino=casino.code, period=period,
                         fund_percent=None if percent is None else str(percent),
                         categories={c["category"]: c["points"] for c in cats}, source=where,
                         effective_from=since.isoformat(),
                         version=1 if before is None else before.version + 1)


def _staff_answer(casino: str, staff: str, category: str, since: dt.date,
                  until: dt.date | None, version: int) -> TipStaffAnswer:
    return TipStaffAnswer(casino=casino, staff_number=staff, category=category,
                          since=since.isoformat(),
                          until=None if until is None else until.isoformat(),
                          version=version)


@command("tip_staff_register")
def tip_staff_register(*, staff_number: str, category: str, since: object, metadata: Metadata
                       ) -> TipStaffAnswer:
    """A member of staff who shares in the tips: a staff number and a category of the rule
    (no name, no other personal data)."""
    require_role(metadata, CONFIGURE_ROLES, "registering the staff who share in the tips")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    number = _code(staff_number, field="staff_number")
    if category not in tip_rule.points():
        raise InvalidCommand("{category!r} is not a category of the rule (categories: {known})",
                             params={"category": category,
                                     "known": ", ".join(sorted(tip_rule.points()))},
                             field="category")
    day = _date(since, field="since")
    if TipStaff.objects.filter(casino_id=casino.code, staff_number=number).exists():
        raise Conflict("staff number {staff} is registered already", params={"staff": number},
                       field="staff_number", code="registered_already")
    store.append(f"tipstaff/{casino.code}.{number}", [ev.TipStaffRegistered(
        staff_number=number, category=category, since=day)], expected_version=0,
        metadata=metadata)
    return _staff_answer(casino.code, number, category, day, None, 1)


@command("tip_staff_change")
def tip_staff_change(*, staff_number: str, category: str = "", leaves_on: object = None,
                     metadata: Metadata) -> TipStaffAnswer:
    """A new category from ``since`` (today), or the last day the person shares (``leaves_on``)."""
    require_role(metadata, CONFIGURE_ROLES, "changing the staff who share in the tips")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    staff = TipStaff.objects.filter(casino_id=casino.code, staff_number=staff_number).first()
    if staff is None:
        raise NotFound("there is no staff number {staff!r} in casino {casino!r}",
                       params={"staff": staff_number, "casino": casino.code},
                       field="staff_number")
    events: list[ev.TipStaffCategoryChanged | ev.TipStaffLeft] = []
    new_category, until = staff.category, staff.until
    if category:
        if category not in tip_rule.points():
            raise InvalidCommand("{category!r} is not a category of the rule",
                                 params={"category": category}, field="category")
        if category != staff.category:
            new_category = category
            events.append(ev.TipStaffCategoryChanged(staff_number=staff.staff_number,
                                                     category=category, since=_today(casino)))
    if leaves_on not in (None, ""):
        until = _date(leaves_on, field="leaves_on")
        if until < staff.since:
            raise InvalidCommand("leaves_on {until} is before the person joined ({since})",
                                 params={"until": until.isoformat(),
                                         "since": staff.since.isoformat()}, field="leaves_on")
        events.append(ev.TipStaffLeft(staff_number=staff.staff_number, until=until))
    if not events:
        raise InvalidCommand("nothing changes: give a new category or the day the person "
                             "leaves", code="no_change")
    store.append(staff.stream, events, expected_version=staff.version, metadata=metadata)
    return _staff_answer(casino.code, staff.staff_number, new_category, staff.since, until,
                         staff.version + len(events))


# --- the tip boxes -----------------------------------------------------------------------------


def _box_answer(box: TipBox, tip_rule: TipRule) -> TipBoxAnswer:
    return TipBoxAnswer(
        casino=box.casino_id, gaming_day=box.gaming_day.isoformat(), box=box.box,
        place=box.place, code=box.code, currency=box.currency, status=box.status,
        count_number=box.count_number, amount=None if box.amount is None else fmt(box.amount),
        counted_by=[p for p in (box.counted_by, box.confirmed_by) if p],
        period=rule.period_of(box.gaming_day, tip_rule.period)[0], version=box.version)


def _box(casino: Casino, gaming_day: object, box: object) -> TipBox:
    day = _date(gaming_day, field="gaming_day")
    found = TipBox.objects.filter(casino_id=casino.code, gaming_day=day, box=box).first()
    if found is None:
        raise NotFound("tip box {box!r} of gaming day {day} was not dropped",
                       params={"box": box, "day": day.isoformat()}, field="box")
    return found


def _cash(casino: Casino, currency: str, cash: object) -> tuple[dict[str, int], Decimal]:
    if cash is None:
        raise InvalidCommand("cash: count the notes and coins by denomination (an empty box is "
                             "an empty count, {})", field="cash")
    counts = parse_counts(cash, allowed=CASH_DENOMINATIONS[currency], field="cash")
    return counts_as_data(counts), counts_value(counts).quantize(rule.CENT)


@command("tip_box_drop")
def tip_box_drop(*, place: str, code: str, gaming_day: object = None,
                 currency: str | None = None, metadata: Metadata) -> TipBoxAnswer:
    """A tip box taken from a table (``place="table"``, the table's code) or a room
    (``place="room"``, the room's code) for the count room, never with the drop boxes."""
    require_role(metadata, DROP_ROLES, "taking a tip box to the count room")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    if place not in PLACES:
        raise InvalidCommand("a tip box is a table's or a room's (place table or room), not "
                             "{place!r}", params={"place": place}, field="place")
    where = _table(casino, code) if place == "table" else _code(code, field="code")
    day = _past_day(casino, gaming_day)
    _not_distributed(casino, tip_rule, day)
    money = _currency(casino, currency)
    box = f"{place}-{where}"
    if TipBox.objects.filter(casino_id=casino.code, gaming_day=day, box=box).exists():
        raise Conflict("tip box {box} of gaming day {day} was dropped already",
                       params={"box": box, "day": day.isoformat()}, code="dropped_already",
                       field="code")
    store.append(f"tipbox/{casino.code}.{day.isoformat()}.{box}", [ev.TipBoxDropped(
        box=box, place=place, code=where, gaming_day=day, currency=money)],
        expected_version=0, metadata=metadata)
    return TipBoxAnswer(casino=casino.code, gaming_day=day.isoformat(), box=box, place=place,
                        code=where, currency=money, status="dropped", count_number=0,
                        amount=None, counted_by=[],
                        period=rule.period_of(day, tip_rule.period)[0], version=1)


@command("tip_box_count")
def tip_box_count(*, gaming_day: object, box: str, cash: object, currency: str | None = None,
                  metadata: Metadata) -> TipBoxAnswer:
    """The first counter's count of a tip box, by denomination of the box's currency. A count
    not yet confirmed may be recorded again (it replaces the last one)."""
    require_role(metadata, COUNTER_ROLES, "counting a tip box")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    found = _box(casino, gaming_day, box)
    if currency not in (None, "", found.currency):
        raise InvalidCommand("tip box {box} holds {currency}: it is counted in {currency}, not "
                             "{other!r}", params={"box": found.box, "currency": found.currency,
                                                  "other": currency}, field="currency",
                             code="currency")
    if found.status == "confirmed":
        raise Conflict("tip box {box} was counted already by {first} and {second}: a box is "
                       "counted once", params={"box": found.box, "first": found.counted_by,
                                               "second": found.confirmed_by},
                       code="counted_already")
    _not_distributed(casino, tip_rule, found.gaming_day)
    counted, amount = _cash(casino, found.currency, cash)
    number = found.count_number + 1
    store.append(found.stream, [ev.TipBoxCounted(
        count_id=str(uuid.uuid4()), box=found.box, gaming_day=found.gaming_day,
        currency=found.currency, cash=counted, amount=amount, count_number=number)],
        expected_version=found.version, metadata=metadata)
    found.refresh_from_db()
    return _box_answer(found, tip_rule)


@command("tip_box_count_confirm")
def tip_box_count_confirm(*, gaming_day: object, box: str, cash: object,
                          metadata: Metadata) -> TipBoxAnswer:
    """The second counter counts the box too: the same figures confirm it, and the tips are
    held for the staff (a liability, never revenue)."""
    require_role(metadata, COUNTER_ROLES, "counting a tip box")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    found = _box(casino, gaming_day, box)
    if found.status == "dropped":
        raise Conflict("tip box {box} has not been counted: record the count first",
                       params={"box": found.box}, code="not_counted")
    if found.status == "confirmed":
        raise Conflict("tip box {box} was counted already by {first} and {second}: a box is "
                       "counted once", params={"box": found.box, "first": found.counted_by,
                                               "second": found.confirmed_by},
                       code="counted_already")
    if metadata.actor == found.counted_by:
        raise NotAllowed(OWN_COUNT, code="four_eyes")
    counted, amount = _cash(casino, found.currency, cash)
    if counted != found.cash:
        raise Conflict(COUNTS_DIFFER, params={"mine": fmt(amount)}, code="counts_differ",
                       field="cash")
    _not_distributed(casino, tip_rule, found.gaming_day)
    store.append(found.stream, [ev.TipBoxCountConfirmed(
        count_id=found.count_id, box=found.box, gaming_day=found.gaming_day,
        currency=found.currency, cash=counted, amount=amount, counted_by=found.counted_by)],
        expected_version=found.version, metadata=metadata)
    found.refresh_from_db()
    return _box_answer(found, tip_rule)


# --- a tip in the drop box, a drop in the tip box ----------------------------------------------


def _correction_answer(c: TipCorrection) -> TipCorrectionAnswer:
    return TipCorrectionAnswer(
        casino=c.casino_id, correction_id=c.correction_id, direction=c.direction,
        table=c.table, gaming_day=c.gaming_day.isoformat(), currency=c.currency,
        amount=fmt(c.amount), status=c.status, reported_by=c.reported_by,
        confirmed_by=c.confirmed_by)


@command("tip_misplacement_report")
def tip_misplacement_report(*, direction: str, table: str, gaming_day: object, amount: Money,
                            reason: str, metadata: Metadata) -> TipCorrectionAnswer:
    """A tip found in a table's drop box (``drop_to_tips``: the table's win counted it, the
    staff are owed it) or a drop found in a tip box (``tips_to_drop``). Nothing moves until a
    second person confirms it (``tip_misplacement_confirm``)."""
    require_role(metadata, CORRECTION_ROLES, "reporting a misplaced tip or drop")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    if direction not in DIRECTIONS:
        raise InvalidCommand("a misplacement is {directions}, not {direction!r}",
                             params={"directions": choice_words(DIRECTIONS, "misplacement"),
                                     "direction": direction}, field="direction")
    where = _table(casino, table)
    day = _past_day(casino, gaming_day)
    _not_distributed(casino, tip_rule, day)
    why = _text(reason, field="reason", limit=1000)
    correction_id = str(uuid.uuid4())
    store.append(f"tipcorrection/{correction_id}", [ev.TipMisplacementReported(
        correction_id=correction_id, direction=direction, table=where, gaming_day=day,
        currency=casino.currency, amount=amount, reason=why)], expected_version=0,
        metadata=metadata)
    return TipCorrectionAnswer(
        casino=casino.code, correction_id=correction_id, direction=direction, table=where,
        gaming_day=day.isoformat(), currency=casino.currency, amount=fmt(amount),
        status="reported", reported_by=metadata.actor, confirmed_by="")


@command("tip_misplacement_confirm")
def tip_misplacement_confirm(*, correction_id: str, metadata: Metadata) -> TipCorrectionAnswer:
    """A second person confirms the correction: the amount moves between the table's win and
    the tips held."""
    require_role(metadata, CORRECTION_ROLES, "confirming a misplaced tip or drop")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    found = TipCorrection.objects.filter(casino_id=casino.code,
                                         correction_id=str(correction_id)).first()
    if found is None:
        raise NotFound("there is no correction {id!r} in casino {casino!r}",
                       params={"id": correction_id, "casino": casino.code},
                       field="correction_id")
    if found.status != "reported":
        raise Conflict("correction {id} was confirmed already by {who}",
                       params={"id": found.correction_id, "who": found.confirmed_by},
                       code="confirmed_already")
    if metadata.actor == found.reported_by:
        raise NotAllowed(OWN_REPORT, code="four_eyes")
    _not_distributed(casino, tip_rule, found.gaming_day)
    store.append(found.stream, [ev.TipMisplacementCorrected(
        correction_id=found.correction_id, direction=found.direction, table=found.table,
        gaming_day=found.gaming_day, currency=found.currency, amount=found.amount,
        reported_by=found.reported_by)], expected_version=found.version, metadata=metadata)
    found.refresh_from_db()
    return _correction_answer(found)


# --- the distribution --------------------------------------------------------------------------


def _days(value: object, active: list[TipStaff], length: int) -> dict[str, int]:
    numbers = {s.staff_number for s in active}
    if value in (None, ""):
        return dict.fromkeys(numbers, 1)
    if not isinstance(value, Mapping):
        raise InvalidCommand("days map each staff number to the days worked in the period",
                             field="days")
    out: dict[str, int] = {}
    for number, days in value.items():
        if number not in numbers:
            raise InvalidCommand("staff number {staff!r} does not share in this period's tips",
                                 params={"staff": number}, field="days")
        parse_pieces(days, field="days", what="days")
        if days > length:
            raise InvalidCommand("staff number {staff}: {days} days in a period of {length}",
                                 params={"staff": number, "days": days, "length": length},
                                 field="days")
        out[str(number)] = int(days)
    return {n: out.get(n, 0) for n in numbers}


@command("tip_period_distribute")
def tip_period_distribute(*, period: str, days: Mapping[str, int] | None = None,
                          metadata: Metadata) -> TipPeriodAnswer:
    """Share a period's tips: the fund's share, then each category's and each person's by the
    rule's points (``tips.distribution``). Refused before the period is over, while any of its
    boxes is not counted and confirmed or a correction of it waits for its second person, and
    a second time."""
    require_role(metadata, DISTRIBUTE_ROLES, "distributing the tips")
    casino = _casino(metadata)
    tip_rule = _rule(casino)
    try:
        code, first, last = rule.parse_period(str(period), tip_rule.period)
    except rule.RuleError as error:
        raise InvalidCommand(error.template, params=error.params, field="period",
                             code="period") from None
    done = TipPeriod.objects.filter(casino_id=casino.code, period=code).first()
    if done is not None:
        raise Conflict(DISTRIBUTED, params={"period": code, "who": done.distributed_by},
                       code="distributed_already", field="period")
    if last >= _today(casino):
        raise Conflict("period {period} is not over: its tips are distributed after its last "
                       "gaming day, {last}", params={"period": code, "last": last.isoformat()},
                       code="period_not_over", field="period")
    boxes = list(TipBox.objects.filter(casino_id=casino.code, gaming_day__range=(first, last)))
    if not boxes:
        raise Conflict("no tip box of period {period} was dropped: there is nothing to share",
                       params={"period": code}, code="no_tip_boxes", field="period")
    waiting = [f"{b.box} ({b.gaming_day.isoformat()}, {b.status})" for b in boxes
               if b.status != "confirmed"]
    if waiting:
        raise Conflict(NOT_COUNTED, params={"period": code, "boxes": ", ".join(waiting)},
                       code="boxes_not_counted", field="period")
    corrections = list(TipCorrection.objects.filter(casino_id=casino.code,
                                                    gaming_day__range=(first, last)))
    pending = [c.correction_id for c in corrections if c.status != "corrected"]
    if pending:
        raise Conflict("corrections of period {period} wait for their second person: {ids}",
                       params={"period": code, "ids": ", ".join(pending)},
                       code="corrections_pending", field="period")
    in_boxes = sum((b.amount or rule.ZERO for b in boxes), rule.ZERO)
    moved = sum(((c.amount if c.direction == "drop_to_tips" else -c.amount)
                 for c in corrections), rule.ZERO)
    total = in_boxes + moved
    if total < 0:
        raise Conflict("period {period}'s tips come to {total} after corrections: a "
                       "correction is wrong", params={"period": code, "total": fmt(total)},
                       code="negative_tips")
    active = list(TipStaff.objects.filter(casino_id=casino.code, since__lte=last).filter(
        Q(until__isnull=True) | Q(until__gte=first)))
    worked = _days(days, active, (last - first).days + 1)
    points = {c: Decimal(p) for c, p in tip_rule.points().items()}
    people = [rule.Person(s.staff_number, s.category, points[s.category], worked[s.staff_number])
              for s in active if s.category in points]
    if tip_rule.fund_percent is None:
        percent = rule.fund_percent_pt(first)
        # the law's share, cited (data of the event, in no one language: the page shows it)
        source = f"{tip_rule.source}; Portaria 12/2017: {percent} %"
    else:
        percent, source = tip_rule.fund_percent, tip_rule.source
    try:
        shared = rule.distribute(total, percent, people)
    except rule.RuleError as error:
        raise Conflict(error.template, params=error.params, code=error.code,
                       field="period") from None
    cats = tuple({"category": c.category, "people": str(c.people),
                  "points": _num(c.points), "amount": fmt(c.amount)}
                 for c in shared.categories)
    shares = tuple({"staff_number": s.staff_number, "category": s.category,
                    "points": _num(s.points), "days": str(s.days),
                    "amount": fmt(s.amount)} for s in shared.shares)
    store.append(f"tipperiod/{casino.code}.{code}", [ev.TipsDistributed(
        period=code, first_day=first, last_day=last, currency=casino.currency, total=total,
        boxes=in_boxes, corrections=moved, fund_percent=percent, fund=shared.fund,
        staff=shared.staff, categories=cats, shares=shares, source=source)],
        expected_version=0, metadata=metadata)
    found = TipPeriod.objects.get(casino_id=casino.code, period=code)
    return period_answer(found)
