"""The exchange at the cage (writes): a casino's other currencies and their rates, the desk's
float, foreign notes bought and sold at the posted rates, the holdings revalued at the day's
closing rate. Each is a command (``@command``); the arithmetic is ``exchange.rates`` (pure).
``docs/currencies.md``."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from decimal import Decimal, InvalidOperation

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, gettext_noop
from casino.jurisdictions import jurisdiction_of
from casino.models import Casino
from casino.money import (
    CASH_DENOMINATIONS,
    counts_as_data,
    counts_value,
    fmt,
    parse_counts,
)
from compliance import thresholds
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata

from . import events as ev
from . import rates
from .answers import (
    CurrencyAnswer,
    DealAnswer,
    DeskAnswer,
    RateAnswer,
    RevaluationRow,
    RevalueAnswer,
)
from .models import AcceptedCurrency, ExchangeDesk, ForeignHolding, RateProposal, Revaluation
from .roles import CONFIGURE_ROLES, DESK_ROLES, RATE_ROLES, REVALUE_ROLES

_NUMBER = re.compile(r"^[0-9]{1,8}(\.[0-9]{1,6})?$")
OWN_PROPOSAL = gettext_noop("you proposed this rate: a second person approves it")


def _casino(metadata: Metadata) -> Casino:
    found = Casino.objects.filter(code=metadata.casino).first()
    if found is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": metadata.casino})
    return found


def _number(value: object, *, field: str) -> Decimal:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(
        value, bool) else None
    if text is None or not _NUMBER.match(text):
        raise InvalidCommand('{field} is a number written as a string, such as "1.03" (at most '
                             "six decimals), not {value!r}", params={"field": field,
                                                                    "value": value},
                             field=field)
    try:
        return Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern lets none through
        raise InvalidCommand("{field} is not a number", params={"field": field},
                             field=field) from None


def _accepted(casino: Casino, currency: object) -> AcceptedCurrency:
    found = AcceptedCurrency.objects.filter(casino_id=casino.code, currency=currency).first()
    if found is None:
        accepted = ", ".join(AcceptedCurrency.objects.filter(casino_id=casino.code)
                             .values_list("currency", flat=True)) or "none"
        raise InvalidCommand("casino {casino} does not accept {currency!r} (it accepts, besides "
                             "its book currency {book}: {accepted})",
                             params={"casino": casino.code, "currency": currency,
                                     "book": casino.currency, "accepted": accepted},
                             field="currency", code="currency_not_accepted")
    return found


def _rate_error(error: rates.RuleError, field: str) -> InvalidCommand:
    return InvalidCommand(error.template, params=error.params, code=error.code, field=field)


@command("currency_accept")
def currency_accept(*, currency: str, band_percent: object = "2", metadata: Metadata
                    ) -> CurrencyAnswer:
    """The casino takes ``currency`` besides its book currency, with its notes; a new rate that
    moves more than ``band_percent`` from the last one needs a second person."""
    require_role(metadata, CONFIGURE_ROLES, "accepting a currency")
    casino = _casino(metadata)
    if currency == casino.currency:
        raise InvalidCommand("{currency} is the casino's book currency already",
                             params={"currency": currency}, field="currency")
    if currency not in CASH_DENOMINATIONS:
        raise InvalidCommand("the platform knows no notes of {currency!r} (known: {known})",
                             params={"currency": currency,
                                     "known": ", ".join(sorted(CASH_DENOMINATIONS))},
                             field="currency")
    band = _number(band_percent, field="band_percent")
    if AcceptedCurrency.objects.filter(casino_id=casino.code, currency=currency).exists():
        raise Conflict("casino {casino} accepts {currency} already",
                       params={"casino": casino.code, "currency": currency},
                       code="accepted_already", field="currency")
    notes = tuple(fmt(d) for d in CASH_DENOMINATIONS[currency])
    store.append(f"fxcurrency/{casino.code}.{currency}", [ev.CurrencyAccepted(
        currency=currency, book_currency=casino.currency, denominations=notes,
        band_percent=band)], expected_version=0, metadata=metadata)
    return CurrencyAnswer(casino=casino.code, currency=currency, book_currency=casino.currency,
                          denominations=list(notes), band_percent=str(band), mid=None,
                          buy=None, sell=None)


@command("exchange_rate_post")
def exchange_rate_post(*, currency: str, mid: object, spread_percent: object = "0",
                       metadata: Metadata) -> RateAnswer:
    """A new middle rate and spread for ``currency`` (book currency per unit). Zero or less is
    refused; beyond the band from the last rate it waits for a second person
    (``exchange_rate_approve``)."""
    require_role(metadata, RATE_ROLES, "posting an exchange rate")
    casino = _casino(metadata)
    accepted = _accepted(casino, currency)
    if isinstance(mid, str) and mid.strip().startswith("-"):
        raise InvalidCommand("a rate is above zero, not {mid}", params={"mid": mid.strip()},
                             code="rate_not_positive", field="mid")
    try:
        rate = rates.check_rate(_number(mid, field="mid"),
                                _number(spread_percent, field="spread_percent"))
    except rates.RuleError as error:
        raise _rate_error(error, "mid") from None
    moved = rates.beyond_band(rate.mid, accepted.mid, accepted.band_percent)
    if moved is not None and accepted.mid is not None:
        proposal = str(uuid.uuid4())
        store.append(accepted.stream, [ev.ExchangeRateProposed(
            proposal_id=proposal, currency=accepted.currency, mid=rate.mid,
            spread_percent=rate.spread_percent, last_mid=accepted.mid, moved_percent=moved)],
            expected_version=accepted.version, metadata=metadata)
        return RateAnswer(casino=casino.code, currency=accepted.currency,
                          status="awaiting_second_person", mid=str(rate.mid),
                          spread_percent=str(rate.spread_percent), buy=str(rate.buy),
                          sell=str(rate.sell), proposal_id=proposal, moved_percent=str(moved))
    store.append(accepted.stream, [ev.ExchangeRatePosted(
        currency=accepted.currency, mid=rate.mid, spread_percent=rate.spread_percent,
        buy=rate.buy, sell=rate.sell, last_mid=accepted.mid)],
        expected_version=accepted.version, metadata=metadata)
    return RateAnswer(casino=casino.code, currency=accepted.currency, status="posted",
                      mid=str(rate.mid), spread_percent=str(rate.spread_percent),
                      buy=str(rate.buy), sell=str(rate.sell), proposal_id="",
                      moved_percent=None)


@command("exchange_rate_approve")
def exchange_rate_approve(*, proposal_id: str, metadata: Metadata) -> RateAnswer:
    """A second person approves a rate beyond the band: it is posted."""
    require_role(metadata, RATE_ROLES, "approving an exchange rate")
    casino = _casino(metadata)
    proposal = RateProposal.objects.filter(casino_id=casino.code,
                                           proposal_id=str(proposal_id)).first()
    if proposal is None:
        raise NotFound("there is no rate proposal {id!r}", params={"id": proposal_id},
                       field="proposal_id")
    if proposal.status != "proposed":
        raise Conflict("rate proposal {id} was approved already by {who}",
                       params={"id": proposal.proposal_id, "who": proposal.approved_by},
                       code="approved_already")
    if proposal.proposed_by == metadata.actor:
        raise NotAllowed(OWN_PROPOSAL, code="four_eyes")
    accepted = _accepted(casino, proposal.currency)
    rate = rates.check_rate(proposal.mid.normalize(), proposal.spread_percent.normalize())
    store.append(accepted.stream, [ev.ExchangeRatePosted(
        currency=accepted.currency, mid=rate.mid, spread_percent=rate.spread_percent,
        buy=rate.buy, sell=rate.sell, last_mid=accepted.mid, proposal_id=proposal.proposal_id,
        proposed_by=proposal.proposed_by)], expected_version=accepted.version,
        metadata=metadata)
    return RateAnswer(casino=casino.code, currency=accepted.currency, status="posted",
                      mid=str(rate.mid), spread_percent=str(rate.spread_percent),
                      buy=str(rate.buy), sell=str(rate.sell), proposal_id=proposal.proposal_id,
                      moved_percent=str(proposal.moved_percent))


@command("exchange_desk_open")
def exchange_desk_open(*, cash: object, metadata: Metadata) -> DeskAnswer:
    """The exchange desk's float of book-currency notes and coins, counted."""
    require_role(metadata, DESK_ROLES, "opening the exchange desk")
    casino = _casino(metadata)
    if ExchangeDesk.objects.filter(casino_id=casino.code).exists():
        raise Conflict("the exchange desk of {casino} is open already",
                       params={"casino": casino.code}, code="open_already")
    counts = parse_counts(cash, allowed=CASH_DENOMINATIONS[casino.currency], field="cash")
    amount = counts_value(counts).quantize(rates.CENT)
    store.append(f"fxdesk/{casino.code}", [ev.ExchangeDeskOpened(
        book_currency=casino.currency, cash=counts_as_data(counts), amount=amount)],
        expected_version=0, metadata=metadata)
    return DeskAnswer(casino=casino.code, book_currency=casino.currency, cash=fmt(amount))


