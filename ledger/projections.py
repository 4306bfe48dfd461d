"""The ledger projection: events in, journal entries out, in the appending transaction.

``apply`` is the whole of it, written once against a ``Store``: ``DatabaseStore`` for the live
projection (the ``journal_entry`` / ``journal_line`` tables and their neighbours) and
``MemoryStore`` for ``replay_snapshot``, which computes in memory the journal a replay of the
events would produce, so that ``rebuild_projections --check`` can compare it with the live
journal without ever emptying it (the journal refuses TRUNCATE, like the events).

For each event: ask ``ledger.postings`` for its entry, find the gaming day it belongs to (the
casino's time zone and closing hour at the moment the event was recorded), post it in that day
or, if the day is closed, in the first open day after it (the entry keeps its event's day and, for
a correction, the number of the entry it corrects), and keep the running balances and table
figures beside it.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Protocol

from django.db import connection
from django.db.models import Model, QuerySet

from casino import gaming_day as gaming_days
from casino.errors import Words
from casino.events import CasinoRegistered, CasinoSettingsChanged
from casino.models import Casino
from eventstore.changes import Change, Insert, Sql, Update, Upsert
from eventstore.events import Event
from eventstore.projections import Projection, handles, handles_each, register
from eventstore.reads import Read
from eventstore.records import RecordedEvent
from eventstore.writer import Reader
from games.events import TableSessionOpened

from . import postings
from .chart import AccountRef
from .events import (
    CardChequeBatchSettled,
    CasinoChequePresented,
    GamingDayClosed,
    GamingTaxAccrued,
    GamingTaxPaid,
    PeriodClosed,
    TaxParameterSet,
)
from .models import (
    Account,
    AccountDayBalance,
    CardSettlement,
    ChequePresentation,
    DayClose,
    JournalEntry,
    JournalLine,
    LedgerSession,
    Period,
    TableDay,
    TaxAccrual,
    TaxParameterChange,
)
from .postings import ZERO, Posting, SessionFacts, TableStats

CENT = Decimal("0.01")
Row = tuple[Any, ...]
Snapshot = dict[str, list[Row]]


@dataclass(frozen=True)
class EntryRow:
    casino: str
    day: dt.date
    event_day: dt.date
    event_position: int
    event_type: str
    stream: str
    recorded_at: dt.datetime
    description: str  # Words (its template and values kept beside it: ``words``)
    corrects: int | None  # the number of the entry it corrects

    @property
    def words(self) -> dict[str, Any]:
        d = self.description
        return d.as_data() if isinstance(d, Words) else {}


class Store(Protocol):
    def begin(self, recorded: RecordedEvent) -> None:
        """About to post ``recorded``: a chance to fetch what it will ask for at once."""
        ...

    def casino_settings(self, casino: str) -> tuple[str, int]: ...
    def closed_days(self, casino: str, since: dt.date) -> set[dt.date]: ...
    def balance(self, casino: str, account: AccountRef) -> Decimal: ...
    def session(self, session_id: str) -> SessionFacts | None: ...
    def put_session(self, casino: str, facts: SessionFacts) -> None: ...
    def last_entry(self, casino: str, stream: str, event_type: str) -> int | None: ...
    def write(self, casino: str, day: dt.date, entry: EntryRow | None,
              lines: Sequence[postings.Line], stats: TableStats | None) -> None:
        """Post ``entry`` with ``lines`` (if any) and add ``stats`` to the table's day."""
        ...

    def close_period(self, recorded: RecordedEvent) -> None: ...


class _Context:
    """``postings.Context`` for one casino, answered by a store."""

    def __init__(self, store: Store, casino: str) -> None:
        self.store = store
        self.casino = casino

    def balance(self, account: AccountRef) -> Decimal:
        return self.store.balance(self.casino, account)

    def session(self, session_id: str) -> SessionFacts | None:
        return self.store.session(session_id)


