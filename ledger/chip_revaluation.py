"""The foreign chips in players' hands revalued at the gaming day's closing rate
(``docs/currencies.md``), as the exchange revalues its foreign notes
(``exchange.services.foreign_cash_revalue``).

A table playing in a foreign currency books the chips it puts in players' hands at its
session's rate (2797.<currency>, ``ledger.currency_postings``), and keeps their face value in
memorandum (0900.<currency>.2781). At the day's end the liability is brought to the closing
middle rate: the face value at that rate, less what the ledger carries, is posted to the
revaluation result (7892). The ledger's own command, as ``period_close`` is: it reads the
ledger's balances under the append lock every command takes first, so no posting slips in
between the reading and the event."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum

from casino.errors import Conflict, NotAllowed
from casino.models import Casino, Role
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from exchange import rates
from exchange.selectors import accepted_currencies, middle_rate

from .answers import ChipsRevaluationRow, ChipsRevalueAnswer
from .events import ForeignChipsRevalued
from .models import AccountDayBalance

# who revalues: as the foreign notes (exchange.roles.REVALUE_ROLES), and the scheduled close
REVALUE_ROLES = ("system", Role.ACCOUNTANT, Role.ADMINISTRATOR)
ZERO = Decimal("0.00")


def revaluation_stream(casino: str, currency: str, day: object) -> str:
    return f"chips_revaluation/{casino}.{currency}.{day}"


def _balance(casino: str, code: str) -> Decimal:
    """Debits less credits of ``code`` over every day posted."""
    sums = AccountDayBalance.objects.filter(casino_id=casino, account_code=code).aggregate(
        d=Sum("debit"), c=Sum("credit"))
    return (sums["d"] or ZERO) - (sums["c"] or ZERO)


@command("foreign_chips_revalue")
def foreign_chips_revalue(*, metadata: Metadata) -> ChipsRevalueAnswer:
    """Each foreign currency's chips in players' hands revalued at the middle rate in force
    (the day's closing rate, when run at its end); once a gaming day per currency."""
    if metadata.role not in REVALUE_ROLES:
        raise NotAllowed("the chips in players' hands are revalued by an accountant or the "
                         "administrator, not in the {role} role", params={"role": metadata.role})
    casino = Casino.objects.get(code=metadata.casino)
    day = casino.gaming_day(clock.now())
    out: list[ForeignChipsRevalued] = []
    for currency in accepted_currencies(casino.code):
        mid = middle_rate(casino.code, currency)
        # the chips' face value (memorandum, credit-normal) and their book value carried
        in_hands = -_balance(casino.code, f"0900.{currency}.2781")
        carried = -_balance(casino.code, f"2797.{currency}")
        if mid is None or (not in_hands and not carried):
            continue
        if store.stream_version(revaluation_stream(casino.code, currency, day)):
            raise Conflict("the {currency} chips in players' hands were revalued for {day} "
                           "already", params={"currency": currency, "day": day.isoformat()},
                           code="revalued_already")
        after, difference = rates.revalue(in_hands, carried, mid.normalize())
        out.append(ForeignChipsRevalued(
            casino=casino.code, currency=currency, gaming_day=day, in_hands=in_hands,
            rate=mid.normalize(), book_before=carried, book_after=after, difference=difference))
    if not out:
        raise Conflict("no foreign chips are in players' hands to revalue", code="nothing_held")
    for event in out:
        store.append(revaluation_stream(casino.code, event.currency, day), [event],
                     expected_version=0, metadata=metadata)
    return ChipsRevalueAnswer(
        casino=casino.code, gaming_day=day.isoformat(), book_currency=casino.currency,
        revaluations=[ChipsRevaluationRow(
            currency=e.currency, in_hands=f"{e.in_hands:.2f}", rate=str(e.rate),
            book_before=f"{e.book_before:.2f}", book_after=f"{e.book_after:.2f}",
            difference=f"{e.difference:.2f}") for e in out])