def _desk(casino: Casino) -> ExchangeDesk:
    found = ExchangeDesk.objects.filter(casino_id=casino.code).first()
    if found is None:
        raise Conflict("the exchange desk of {casino} is not open: open it with its float "
                       "first", params={"casino": casino.code}, code="desk_not_open")
    return found


def _deal_inputs(casino: Casino, currency: str, cash: object
                 ) -> tuple[AcceptedCurrency, rates.Rate, dict[str, int], Decimal]:
    accepted = _accepted(casino, currency)
    if accepted.mid is None or accepted.spread_percent is None:
        raise Conflict("no rate of {currency} is posted yet", params={"currency": currency},
                       code="no_rate", field="currency")
    allowed = tuple(Decimal(d) for d in accepted.denominations)
    counts = parse_counts(cash, allowed=allowed, field="cash")
    foreign = counts_value(counts).quantize(rates.CENT)
    if foreign == 0:
        raise InvalidCommand("count the notes exchanged: none were given", field="cash")
    rate = rates.Rate(accepted.mid.normalize(), accepted.spread_percent.normalize())
    return accepted, rate, counts_as_data(counts), foreign


def _threshold_check(casino: Casino, deal: rates.Deal, currency: str) -> None:
    """The anti-money-laundering identification threshold, compared in the currency the law
    names (``compliance.thresholds``: EUR in Portugal, MOP in Macau): the deal's value in the
    book currency when that is the law's, else refused (no rate to the law's currency). A deal
    at or above it is refused here: the desk does not identify patrons yet (docs/currencies.md)."""
    day = casino.gaming_day(clock.now())
    try:
        rule = thresholds.rule_for(jurisdiction_of(casino.code, casino.currency), day)
    except thresholds.NoRule:
        return
    if rule.currency != casino.currency:
        raise Conflict("the identification threshold is set in {law}, and the desk has no rate "
                       "from {book} to it: nothing was recorded",
                       params={"law": rule.currency, "book": casino.currency},
                       code="no_rate_to_the_laws_currency")
    value = max(deal.book_currency, deal.book_value)
    if value >= rule.identify_at:
        raise Conflict("{foreign} {currency} is worth {value} {law}, at or above the threshold of "
                       "{threshold} {law} at which the patron is identified ({source}): change "
                       "it at the cage with the patron identified; nothing was recorded",
                       params={"foreign": fmt(deal.foreign), "currency": currency,
                               "value": fmt(value), "law": rule.currency,
                               "threshold": fmt(rule.identify_at), "source": rule.citation},
                       code="identification_required", field="cash")