# What the ledger projection handles: every class ``postings`` reads, and the period's close.
HANDLED_CLASSES: frozenset[type[Event]] = postings.EVENT_CLASSES | {PeriodClosed}
HANDLED = postings.EVENT_TYPES | {PeriodClosed.event_type}


def apply(recorded: RecordedEvent, store: Store) -> None:
    """Post ``recorded`` through ``store``: the one code path of live posting and replay. The
    postings take the typed event, read through the upcasters (``recorded.event``)."""
    event_type = recorded.event_type
    if event_type not in HANDLED:  # by the stored name: an event not posted is not decoded
        return
    event = recorded.event
    if isinstance(event, PeriodClosed):
        store.close_period(recorded)
        return
    casino = str(recorded.metadata.get("casino", ""))
    store.begin(recorded)
    posting: Posting | None = postings.post(event, _Context(store, casino))
    if isinstance(event, postings.SessionEvent):
        current = (None if isinstance(event, TableSessionOpened)
                   else store.session(event.session_id))
        facts = postings.session_after(event, current)
        if facts is not None:
            store.put_session(casino, facts)
    if posting is None:
        return
    time_zone, closes_at = store.casino_settings(casino)
    event_day = posting.gaming_day or _event_day(recorded, store, time_zone, closes_at)
    day = postings.open_day(event_day, store.closed_days(casino, event_day))
    entry = None
    if posting.lines:
        corrects = (store.last_entry(casino, recorded.stream, event_type)
                    if posting.corrects_previous else None)
        description = posting.description
        if day != event_day:
            description = Words("{description} [gaming day {event_day} was closed: posted in "
                                "{day}]", description=description, event_day=event_day, day=day)
        entry = EntryRow(casino, day, event_day, recorded.position, event_type, recorded.stream,
                         recorded.recorded_at, description, corrects)
    if entry is not None or posting.stats is not None:
        store.write(casino, day, entry, posting.lines, posting.stats)


def _session_id(event: Event) -> str | None:
    """The table session an event is about, if any (its ``session_id``)."""
    session_id = getattr(event, "session_id", None)
    return str(session_id) if session_id else None


def _event_day(recorded: RecordedEvent, store: Store, time_zone: str, closes_at: int
               ) -> dt.date:
    """The gaming day an event belongs to (``casino.gaming_day``): a table session's events
    belong to the day the session opened in, as in the pit; any other event to its moment's."""
    session_id = _session_id(recorded.event)
    facts = store.session(session_id) if session_id else None
    if facts is not None and facts.gaming_day is not None:
        return facts.gaming_day
    return gaming_days.day_of(recorded.recorded_at, time_zone, closes_at)


# --- the live store: PostgreSQL -----------------------------------------------------------------

