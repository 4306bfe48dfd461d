"""Clearing against the bank (``docs/ledger.md`` § Clearing against the bank): the casino cheques
the cage issued that the bank paid (2785 to 1210), and the batches of chips sold by card or by
the patron's own cheque that the bank credited (1220 to 1210). The accountant records each from
the bank statement; both go on the casino's stream ``bank/<casino>``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db.models import Sum

from cage.models import CasinoCheque
from casino.errors import Conflict, InvalidCommand, NotFound
from casino.inputs import text
from casino.money import Money, fmt
from eventstore import clock, store
from eventstore.commands import command
from eventstore.reads import one_instant
from eventstore.records import Metadata

from . import reports
from .answers import BatchSettleAnswer, ChequePresentAnswer
from .events import CardChequeBatchSettled, CasinoChequePresented
from .models import CardSettlement, ChequePresentation
from .selectors import casino_get
from .taxes import check_accountant

ZERO = Decimal("0.00")
REFERENCE_LIMIT = 100


def _stream(casino: str) -> str:
    return f"bank/{casino}"


def _version(casino: str) -> int:
    """Events on ``bank/<casino>`` so far: one per presented cheque and per settled batch."""
    return (ChequePresentation.objects.filter(casino_id=casino).count()
            + CardSettlement.objects.filter(casino_id=casino).count())


def _acting_in(metadata: Metadata, casino: str) -> None:
    if metadata.casino != casino:
        raise InvalidCommand("acting in casino {casino!r}, not {casino_2!r}",
                             params={"casino": metadata.casino, "casino_2": casino})


def _bank_day(value: object, *, field: str, today: dt.date) -> dt.date:
    if not isinstance(value, dt.date):
        raise InvalidCommand("the day the bank paid or credited it is a date (YYYY-MM-DD)",
                             field=field)
    if value > today:
        raise InvalidCommand("{day} is after today ({today}): give the day on the bank "
                             "statement", params={"day": value.isoformat(),
                                                  "today": today.isoformat()}, field=field)
    return value


def _local_day(casino: str, moment: dt.datetime | None = None) -> dt.date:
    """The calendar day of ``moment`` (now by default) where the casino is."""
    return (moment or clock.now()).astimezone(ZoneInfo(casino_get(casino).time_zone)).date()


@command("casino_cheque_present")
def casino_cheque_present(*, casino: str, number: object, amount: Money,
                          bank_reference: object, paid_on: object, metadata: Metadata) -> ChequePresentAnswer:
    """The bank paid casino cheque ``number`` (``CasinoChequePresented``): for exactly the
    cheque's amount, once, with the bank statement's reference and the day it paid."""
    check_accountant(metadata, "recording a casino cheque the bank paid")
    _acting_in(metadata, casino)
    today = _local_day(casino)
    given = text(number, field="number", limit=32).upper()
    cheque = CasinoCheque.objects.filter(casino_id=casino, number=given).first()
    if cheque is None:
        raise NotFound("the cage issued no casino cheque {number!r} in {casino}",
                       params={"number": given, "casino": casino}, field="number")
    presented = ChequePresentation.objects.filter(casino_id=casino, number=given).first()
    if presented is not None:
        raise Conflict("casino cheque {number} was paid by the bank already, on {day} "
                       "({reference})",
                       params={"number": given, "day": presented.paid_on.isoformat(),
                               "reference": presented.bank_reference},
                       code="cheque_presented", field="number")
    value = amount  # parsed at the edge (``casino.money.parse_amount``)
    if value != cheque.amount:
        raise InvalidCommand("casino cheque {number} is of {amount}, not {value}: the bank pays "
                             "a cheque for its whole amount",
                             params={"number": given, "amount": fmt(cheque.amount),
                                     "value": fmt(value)},
                             code="not_the_cheque_amount", field="amount")
    reference = text(bank_reference, field="bank_reference", limit=REFERENCE_LIMIT)
    day = _bank_day(paid_on, field="paid_on", today=today)
    issued = _local_day(casino, cheque.issued_at)
    if day < issued:
        raise InvalidCommand("casino cheque {number} was issued on {issued}: the bank cannot "
                             "have paid it on {day}",
                             params={"number": given, "issued": issued.isoformat(),
                                     "day": day.isoformat()}, field="paid_on")
    store.append(_stream(casino), [CasinoChequePresented(
        casino=casino, number=given, amount=value, bank_reference=reference, paid_on=day)],
        expected_version=_version(casino), metadata=metadata)
    return ChequePresentAnswer(casino=casino, number=given, amount=fmt(value),
                               bank_reference=reference, paid_on=day.isoformat())


def card_receipts_outstanding(casino: str) -> Decimal:
    """What the ledger still holds on 1220: chips sold by card or cheque, not yet credited."""
    return reports.account_balance(casino=casino, code="1220")


@command("card_cheque_batch_settle")
def card_cheque_batch_settle(*, casino: str, amount: Money, bank_reference: object,
                             credited_on: object, metadata: Metadata) -> BatchSettleAnswer:
    """The bank credited a batch of card and cheque receipts (``CardChequeBatchSettled``):
    never more than is outstanding on 1220, its reference once in the casino."""
    check_accountant(metadata, "recording a card and cheque batch the bank credited")
    _acting_in(metadata, casino)
    today = _local_day(casino)
    reference = text(bank_reference, field="bank_reference", limit=REFERENCE_LIMIT)
    used = CardSettlement.objects.filter(casino_id=casino, bank_reference=reference).first()
    if used is not None:
        raise Conflict("the bank reference {reference} is recorded already: a batch of {amount} "
                       "credited on {day}",
                       params={"reference": reference, "amount": fmt(used.amount),
                               "day": used.credited_on.isoformat()},
                       code="reference_used", field="bank_reference")
    value = amount  # parsed at the edge (``casino.money.parse_amount``)
    outstanding = card_receipts_outstanding(casino)
    if value > outstanding:
        raise Conflict("{value} is more than the card and cheque receipts outstanding: "
                       "{outstanding}",
                       params={"value": fmt(value), "outstanding": fmt(outstanding)},
                       code="more_than_outstanding", field="amount")
    day = _bank_day(credited_on, field="credited_on", today=today)
    store.append(_stream(casino), [CardChequeBatchSettled(
        casino=casino, bank_reference=reference, amount=value, credited_on=day)],
        expected_version=_version(casino), metadata=metadata)
    return BatchSettleAnswer(casino=casino, bank_reference=reference, amount=fmt(value),
                             credited_on=day.isoformat(), outstanding=fmt(outstanding - value))


# --- reads ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Clearing:
    """The accountant's page (and ``GET /api/v1/ledger/<casino>/bank/``): what the bank has
    still to clear, and what it cleared. ``cheques_outstanding_ledger`` is what the ledger owes
    on 2785 at the same instant: it equals ``cheques_outstanding_total``, the cage's cheques less
    those presented, or the reconciliation has a line to explain."""

    outstanding_cheques: list[CasinoCheque]
    presented: list[ChequePresentation]
    card_outstanding: Decimal
    settlements: list[CardSettlement]
    cheques_outstanding_ledger: Decimal

    @property
    def cheques_outstanding_total(self) -> Decimal:
        return sum((c.amount for c in self.outstanding_cheques), ZERO)


def clearing(*, casino: str) -> Clearing:
    with one_instant():
        presented = list(ChequePresentation.objects.filter(casino_id=casino)
                         .order_by("-paid_on", "-recorded_at"))
        done = {p.number for p in presented}
        cheques = [c for c in CasinoCheque.objects.filter(casino_id=casino)
                   .order_by("issued_at", "number") if c.number not in done]
        return Clearing(outstanding_cheques=cheques, presented=presented,
                        card_outstanding=card_receipts_outstanding(casino),
                        settlements=list(CardSettlement.objects.filter(casino_id=casino)
                                         .order_by("-credited_on", "-recorded_at")),
                        cheques_outstanding_ledger=-reports.account_balance(casino=casino,
                                                                            code="2785"))


@dataclass(frozen=True)
class Cleared:
    """What the bank has cleared of a casino's: the cheques it paid (amount, how many) and the
    card and cheque batches it credited."""

    cheques_presented: Decimal
    presented: int
    batches_credited: Decimal


def cleared_totals(*, casino: str) -> Cleared:
    presented = ChequePresentation.objects.filter(casino_id=casino)
    cheques = presented.aggregate(s=Sum("amount"))["s"] or ZERO
    settled = CardSettlement.objects.filter(casino_id=casino).aggregate(s=Sum("amount"))["s"]
    return Cleared(cheques_presented=cheques, presented=presented.count(),
                   batches_credited=settled or ZERO)