def _deal_answer(casino: Casino, deal_id: str, kind: str, currency: str,
                 deal: rates.Deal, rate: rates.Rate, desk_cash: Decimal) -> DealAnswer:
    return DealAnswer(casino=casino.code, deal_id=deal_id, kind=kind, currency=currency,
                      foreign=fmt(deal.foreign), rate=str(deal.rate), mid=str(rate.mid),
                      book_currency=casino.currency, book_amount=fmt(deal.book_currency),
                      book_value=fmt(deal.book_value), result=fmt(deal.result),
                      desk_cash=fmt(desk_cash))


@command("foreign_cash_buy")
def foreign_cash_buy(*, currency: str, cash: object, metadata: Metadata) -> DealAnswer:
    """Foreign notes bought from a patron at the posted buying rate, paid in book currency."""
    require_role(metadata, DESK_ROLES, "buying foreign notes")
    casino = _casino(metadata)
    desk = _desk(casino)
    accepted, rate, counted, foreign = _deal_inputs(casino, currency, cash)
    deal = rates.buy(foreign, rate)
    _threshold_check(casino, deal, accepted.currency)
    if deal.book_currency > desk.cash:
        raise Conflict("the desk holds {cash} {book}: not enough to pay {paid}",
                       params={"cash": fmt(desk.cash), "book": casino.currency,
                               "paid": fmt(deal.book_currency)}, code="desk_short")
    deal_id = str(uuid.uuid4())
    store.append(desk.stream, [ev.ForeignCashBought(
        deal_id=deal_id, currency=accepted.currency, cash=counted, foreign=foreign,
        rate=deal.rate, mid=rate.mid, paid=deal.book_currency, book_value=deal.book_value,
        result=deal.result, gaming_day=casino.gaming_day(clock.now()))],
        expected_version=desk.version, metadata=metadata)
    return _deal_answer(casino, deal_id, "bought", accepted.currency, deal, rate,
                        desk.cash - deal.book_currency)