# What an event's posting will ask for, in one round trip: the casino's time zone and closing
# hour, the closed days from two days before the event on (its gaming day is one of the two
# calendar days around its UTC date), and the table session it belongs to, if any.
_BEGIN_SQL = f"""
SELECT c.time_zone, c.gaming_day_closes_at,
       ARRAY(SELECT p.day FROM ledger_period p WHERE p.casino_id = c.code AND p.day >= %s),
       s.session_id, s."table", s.game, s.drop_recorded, s.drop_counted, s.gaming_day,
       s.currency, s.rate
  FROM {Casino._meta.db_table} c
  LEFT JOIN ledger_session s ON s.session_id = %s
 WHERE c.code = %s
"""
# One statement: the accounts it names (made on first use), the entry (numbered after the
# casino's last), its lines, the day's running balances and the table's figures.
_ACCOUNT_ROW = "(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
_LINE_ROW = "(%s::smallint, %s, %s::numeric, %s::numeric)"
_BALANCE_ROW = "(%s, %s::numeric, %s::numeric)"
_WRITE_ACCOUNTS = """
account AS (
    INSERT INTO ledger_account (casino_id, code, name, name_pt, kind, normal, template, scope,
                                game, snc, macau)
    VALUES {rows}
    ON CONFLICT (casino_id, code) DO NOTHING
)"""
_WRITE_ENTRY = """
entry AS (
    INSERT INTO journal_entry (casino_id, number, day, event_day, event_position, event_type,
                               stream, recorded_at, description, words, corrects_id, txid)
    SELECT %s, coalesce(max(number), 0) + 1, %s, %s, %s, %s, %s, %s, %s, %s::jsonb,
           (SELECT id FROM journal_entry WHERE casino_id = %s AND number = %s), 0
      FROM journal_entry WHERE casino_id = %s
    RETURNING id, number
), line AS (
    INSERT INTO journal_line (entry_id, line_no, casino_id, account_code, debit, credit)
    SELECT entry.id, v.line_no, %s, v.account_code, v.debit, v.credit
      FROM entry, (VALUES {lines}) AS v (line_no, account_code, debit, credit)
), balance AS (
    INSERT INTO ledger_balance (casino_id, day, account_code, debit, credit)
    SELECT %s, %s, v.account_code, v.debit, v.credit
      FROM (VALUES {balances}) AS v (account_code, debit, credit)
    ON CONFLICT (casino_id, day, account_code) DO UPDATE
       SET debit = ledger_balance.debit + EXCLUDED.debit,
           credit = ledger_balance.credit + EXCLUDED.credit
)"""
_WRITE_STATS = """
stats AS (
    INSERT INTO ledger_table_day (casino_id, day, "table", game, handle, "drop", rounds,
                                  sessions)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (casino_id, day, "table") DO UPDATE
       SET handle = ledger_table_day.handle + EXCLUDED.handle,
           "drop" = ledger_table_day."drop" + EXCLUDED."drop",
           rounds = ledger_table_day.rounds + EXCLUDED.rounds,
           sessions = ledger_table_day.sessions + EXCLUDED.sessions
)"""


# The tables ``_BEGIN_SQL`` reads, and those a ``write`` statement reads and writes.
_BEGIN_TABLES = (Casino, Period, LedgerSession)
_WRITE_TABLES = (Account, JournalEntry, JournalLine, AccountDayBalance, TableDay)


def begin_statement(casino: str, session_id: str, at: dt.datetime
                    ) -> tuple[str, list[Any]]:
    """``DatabaseStore.begin``'s read for an event of ``casino`` about ``session_id`` recorded
    ``at``: also what ``LedgerProjection.reads_ahead`` sends with a command's append lock."""
    since = at.astimezone(dt.UTC).date() - dt.timedelta(days=2)
    return _BEGIN_SQL, [since, session_id, casino]


@dataclass
class _Prefetched:
    position: int
    settings: tuple[str, int]
    closed_since: dt.date
    closed: set[dt.date]
    session_id: str | None
    session: SessionFacts | None


