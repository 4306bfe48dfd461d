"""The currency a table plays in (``docs/currencies.md``): the casino's book currency unless a
``TableCurrencyChanged`` says otherwise, and then one the casino accepts (``exchange``), with a
chip set of that currency. A session of a table in a foreign currency opens at the exchange's
middle rate in force (``session_rate``); the ledger books the whole session at it."""

from __future__ import annotations

from decimal import Decimal

from casino.errors import Conflict, InvalidCommand, NotFound
from casino.models import Casino, ChipSet
from eventstore import store
from eventstore.records import Metadata
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


def session_rate(table: Table, casino: Casino) -> tuple[str, Decimal | None]:
    """The currency and the book-value rate a new session of ``table`` opens with: ``("",
    None)`` for the book currency; for another, the exchange's middle rate in force (refused
    when none is posted)."""
    currency = table_currency(table, casino)
    if currency == casino.currency:
        return "", None
    rate = exchange.middle_rate(casino.code, currency)
    if rate is None:
        raise InvalidCommand(NO_RATE, params={"table": table.code, "currency": currency},
                             code="no_rate", field="currency")
    return currency, rate


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