@command("foreign_cash_sell")
def foreign_cash_sell(*, currency: str, cash: object, metadata: Metadata) -> DealAnswer:
    """Foreign notes the desk holds sold to a patron at the posted selling rate."""
    require_role(metadata, DESK_ROLES, "selling foreign notes")
    casino = _casino(metadata)
    desk = _desk(casino)
    accepted, rate, counted, foreign = _deal_inputs(casino, currency, cash)
    holding = ForeignHolding.objects.filter(casino_id=casino.code, currency=currency).first()
    held = holding.pieces if holding else {}
    for d, n in counted.items():
        if held.get(d, 0) < n:
            raise Conflict("the desk holds {held} notes of {d} {currency}, not {n}",
                           params={"held": held.get(d, 0), "d": d, "currency": currency,
                                   "n": n}, code="not_held", field="cash")
    deal = rates.sell(foreign, rate)
    _threshold_check(casino, deal, accepted.currency)
    deal_id = str(uuid.uuid4())
    store.append(desk.stream, [ev.ForeignCashSold(
        deal_id=deal_id, currency=accepted.currency, cash=counted, foreign=foreign,
        rate=deal.rate, mid=rate.mid, received=deal.book_currency, book_value=deal.book_value,
        result=deal.result, gaming_day=casino.gaming_day(clock.now()))],
        expected_version=desk.version, metadata=metadata)
    return _deal_answer(casino, deal_id, "sold", accepted.currency, deal, rate,
                        desk.cash + deal.book_currency)


@command("foreign_cash_revalue")
def foreign_cash_revalue(*, gaming_day: object = None, metadata: Metadata) -> RevalueAnswer:
    """Every foreign holding revalued at the closing middle rate of the gaming day (the rate in
    force when this runs, at the day's end), the difference posted; once a day per currency."""
    require_role(metadata, REVALUE_ROLES, "revaluing the foreign holdings")
    casino = _casino(metadata)
    desk = _desk(casino)
    today = casino.gaming_day(clock.now())
    if gaming_day in (None, ""):
        day = today
    elif isinstance(gaming_day, str):
        try:
            day = dt.date.fromisoformat(gaming_day.strip())
        except ValueError:
            raise InvalidCommand('gaming_day is a date such as "2026-11-30"',
                                 field="gaming_day") from None
    elif isinstance(gaming_day, dt.date):
        day = gaming_day
    else:
        raise InvalidCommand('gaming_day is a date such as "2026-11-30"', field="gaming_day")
    if day != today:
        raise InvalidCommand("the holdings are revalued at the end of the gaming day they are "
                             "held on ({today}), not on {day}",
                             params={"today": today.isoformat(), "day": day.isoformat()},
                             field="gaming_day")
    out: list[ev.ForeignCashRevalued] = []
    for holding in ForeignHolding.objects.filter(casino_id=casino.code).order_by("currency"):
        accepted = _accepted(casino, holding.currency)
        if accepted.mid is None:
            continue
        if Revaluation.objects.filter(casino_id=casino.code, currency=holding.currency,
                                      gaming_day=day).exists():
            raise Conflict("{currency} was revalued for {day} already",
                           params={"currency": holding.currency, "day": day.isoformat()},
                           code="revalued_already")
        after, difference = rates.revalue(holding.amount, holding.book_value,
                                          accepted.mid.normalize())
        out.append(ev.ForeignCashRevalued(
            currency=holding.currency, gaming_day=day, holding=holding.amount,
            rate=accepted.mid.normalize(), book_before=holding.book_value, book_after=after,
            difference=difference))
    if not out:
        raise Conflict("the desk holds no foreign notes to revalue", code="nothing_held")
    store.append(desk.stream, list(out), expected_version=desk.version, metadata=metadata)
    return RevalueAnswer(casino=casino.code, gaming_day=day.isoformat(),
                         book_currency=casino.currency, revaluations=[RevaluationRow(
                             currency=e.currency, holding=fmt(e.holding), rate=str(e.rate),
                             book_before=fmt(e.book_before), book_after=fmt(e.book_after),
                             difference=fmt(e.difference)) for e in out])