class DatabaseStore:
    """The live store: reads and writes the ledger's tables in the appending transaction.

    ``begin`` fetches in one query what the event's posting will ask for (once for the events
    of one append that ask the same, while nothing changes what it read: ``Reader.fetch_one``'s
    ``tables``); a posting then costs one more statement (``write``, which names the tables it
    reaches, so the other projections' changes merge around it), two for a table-session
    event that updates the session.
    ``write`` and ``put_session`` make changes (``changes``) that the projection returns: the
    writer sends them with the event store's INSERT.
    """

    def __init__(self, reader: Reader) -> None:
        self._pre: _Prefetched | None = None
        self._reader = reader
        self.changes: list[Change] = []

    def begin(self, recorded: RecordedEvent) -> None:
        casino = str(recorded.metadata.get("casino", ""))
        session_id = _session_id(recorded.event)
        statement = begin_statement(casino, session_id or "", recorded.recorded_at)
        since = statement[1][0]
        self._pre = None
        # read ahead with the lock, when it could; the same read again in this append (the
        # next posting of a batch: same casino, moment, no session) is answered from the first
        # while nothing since has changed the tables it reads
        row = self._reader.fetch_one(*statement, tables=_BEGIN_TABLES)
        if row is None:
            return
        zone, hour, closed, sid, table, game, recorded_drop, counted, day, cur, rate = row
        session = (SessionFacts(sid, table, game, recorded_drop, counted, day, cur, rate)
                   if sid is not None else None)
        self._pre = _Prefetched(recorded.position, (str(zone), int(hour)), since, set(closed),
                                session_id, session)

    def casino_settings(self, casino: str) -> tuple[str, int]:
        if self._pre is not None:
            return self._pre.settings
        raise postings.PostingError(f"casino {casino!r} is unknown: no gaming day to post in")

    def closed_days(self, casino: str, since: dt.date) -> set[dt.date]:
        if self._pre is not None and since >= self._pre.closed_since:
            return {d for d in self._pre.closed if d >= since}
        return set(Period.objects.filter(casino_id=casino, day__gte=since)
                   .values_list("day", flat=True))

    def balance(self, casino: str, account: AccountRef) -> Decimal:
        with connection.cursor() as cursor:
            cursor.execute("SELECT coalesce(sum(debit - credit), 0) FROM ledger_balance "
                           "WHERE casino_id = %s AND account_code = %s", [casino, account.code])
            value = cursor.fetchone()[0]
        return Decimal(value).quantize(CENT)

    def session(self, session_id: str) -> SessionFacts | None:
        if self._pre is not None and self._pre.session_id == session_id:
            return self._pre.session
        row = LedgerSession.objects.filter(session_id=session_id).first()
        if row is None:
            return None
        return SessionFacts(row.session_id, row.table, row.game, row.drop_recorded,
                            row.drop_counted, row.gaming_day, row.currency, row.rate)

    def put_session(self, casino: str, facts: SessionFacts) -> None:
        figures = {"casino_id": casino, "table": facts.table, "game": facts.game,
                   "drop_recorded": facts.drop_recorded, "drop_counted": facts.drop_counted,
                   "gaming_day": facts.gaming_day, "currency": facts.currency,
                   "rate": facts.rate}
        self.changes.append(Upsert(LedgerSession, {"session_id": facts.session_id},
                                   values=figures, set=figures))
        if self._pre is not None and self._pre.session_id == facts.session_id:
            self._pre.session = facts

    def last_entry(self, casino: str, stream: str, event_type: str) -> int | None:
        return (JournalEntry.objects.filter(casino_id=casino, stream=stream,
                                            event_type=event_type)
                .order_by("-number").values_list("number", flat=True).first())

    def write(self, casino: str, day: dt.date, entry: EntryRow | None,
              lines: Sequence[postings.Line], stats: TableStats | None) -> None:
        parts: list[str] = []
        params: list[Any] = []
        if entry is not None and lines:
            accounts = sorted({line.account for line in lines})
            parts.append(_WRITE_ACCOUNTS.format(rows=", ".join([_ACCOUNT_ROW] * len(accounts))))
            for ref in accounts:
                params += _account_row(casino, ref)
            parts.append(_WRITE_ENTRY.format(lines=", ".join([_LINE_ROW] * len(lines)),
                                             balances=", ".join([_BALANCE_ROW] * len(lines))))
            params += [casino, entry.day, entry.event_day, entry.event_position,
                       entry.event_type, entry.stream, entry.recorded_at, entry.description,
                       json.dumps(entry.words), casino, entry.corrects, casino, casino]
            for number, line in enumerate(lines, start=1):
                params += [number, line.account.code, line.debit, line.credit]
            params += [casino, day]
            for line in lines:
                params += [line.account.code, line.debit, line.credit]
        if stats is not None:
            parts.append(_WRITE_STATS)
            params += [casino, day, stats.table, stats.game, stats.handle, stats.drop,
                       stats.rounds, stats.sessions]
        if not parts:
            return
        self.changes.append(Sql("WITH " + ",".join(parts) + " SELECT 1", params,
                                tables=_WRITE_TABLES))

    def close_period(self, recorded: RecordedEvent) -> None:
        self.changes.append(Insert(Period, _period_fields(recorded)))


