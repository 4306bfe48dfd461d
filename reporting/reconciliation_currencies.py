"""The reconciliation of a casino whose tables play in more than one currency (issue 39,
``docs/currencies.md``): the lines of chips in players' hands, of the tables' win and of the
drop boxes, kept per currency (the cages' chips are counted at face value in class 0, every
currency's, as for any casino). A casino with no table in a foreign
currency never comes here: its lines read exactly as ``reporting.reconciliation`` writes them.

In the book currency, the figures of the book currency's chips and tables against the book
accounts (2781, 7211 + 7212), as for any casino. In a foreign currency, the figures the
pit and the cage count in it against the ledger's memorandum of that currency at face value
(0900.<currency>.<account>: ``ledger.currency_postings``), and beside them, for information,
the book value the ledger carries (2797.<currency>, the table's 7211 + 7212)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from cage import selectors as cage_selectors
from cage.circulation import State
from cage.models import ChipCirculationDay
from casino.errors import Words, gettext_noop
from casino.models import Casino
from games.models import GamingDayResult, Table, TableSession
from games.selectors import drop_box_reconciliation

from .reconciliation_lines import Line, ledger_balance

ZERO = Decimal("0.00")


class Currencies:
    """Which chip sets and tables play in which currency (the book currency unless said)."""

    def __init__(self, casino: Casino) -> None:
        self.book = casino.currency
        self.tables: dict[str, str] = {}
        self.sets: dict[str, str] = {}
        for table in Table.objects.filter(casino=casino).exclude(currency="").exclude(
                currency=casino.currency):
            self.tables[table.code] = table.currency
            self.sets[table.chip_set] = table.currency
        for session in (TableSession.objects.filter(casino=casino).exclude(currency="")
                        .values("table", "currency").distinct()):
            self.tables.setdefault(session["table"], session["currency"])

    def __bool__(self) -> bool:
        return bool(self.tables)

    def all(self) -> list[str]:
        return [self.book, *sorted(set(self.tables.values()) - {self.book})]

    def of_set(self, chip_set: str) -> str:
        return self.sets.get(chip_set, self.book)

    def of_table(self, table: str) -> str:
        return self.tables.get(table, self.book)

    def account(self, currency: str, code: str) -> str:
        """``code`` in ``currency``: the book's own account, or its memorandum at face value."""
        return code if currency == self.book else f"0900.{currency}.{code}"


def foreign(casino: Casino) -> Currencies | None:
    found = Currencies(casino)
    return found if found else None


def in_hands(state: State, cur: Currencies) -> dict[str, Decimal]:
    figure = state.figure()
    out = {c: ZERO for c in cur.all()}
    for row in figure.rows:
        out[cur.of_set(row.chip_set)] += row.value
    for table, change in state.tray_change.items():
        out[cur.of_table(table)] -= change
    out[cur.book] -= figure.jackpot_slots
    return out


def chips(casino: Casino, day: dt.date, cur: Currencies) -> list[Line]:
    recorded = ChipCirculationDay.objects.filter(casino=casino, gaming_day=day).first()
    boundary = casino.gaming_day_end(day)
    if recorded is not None and recorded.state:
        state, note = State.from_data(recorded.state), gettext_noop("as recorded at the close")
    else:
        state = cage_selectors.circulation_state(casino=casino.code, before=boundary)
        note = gettext_noop("not recorded yet: worked out now")
    now = cage_selectors.circulation_state(casino=casino.code)
    lines = []
    for when, the_state, the_note in (
            (Words("at the boundary ({boundary} UTC)", boundary=f"{boundary:%Y-%m-%d %H:%M}"),
             state, note),
            (Words("now"), now, "")):
        values = in_hands(the_state, cur)
        for currency in cur.all():
            lines.append(Line(gettext_noop("chips"), Words("in players' hands, {currency}",
                                                           currency=currency), when,
                              values[currency],
                              -ledger_balance(casino.code, cur.account(currency, "2781"),
                                        position=the_state.position), the_note))
            if currency != cur.book:
                lines.append(Line(
                    gettext_noop("chips"), Words("in players' hands, {currency}",
                                                 currency=currency),
                    Words("{when}: book value in {book}", when=when, book=cur.book), None,
                    -ledger_balance(casino.code, f"2797.{currency}", position=the_state.position),
                    gettext_noop("at the rates of the sessions that moved them")))
    return lines


def table_wins(casino: Casino, day: dt.date, cur: Currencies) -> list[Line]:
    """Each table's win for the day in its own currency against the ledger in that currency;
    a foreign table's book value beside it."""
    lines = []
    for row in GamingDayResult.objects.filter(casino=casino, gaming_day=day).order_by("table"):
        currency = cur.of_table(row.table)
        ledger = -(ledger_balance(casino.code, cur.account(currency, f"7211.{row.table}"),
                            event_day=day)
                   + ledger_balance(casino.code, cur.account(currency, f"7212.{row.table}"),
                              event_day=day))
        if currency == cur.book:
            lines.append(Line(gettext_noop("table"), row.table, gettext_noop("table win"),
                              row.table_win, ledger))
            continue
        lines.append(Line(gettext_noop("table"), row.table,
                          Words("table win, {currency}", currency=currency), row.table_win,
                          ledger))
        book = -(ledger_balance(casino.code, f"7211.{row.table}", event_day=day)
                 + ledger_balance(casino.code, f"7212.{row.table}", event_day=day))
        lines.append(Line(gettext_noop("table"), row.table,
                          Words("table win, book value in {book}", book=cur.book), None, book,
                          gettext_noop("at the rates of the day's sessions")))
    return lines


def foreign_drops(casino: Casino, day: dt.date, cur: Currencies) -> tuple[set[str], list[Line]]:
    """The drop boxes of the day's foreign-currency sessions, in their currency: each box
    counted in the count room against received at the cage (its notes go to the cage's foreign
    holdings, ``cage.services.transactions``); and per table, what the count room still holds
    (counted, not received) against the table's drop cash in that currency
    (0900.<currency>.1120.<table>, over the day's events)."""
    sessions = {str(s.session_id): s for s in TableSession.objects.filter(
        casino=casino, gaming_day=day).exclude(currency="")}
    done: set[str] = set()
    lines: list[Line] = []
    waiting: dict[tuple[str, str], Decimal] = {}
    for box in drop_box_reconciliation(casino=casino.code, gaming_day=day):
        session = sessions.get(box.session_id)
        if session is None or box.counted is None:
            continue
        done.add(box.session_id)
        key = (session.table, session.currency)
        waiting.setdefault(key, ZERO)
        note = ("" if box.received is not None else gettext_noop("not received at the cage yet"))
        if box.received is None:
            waiting[key] += box.counted
        if box.difference:
            note = (gettext_noop("variance approved") if box.approved else
                    gettext_noop("variance awaiting approval") if box.explained else
                    gettext_noop("variance not explained"))
        lines.append(Line(gettext_noop("drop"), f"{box.table} {box.session_id[:8]}",
                          Words("counted, received at the cage, {currency}",
                                currency=session.currency), box.counted,
                          box.received if box.received is not None else ZERO, note,
                          unexplained=box.received is None and box.counted != 0,
                          accepted=box.approved))
    lines += [Line(gettext_noop("drop"), table,
                   Words("in the count room, {currency}", currency=currency), value,
                   ledger_balance(casino.code, f"0900.{currency}.1120.{table}", event_day=day),
                   gettext_noop("counted and not received yet"))
              for (table, currency), value in sorted(waiting.items())]
    return done, lines
