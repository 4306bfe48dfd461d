"""Chips in circulation (fichas em circulação): the chips in players' hands, worked out from the
events where every chip is, per chip set and denomination, at any instant.

    in circulation = put into service (and taken over at a first count)
                     − in the cage and the windows − in the vault
                     − on the table trays − in transit on slips and transfers not yet received
                     − in the jackpot slots

A table's tray is known by denomination at its counts (the opening float, the closing count)
and follows its fills and credits piece by piece; between counts, the chips it sold for cash
(``DropRecorded``) and the house's round results (``RoundSettled``) change its value, not its
pieces by denomination we could name: the figure carries them as one value per open table
(``open_tables``), until the close counts the tray again. Jackpot bet chips collected into a
table's slot (``JackpotContributed``) are the casino's, outside the tray (``jackpot_slots``).

The ledger posts the same movements to its account of chips in players' hands (2781); this
computation reads the events on its own, so that ``reconcile`` can set one against the other.

Pure: no Django. ``fold(events)`` takes typed events (``RecordedEvent.event``) in order. A gaming
day's record keeps the state it ended in (``State.to_data``), so a figure folds only the events
after the last recorded day, whatever the casino's history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

ZERO = Decimal("0.00")
Key = tuple[str, Decimal]  # (chip set, denomination)

EVENT_TYPES = frozenset({
    "ChipsPutIntoService", "ChipsTakenOutOfService", "ShiftOpened", "ShiftClosed",
    "ChipsSold", "ChipsRedeemed", "FillIssued", "CreditReceived", "TransferSent",
    "TransferReceived", "JackpotPaid", "AdjustmentApproved", "TableConfigured",
    "TableSessionOpened", "CreditRequested", "SlipVoided", "DropRecorded", "RoundSettled",
    "TableSessionClosed", "JackpotContributed",
})


def _pieces(chip_set: str, counts: Mapping[str, int] | None) -> Counter[Key]:
    return Counter({(chip_set, Decimal(d)): int(n) for d, n in (counts or {}).items() if n})


def _sets(chips: Mapping[str, Mapping[str, int]] | None) -> Counter[Key]:
    out: Counter[Key] = Counter()
    for chip_set, counts in (chips or {}).items():
        out.update(_pieces(chip_set, counts))
    return out


def _value(pieces: Mapping[Key, int]) -> Decimal:
    return sum((d * n for (_, d), n in pieces.items()), ZERO)


def _less(a: Counter[Key], b: Mapping[Key, int]) -> None:
    a.subtract(b)


@dataclass(frozen=True)
class Row:
    chip_set: str
    denomination: Decimal
    in_service: int
    in_cages: int
    in_vaults: int
    in_table_trays: int
    in_transit: int

    @property
    def in_circulation(self) -> int:
        return (self.in_service - self.in_cages - self.in_vaults - self.in_table_trays
                - self.in_transit)

    @property
    def value(self) -> Decimal:
        return self.denomination * self.in_circulation


@dataclass(frozen=True)
class Figure:
    """Chips in circulation at one instant (after the event at ``position``)."""

    rows: tuple[Row, ...]
    open_tables: Decimal  # open trays' change in value since their count (sold, results)
    jackpot_slots: Decimal
    taken_over: Decimal  # the part of "in service" taken over at a first count
    position: int

    @property
    def value(self) -> Decimal:
        return sum((r.value for r in self.rows), ZERO) - self.open_tables - self.jackpot_slots

    def pieces(self, figure: str) -> dict[Decimal, int]:
        """``figure`` (``in_service``, ``in_circulation``...) by denomination, all sets added."""
        out: dict[Decimal, int] = {}
        for row in self.rows:
            out[row.denomination] = out.get(row.denomination, 0) + getattr(row, figure)
        return {d: n for d, n in sorted(out.items(), reverse=True) if n}


@dataclass
class State:
    """Where the casino's chips are, as the events so far say."""

    service: Counter[Key] = field(default_factory=Counter)
    taken_over: Counter[Key] = field(default_factory=Counter)
    cages: dict[str, Counter[Key]] = field(default_factory=dict)
    vaults: set[str] = field(default_factory=set)
    trays: dict[str, Counter[Key]] = field(default_factory=dict)
    tray_change: dict[str, Decimal] = field(default_factory=dict)
    slips: dict[str, Counter[Key]] = field(default_factory=dict)  # credits in transit
    transfers: dict[str, Counter[Key]] = field(default_factory=dict)
    slots: dict[str, Decimal] = field(default_factory=dict)
    table_sets: dict[str, str] = field(default_factory=dict)
    session_tables: dict[str, str] = field(default_factory=dict)
    position: int = 0

    def cage(self, window: str) -> Counter[Key]:
        return self.cages.setdefault(window, Counter())

    def tray(self, table: str) -> Counter[Key]:
        return self.trays.setdefault(table, Counter())

    def apply(self, event_type: str, e: Any, position: int = 0) -> None:
        handler = _HANDLERS.get(event_type)
        if handler is not None:
            handler(self, e)
        self.position = max(self.position, position)

    def to_data(self) -> dict[str, Any]:
        """The state as JSON values: kept with a gaming day's record, so that the next figures
        fold only the events after it."""
        def pieces(c: Counter[Key]) -> list[list[Any]]:
            return [[s, str(d), n] for (s, d), n in sorted(c.items()) if n]

        return {
            "service": pieces(self.service), "taken_over": pieces(self.taken_over),
            "cages": {w: pieces(c) for w, c in sorted(self.cages.items())},
            "vaults": sorted(self.vaults),
            "trays": {t: pieces(c) for t, c in sorted(self.trays.items())},
            "tray_change": {t: str(v) for t, v in sorted(self.tray_change.items()) if v},
            "slips": {k: pieces(c) for k, c in sorted(self.slips.items())},
            "transfers": {k: pieces(c) for k, c in sorted(self.transfers.items())},
            "slots": {t: str(v) for t, v in sorted(self.slots.items()) if v},
            "table_sets": dict(sorted(self.table_sets.items())),
            "session_tables": dict(sorted(self.session_tables.items())),
            "position": self.position,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> State:
        def pieces(rows: list[list[Any]]) -> Counter[Key]:
            return Counter({(str(s), Decimal(d)): int(n) for s, d, n in rows})

        return cls(
            service=pieces(data["service"]), taken_over=pieces(data["taken_over"]),
            cages={w: pieces(c) for w, c in data["cages"].items()},
            vaults=set(data["vaults"]),
            trays={t: pieces(c) for t, c in data["trays"].items()},
            tray_change={t: Decimal(v) for t, v in data["tray_change"].items()},
            slips={k: pieces(c) for k, c in data["slips"].items()},
            transfers={k: pieces(c) for k, c in data["transfers"].items()},
            slots={t: Decimal(v) for t, v in data["slots"].items()},
            table_sets=dict(data["table_sets"]), session_tables=dict(data["session_tables"]),
            position=int(data["position"]))

    def figure(self) -> Figure:
        cages: Counter[Key] = Counter()
        vaults: Counter[Key] = Counter()
        for window, pieces in self.cages.items():
            (vaults if window in self.vaults else cages).update(pieces)
        trays: Counter[Key] = Counter()
        for pieces in self.trays.values():
            trays.update(pieces)
        transit: Counter[Key] = Counter()
        for pieces in (*self.slips.values(), *self.transfers.values()):
            transit.update(pieces)
        keys = sorted({k for c in (self.service, cages, vaults, trays, transit) for k, n in
                       c.items() if n}, key=lambda k: (k[0], -k[1]))
        rows = tuple(Row(s, d, self.service[(s, d)], cages[(s, d)], vaults[(s, d)],
                         trays[(s, d)], transit[(s, d)]) for s, d in keys)
        return Figure(rows=rows, open_tables=sum(self.tray_change.values(), ZERO),
                      jackpot_slots=sum(self.slots.values(), ZERO),
                      taken_over=_value(self.taken_over), position=self.position)


def fold(events: Iterable[tuple[str, Any, int]], state: State | None = None) -> State:
    """Apply ``(event_type, typed event, position)`` in order."""
    state = state or State()
    for event_type, event, position in events:
        state.apply(event_type, event, position)
    return state


# --- one small function per event type ---------------------------------------------------------

Handler = Callable[["State", Any], None]
_HANDLERS: dict[str, Handler] = {}


def _on(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            _HANDLERS[name] = fn
        return fn
    return register


@_on("ChipsPutIntoService")
def _into_service(s: State, e: Any) -> None:
    new = _pieces(e.chip_set, e.chips)
    s.service.update(new)
    s.cage(e.window).update(new)


@_on("ChipsTakenOutOfService")
def _out_of_service(s: State, e: Any) -> None:
    gone = _pieces(e.chip_set, e.chips)
    _less(s.service, gone)
    _less(s.cage(e.window), gone)


@_on("ShiftOpened")
def _shift_opened(s: State, e: Any) -> None:
    counted = _sets(e.chips)
    if e.kind == "vault":
        s.vaults.add(e.window)
    if e.previous_shift_id is None:
        # a cage's first count takes over chips the casino already held: into service
        before = s.cage(e.window)
        over = Counter(counted)
        over.subtract(before)
        s.service.update(over)
        s.taken_over.update(over)
    s.cages[e.window] = counted  # a count replaces what the books said (the difference is
    # chips found or missing, which the ledger posts as over/short)


@_on("ShiftClosed")
def _shift_closed(s: State, e: Any) -> None:
    s.cages[e.window] = _sets(e.chips)


@_on("ChipsSold")
def _sold(s: State, e: Any) -> None:
    _less(s.cage(e.window), _pieces(e.chip_set, e.chips))


@_on("ChipsRedeemed")
def _redeemed(s: State, e: Any) -> None:
    s.cage(e.window).update(_pieces(e.chip_set, e.chips))


@_on("JackpotPaid")
def _jackpot_paid(s: State, e: Any) -> None:
    if e.chip_set:
        _less(s.cage(e.window), _pieces(e.chip_set, e.chips))


# A slip recorded after its session closed (a late slip, approved) moves no tray: the closing
# count is what the tray held, and the close put what the slip moved in players' hands (a fill's
# chips at the table, a credit's gone), so the late slip moves them between the cage or transit
# and players' hands, as the ledger does (``ledger.postings._after_close``).


@_on("FillIssued")
def _fill(s: State, e: Any) -> None:
    chips = _pieces(e.chip_set, e.chips)
    _less(s.cage(e.window), chips)
    if not getattr(e, "after_close", False):
        s.tray(e.table).update(chips)


@_on("CreditRequested")
def _credit_requested(s: State, e: Any) -> None:
    chips = _pieces(e.chip_set or s.table_sets.get(e.table, ""), e.chips)
    if not getattr(e, "after_close", False):
        _less(s.tray(e.table), chips)
    s.slips[e.slip] = chips


@_on("CreditReceived")
def _credit_received(s: State, e: Any) -> None:
    s.slips.pop(e.slip, None)
    s.cage(e.window).update(_pieces(e.chip_set, e.chips))


@_on("SlipVoided")
def _slip_voided(s: State, e: Any) -> None:
    if e.kind == "credit" and e.slip in s.slips:
        chips = s.slips.pop(e.slip)
        if not getattr(e, "after_close", False):
            s.tray(e.table).update(chips)  # the chips stay at the table


@_on("TransferSent")
def _transfer_sent(s: State, e: Any) -> None:
    chips = _sets(e.chips)
    _less(s.cage(e.window), chips)
    s.transfers[e.transfer_id] = chips


@_on("TransferReceived")
def _transfer_received(s: State, e: Any) -> None:
    s.transfers.pop(e.transfer_id, None)
    s.cage(e.window).update(_sets(e.chips))


@_on("AdjustmentApproved")
def _adjustment(s: State, e: Any) -> None:
    chips = _sets(e.chips)
    if e.direction == "in":
        s.cage(e.window).update(chips)
    else:
        _less(s.cage(e.window), chips)


@_on("TableConfigured")
def _table(s: State, e: Any) -> None:
    s.table_sets[e.code] = e.chip_set


@_on("TableSessionOpened")
def _session_opened(s: State, e: Any) -> None:
    s.session_tables[e.session_id] = e.table
    opening = _pieces(s.table_sets.get(e.table, ""), e.opening)
    if e.previous_session_id is None:
        over = Counter(opening)
        over.subtract(s.tray(e.table))  # a table's first float: chips the casino held
        s.service.update(over)
        s.taken_over.update(over)
    s.trays[e.table] = opening
    s.tray_change[e.table] = ZERO


@_on("DropRecorded")
def _drop(s: State, e: Any) -> None:
    s.tray_change[e.table] = s.tray_change.get(e.table, ZERO) - Decimal(e.amount)


@_on("RoundSettled")
def _round(s: State, e: Any) -> None:
    table = s.session_tables.get(e.session_id)
    if table is None:
        return
    result = e.result_delta if e.correction else e.result
    s.tray_change[table] = s.tray_change.get(table, ZERO) + Decimal(result or 0)


@_on("TableSessionClosed")
def _session_closed(s: State, e: Any) -> None:
    s.trays[e.table] = _pieces(s.table_sets.get(e.table, ""), e.closing)
    s.tray_change[e.table] = ZERO


@_on("JackpotContributed")
def _jackpot_chips(s: State, e: Any) -> None:
    s.slots[e.table] = s.slots.get(e.table, ZERO) + Decimal(e.amount)