def _account_row(casino: str, ref: AccountRef) -> list[Any]:
    t = ref.template
    return [casino, ref.code, ref.name, ref.name_pt, str(t.kind), t.normal, t.code, ref.scope,
            ref.game, t.snc, t.macau]


def _period_fields(recorded: RecordedEvent) -> dict[str, Any]:
    event = recorded.event
    assert isinstance(event, PeriodClosed)
    return {"casino_id": event.casino, "day": event.gaming_day,
            "closed_at": recorded.recorded_at,
            "closed_by": str(recorded.metadata.get("actor", "")),
            "event_position": recorded.position, "entries": event.entries,
            "debit_total": event.debit_total, "credit_total": event.credit_total}


# --- the replay store: memory -------------------------------------------------------------------


# The events a replay follows for each casino's time zone and closing hour (``follow_casino``).
CASINO_EVENTS = frozenset({CasinoRegistered.event_type, CasinoSettingsChanged.event_type})


class MemoryStore:
    """The same tables as dictionaries: what a replay of the events would write."""

    def __init__(self) -> None:
        self.casinos: dict[str, tuple[str, int]] = {}
        self.accounts: dict[tuple[str, str], Row] = {}
        self.entries: list[Row] = []
        self.lines: list[Row] = []
        self.numbers: dict[str, int] = {}
        self.last: dict[tuple[str, str, str], int] = {}
        self.balances: dict[tuple[str, dt.date, str], list[Decimal]] = {}
        self.totals: dict[tuple[str, str], Decimal] = {}
        self.sessions: dict[str, tuple[str, SessionFacts]] = {}
        self.table_days: dict[tuple[str, dt.date, str], list[Any]] = {}
        self.periods: list[Row] = []
        self.closed: dict[str, set[dt.date]] = {}

    def follow_casino(self, recorded: RecordedEvent) -> None:
        """The casino's time zone and closing hour as they were when each event was recorded."""
        if recorded.event_type not in CASINO_EVENTS:  # by the stored name: not decoded
            return
        event = recorded.event
        if isinstance(event, CasinoRegistered):
            self.casinos[event.code] = (event.time_zone, int(event.gaming_day_closes_at))
        elif isinstance(event, CasinoSettingsChanged):
            code = recorded.stream_id
            zone, hour = self.casinos.get(code, ("UTC", 0))
            if event.time_zone:
                zone = event.time_zone
            if event.gaming_day_closes_at is not None:
                hour = int(event.gaming_day_closes_at)
            self.casinos[code] = (zone, hour)

    def begin(self, recorded: RecordedEvent) -> None:
        pass

    def casino_settings(self, casino: str) -> tuple[str, int]:
        try:
            return self.casinos[casino]
        except KeyError:
            raise postings.PostingError(f"casino {casino!r} is unknown") from None

    def closed_days(self, casino: str, since: dt.date) -> set[dt.date]:
        return {d for d in self.closed.get(casino, set()) if d >= since}

    def balance(self, casino: str, account: AccountRef) -> Decimal:
        return self.totals.get((casino, account.code), ZERO)

    def session(self, session_id: str) -> SessionFacts | None:
        found = self.sessions.get(session_id)
        return None if found is None else found[1]

    def put_session(self, casino: str, facts: SessionFacts) -> None:
        self.sessions[facts.session_id] = (casino, facts)

    def last_entry(self, casino: str, stream: str, event_type: str) -> int | None:
        return self.last.get((casino, stream, event_type))

    def write(self, casino: str, day: dt.date, entry: EntryRow | None,
              lines: Sequence[postings.Line], stats: TableStats | None) -> None:
        if entry is not None and lines:
            self._entry(entry, lines)
        if stats is not None:
            row = self.table_days.setdefault((casino, day, stats.table),
                                             [stats.game, ZERO, ZERO, 0, 0])
            row[1] += stats.handle
            row[2] += stats.drop
            row[3] += stats.rounds
            row[4] += stats.sessions

    def _entry(self, entry: EntryRow, lines: Sequence[postings.Line]) -> None:
        number = self.numbers.get(entry.casino, 0) + 1
        self.numbers[entry.casino] = number
        self.last[(entry.casino, entry.stream, entry.event_type)] = number
        self.entries.append((entry.casino, number, entry.day, entry.event_day,
                             entry.event_position, entry.event_type, entry.stream,
                             entry.recorded_at, entry.description, _words(entry.words),
                             entry.corrects))
        for line_no, line in enumerate(lines, start=1):
            code = line.account.code
            if (entry.casino, code) not in self.accounts:
                self.accounts[(entry.casino, code)] = tuple(_account_row(entry.casino,
                                                                         line.account))
            self.lines.append((entry.casino, number, line_no, code, _money(line.debit),
                               _money(line.credit)))
            sums = self.balances.setdefault((entry.casino, entry.day, code), [ZERO, ZERO])
            sums[0] += line.debit
            sums[1] += line.credit
            key = (entry.casino, code)
            self.totals[key] = self.totals.get(key, ZERO) + line.debit - line.credit

    def close_period(self, recorded: RecordedEvent) -> None:
        f = _period_fields(recorded)
        self.closed.setdefault(f["casino_id"], set()).add(f["day"])
        self.periods.append((f["casino_id"], f["day"], f["closed_at"], f["closed_by"],
                             f["event_position"], f["entries"], _money(f["debit_total"]),
                             _money(f["credit_total"])))

    def snapshot(self, unworded: Collection[tuple[str, int]] = ()) -> Snapshot:
        """``unworded``: the entries (casino, number) the live journal keeps without words,
        posted before descriptions kept them (the journal refuses an UPDATE, so they stay
        without): their words are not compared, their description is."""
        entries = self.entries
        if unworded:
            blank = _words({})
            entries = [(*e[:9], blank, *e[10:]) if (e[0], e[1]) in unworded else e
                       for e in entries]
        return {
            "ledger_account": list(self.accounts.values()),
            "journal_entry": entries,
            "journal_line": self.lines,
            "ledger_period": self.periods,
            "ledger_balance": [(c, d, a, _money(s[0]), _money(s[1]))
                               for (c, d, a), s in self.balances.items()],
            "ledger_table_day": [(c, d, t, r[0], _money(r[1]), _money(r[2]), r[3], r[4])
                                 for (c, d, t), r in self.table_days.items()],
            "ledger_session": [(f.session_id, c, f.table, f.game, _money(f.drop_recorded),
                                None if f.drop_counted is None else _money(f.drop_counted),
                                f.gaming_day)
                               for c, f in self.sessions.values()],
        }


