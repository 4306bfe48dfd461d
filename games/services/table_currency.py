"""The currency a table plays in (``docs/currencies.md``): the casino's book currency unless a
``TableCurrencyChanged`` says otherwise, and then one the casino accepts (``exchange``), with a
chip set of that currency. A session of a table in a foreign currency opens at the exchange's
middle rate in force (``session_rate``); the ledger books the whole session at it."""

from __future__ import annotations

from decimal import Decimal

from casino.errors import Conflict, InvalidCommand, NotFound, gettext_noop
from casino.models import Casino, ChipSet
from eventstore import store
from eventstore.records import Metadata
from exchange import rates
from exchange import selectors as exchange
from games.answers import TableCurrencyAnswer
from games.events import TableCurrencyChanged
from games.models import Table

from ._common import casino_get, check_casino, command, table_get

NOT_ACCEPTED = ("casino {casino} does not accept {currency}: a table plays in its book "
                "currency or one it accepts ({accepted})")
NO_RATE = ("table {table} plays in {currency} and no {currency} rate is posted yet: the "
           "exchange posts one before the table opens")


def table_currency(table: Table, casino: Casino) -> str:
    """The currency ``table`` plays in: its own, or the casino's book currency."""
    return table.currency or casino.currency


BEYOND_BAND = gettext_noop(
    "the rate {rate} is {moved} % from {currency}'s last posted rate {last}, beyond the band "
    "of {band} %: a session opens at it only when a second person approves (ask for a "
    "session rate approval)")
BOOK_CURRENCY_RATE = gettext_noop(
    "table {table} plays in the book currency ({currency}): its session takes no rate")


def asked_rate(value: object) -> Decimal:
    """A rate typed for a session: a number above zero, six decimals at most."""
    try:
        rate = Decimal(str(value).strip()) if isinstance(value, str | int | Decimal) else None
    except ArithmeticError:
        rate = None
    if rate is None or isinstance(value, bool):
        raise InvalidCommand("the rate is a number such as 1.03, not {value!r}",
                             params={"value": value}, field="rate")
    try:
        return rates.check_rate(rate, Decimal(0)).mid
    except rates.RuleError as error:
        raise InvalidCommand(error.template, params=error.params, code=error.code,
                             field="rate") from None


def session_rate(table: Table, casino: Casino, asked: object = None, *,
                 approved: bool = False) -> tuple[str, Decimal | None]:
    """The currency and the book-value rate a new session of ``table`` opens with: ``("",
    None)`` for the book currency; for another, the exchange's middle rate in force (refused
    when none is posted), or the rate ``asked`` for the session: taken within the currency's
    band from the last posted rate, beyond it only ``approved`` by a second person (the
    approval kind ``session_rate``), as a posted rate is (``exchange.rates.beyond_band``)."""
    currency = table_currency(table, casino)
    if currency == casino.currency:
        if asked not in (None, ""):
            raise InvalidCommand(BOOK_CURRENCY_RATE, params={"table": table.code,
                                                             "currency": currency},
                                 code="book_currency", field="rate")
        return "", None
    rate = exchange.middle_rate(casino.code, currency)
    if rate is None:
        raise InvalidCommand(NO_RATE, params={"table": table.code, "currency": currency},
                             code="no_rate", field="currency")
    if asked in (None, ""):
        return currency, rate
    wanted = asked_rate(asked)
    band = exchange.rate_band(casino.code, currency)
    assert band is not None  # the table's currency is accepted (table_change_currency)
    moved = rates.beyond_band(wanted, rate, band[1])
    if moved is not None and not approved:
        raise Conflict(BEYOND_BAND, params={
            "rate": wanted.normalize(), "moved": moved, "currency": currency,
            "last": rate.normalize(), "band": band[1].normalize()},
            code="rate_beyond_band", field="rate", moved_percent=str(moved))
    return currency, wanted


@command("table_change_currency")
def table_change_currency(*, casino: str, code: str, currency: str, chip_set: str,
                          reason: str = "", metadata: Metadata) -> TableCurrencyAnswer:
    """The currency ``code`` plays in from its next session on, and its chip set of that
    currency (``TableCurrencyChanged``). Refused: a currency the casino does not accept, a chip
    set that does not exist or that another table plays in another currency, an open session."""
    check_casino(metadata, casino)
    the_casino = casino_get(casino)
    table = table_get(casino, code, lock=True)
    accepted = exchange.accepted_currencies(casino)
    if not isinstance(currency, str) or currency not in (the_casino.currency, *accepted):
        raise InvalidCommand(NOT_ACCEPTED, params={
            "casino": casino, "currency": str(currency),
            "accepted": ", ".join([the_casino.currency, *accepted])},
            code="currency_not_accepted", field="currency")
    if table.open_session_id is not None:
        raise Conflict("table {code} has an open session: close it before changing its "
                       "currency", params={"code": code}, field="currency")
    if table.last_closing:
        raise Conflict("table {code}'s tray still holds the chips of its last session: credit "
                       "them to the cage (a session closing with an empty tray) before it "
                       "changes currency", params={"code": code}, field="currency")
    if not ChipSet.objects.filter(casino_id=casino, code=chip_set).exists():
        raise NotFound("there is no chip set {chip_set!r} in {casino}",
                       params={"chip_set": chip_set, "casino": casino}, field="chip_set")
    for other in Table.objects.filter(casino_id=casino, chip_set=chip_set).exclude(code=code):
        theirs = table_currency(other, the_casino)
        if theirs != currency:
            raise InvalidCommand(
                "chip set {chip_set} is table {other}'s {theirs} chips: a table in {currency} "
                "plays with chips of its own currency",
                params={"chip_set": chip_set, "other": other.code, "theirs": theirs,
                        "currency": currency}, code="chips_of_another_currency",
                field="chip_set")
    store.append(table.stream, [TableCurrencyChanged(table=code, currency=currency, chip_set=chip_set,
                                                     reason=str(reason).strip())],
                 expected_version=table.version, metadata=metadata)
    return TableCurrencyAnswer(casino=casino, table=code, currency=currency, chip_set=chip_set,
                               version=table.version + 1)