def _money(value: Decimal) -> str:
    return str(Decimal(value).quantize(CENT))


def _words(words: Mapping[str, Any]) -> str:
    """An entry's words as compared: canonical JSON."""
    return json.dumps(words, sort_keys=True, ensure_ascii=False)


def database_snapshot() -> Snapshot:
    """The live tables in ``MemoryStore.snapshot``'s shape (natural keys, amounts as text)."""
    found = list(JournalEntry.objects.values_list(
        "id", "casino_id", "number", "day", "event_day", "event_position", "event_type",
        "stream", "recorded_at", "description", "words", "corrects_id"))
    numbers = {row[0]: row[2] for row in found}
    entries = [(*row[1:10], _words(row[10]), numbers.get(row[11]) if row[11] else None)
               for row in found]
    lines = [(c, numbers[entry], n, a, _money(d), _money(cr)) for entry, n, c, a, d, cr in
             JournalLine.objects.values_list("entry_id", "line_no", "casino_code",
                                             "account_code", "debit", "credit")]
    return {
        "ledger_account": [tuple(r) for r in Account.objects.values_list(
            "casino_id", "code", "name", "name_pt", "kind", "normal", "template", "scope",
            "game", "snc", "macau")],
        "journal_entry": entries,
        "journal_line": lines,
        "ledger_period": [(c, d, at, by, p, n, _money(dr), _money(cr)) for c, d, at, by, p, n,
                          dr, cr in Period.objects.values_list(
                              "casino_id", "day", "closed_at", "closed_by", "event_position",
                              "entries", "debit_total", "credit_total")],
        "ledger_balance": [(c, d, a, _money(dr), _money(cr)) for c, d, a, dr, cr in
                           AccountDayBalance.objects.values_list(
                               "casino_id", "day", "account_code", "debit", "credit")],
        "ledger_table_day": [(c, d, t, g, _money(h), _money(dp), r, s) for c, d, t, g, h, dp, r, s
                             in TableDay.objects.values_list(
                                 "casino_id", "day", "table", "game", "handle", "drop",
                                 "rounds", "sessions")],
        "ledger_session": [(i, c, t, g, _money(r), None if k is None else _money(k), day)
                           for i, c, t, g, r, k, day in LedgerSession.objects.values_list(
                               "session_id", "casino_id", "table", "game", "drop_recorded",
                               "drop_counted", "gaming_day")],
    }


def _unworded() -> set[tuple[str, int]]:
    """The live entries posted before descriptions kept their words (``MemoryStore.snapshot``)."""
    return set(JournalEntry.objects.filter(words={}).values_list("casino_id", "number"))


def replay(events: Iterable[RecordedEvent]) -> MemoryStore:
    store = MemoryStore()
    for recorded in events:
        store.follow_casino(recorded)
        apply(recorded, store)
    return store


@register
class LedgerProjection(Projection):
    """The general ledger. Append-only: checked against an in-memory replay, never rebuilt."""

    name = "ledger"
    models = (Account, JournalEntry, JournalLine, Period, AccountDayBalance, TableDay,
              LedgerSession)
    append_only: ClassVar[bool] = True
    # What its replay reads: the events it posts from, and the casinos' settings.
    follows: ClassVar[frozenset[str]] = HANDLED | CASINO_EVENTS

    @handles_each(HANDLED_CLASSES)
    def post(self, event: Event, recorded: RecordedEvent, *, reader: Reader) -> list[Change]:
        # A store per event: what it fetched for one event is never seen by another.
        store = DatabaseStore(reader)
        apply(recorded, store)
        return store.changes

    def reads_ahead(self, about: Mapping[str, Any]) -> list[Read]:
        """A command about a table session will post: the casino's settings, closed days and
        the session's facts, as ``begin`` reads them (the same statement, so it is taken)."""
        if "casino" not in about or "session_id" not in about or "at" not in about:
            return []
        return [begin_statement(str(about["casino"]), str(about["session_id"]), about["at"])]

    def snapshot(self) -> Snapshot:
        return database_snapshot()

    def replay_snapshot(self, events: Iterable[RecordedEvent]) -> Snapshot:
        return replay(events).snapshot(_unworded())

    def replayer(self) -> tuple[Callable[[RecordedEvent], None], Callable[[], Snapshot]]:
        """The in-memory replay, one event at a time (``check`` feeds it from its own read)."""
        store = MemoryStore()
        unworded = _unworded()  # read now: ``finish`` needs no round trip

        def feed(recorded: RecordedEvent) -> None:
            store.follow_casino(recorded)
            apply(recorded, store)

        def finish() -> Snapshot:
            return store.snapshot(unworded)

        return feed, finish


@register
class DayCloseProjection(Projection):
    """The closed gaming days (``GamingDayClosed``), as their figures were fixed."""

    name = "day_closes"
    models = (DayClose,)

    @handles
    def closed(self, event: GamingDayClosed, recorded: RecordedEvent) -> list[Change]:
        return [Insert(DayClose, dict(
            casino_id=event.casino, day=event.gaming_day, closed_at=recorded.recorded_at,
            closed_by=str(recorded.metadata.get("actor", "")), results=list(event.results),
            jackpots=list(event.jackpots), totals=event.totals,
            exceptions=list(event.exceptions), report_digest=event.report_digest,
            register=list(event.register), revenue=event.revenue))]


@register
class TaxRulesProjection(Projection):
    """Every change of a gaming-tax parameter (``TaxParameterSet``), with who, when, from which
    day and on which legal source."""

    name = "tax_rules"
    models = (TaxParameterChange,)

    def casino_rows(self, model: type[Model], casino: str) -> QuerySet[Any]:
        return TaxParameterChange.objects.filter(recorded_in=casino)

    @handles
    def parameter_set(self, event: TaxParameterSet, recorded: RecordedEvent) -> list[Change]:
        return [Insert(TaxParameterChange, dict(
            jurisdiction=event.jurisdiction, casino_code=event.casino,
            recorded_in=str(recorded.metadata.get("casino", "")), code=event.code,
            value=event.value, effective_from=event.effective_from,
            legal_source=event.legal_source, note=event.note,
            set_by=str(recorded.metadata.get("actor", "")), set_at=recorded.recorded_at,
            position=recorded.position))]


@register
class TaxAccrualProjection(Projection):
    """Each month's gaming taxes, accrued from the return and paid."""

    name = "tax_accruals"
    models = (TaxAccrual,)

    @handles
    def accrued(self, event: GamingTaxAccrued, recorded: RecordedEvent) -> list[Change]:
        return [Insert(TaxAccrual, dict(
            casino_id=event.casino, month=event.month, code=str(line["code"]),
            name=str(line["name"]), base=Decimal(str(line["base"])),
            accrued=Decimal(str(line["amount"])), paid=ZERO, accrued_at=recorded.recorded_at,
            accrued_by=str(recorded.metadata.get("actor", "")), payments=[]))
            for line in event.lines]

    @handles
    def paid(self, event: GamingTaxPaid, recorded: RecordedEvent) -> list[Change]:
        payment = {"amount": _money(event.amount), "reference": event.reference,
                   "by": str(recorded.metadata.get("actor", "")),
                   "at": recorded.recorded_at.astimezone(dt.UTC).isoformat()}
        return [Update(TaxAccrual, {"casino_id": event.casino, "month": event.month,
                                    "code": event.code},
                       add={"paid": event.amount}, extend={"payments": [payment]})]


@register
class BankClearingProjection(Projection):
    """What the bank cleared (``docs/ledger.md`` § Clearing against the bank): the casino
    cheques it paid and the card and cheque batches it credited."""

    name = "bank_clearings"
    models = (ChequePresentation, CardSettlement)

    @handles
    def cheque_presented(self, event: CasinoChequePresented, recorded: RecordedEvent
                         ) -> list[Change]:
        return [Insert(ChequePresentation, dict(
            casino_id=event.casino, number=event.number, amount=event.amount,
            bank_reference=event.bank_reference, paid_on=event.paid_on,
            recorded_by=str(recorded.metadata.get("actor", "")),
            recorded_at=recorded.recorded_at))]

    @handles
    def batch_settled(self, event: CardChequeBatchSettled, recorded: RecordedEvent
                      ) -> list[Change]:
        return [Insert(CardSettlement, dict(
            casino_id=event.casino, bank_reference=event.bank_reference, amount=event.amount,
            credited_on=event.credited_on, recorded_by=str(recorded.metadata.get("actor", "")),
            recorded_at=recorded.recorded_at))]
