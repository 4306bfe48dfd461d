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

Pure: no Django. ``fold(events)`` takes typed events (``RecordedEvent.event``) with their
positions, in order; each moves the state through the step registered for its class (``@step``,
``eventstore.dispatch``: the class is the annotation of the step's ``event`` parameter). The
pit's and the jackpots' event classes are read here as the cage's are: plain dataclasses whose
modules import nothing but ``eventstore.events`` (a named coupling in pyproject.toml). A gaming
day's record keeps the state it ended in (``State.to_data``), so a figure folds only the events
after the last recorded day, whatever the casino's history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from eventstore.dispatch import Dispatch
from eventstore.events import Event
from games.events import (
    CreditRequested,
    DropRecorded,
    RoundSettled,
    SlipVoided,
    TableConfigured,
    TableCurrencyChanged,
    TableSessionClosed,
    TableSessionOpened,
)
from jackpots.events import JackpotContributed

from .events import (
    AdjustmentApproved,
    ChipsPutIntoService,
    ChipsRedeemed,
    ChipsSold,
    ChipsTakenOutOfService,
    CreditReceived,
    FillIssued,
    JackpotPaid,
    ShiftClosed,
    ShiftOpened,
    TransferReceived,
    TransferSent,
)

ZERO = Decimal("0.00")
Key = tuple[str, Decimal]  # (chip set, denomination)


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
    # the pieces the trays between counts hold as far as their pieces moved say (the count,
    # plus fills, less credits, by denomination), of the trays whose sales or results moved
    # their value since: what those trays could at most have given to players (issue 34)
    open_tray_pieces: Mapping[Key, int] = field(default_factory=dict)

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

    def apply(self, event: Event, position: int = 0) -> None:
        found = step.by_class.get(type(event))
        if found is not None:
            found(event, self)
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
        moved: Counter[Key] = Counter()
        for table, change in self.tray_change.items():
            if change:
                moved.update(self.trays.get(table, Counter()))
        return Figure(rows=rows, open_tables=sum(self.tray_change.values(), ZERO),
                      jackpot_slots=sum(self.slots.values(), ZERO),
                      taken_over=_value(self.taken_over), position=self.position,
                      open_tray_pieces={k: n for k, n in moved.items() if n})


def fold(events: Iterable[tuple[Event, int]], state: State | None = None) -> State:
    """Apply ``(typed event, position)`` in order."""
    state = state or State()
    for event, position in events:
        state.apply(event, position)
    return state


# --- one small function per event class --------------------------------------------------------

Step = Callable[[Any, State], None]
# Registered where each is defined, for the class its ``event`` parameter is annotated with.
step: Dispatch[Step] = Dispatch("circulation step")


@step
def _into_service(event: ChipsPutIntoService, s: State) -> None:
    new = _pieces(event.chip_set, event.chips)
    s.service.update(new)
    s.cage(event.window).update(new)


@step
def _out_of_service(event: ChipsTakenOutOfService, s: State) -> None:
    gone = _pieces(event.chip_set, event.chips)
    _less(s.service, gone)
    _less(s.cage(event.window), gone)


@step
def _shift_opened(event: ShiftOpened, s: State) -> None:
    counted = _sets(event.chips)
    if event.kind == "vault":
        s.vaults.add(event.window)
    if event.previous_shift_id is None:
        # a cage's first count takes over chips the casino already held: into service
        before = s.cage(event.window)
        over = Counter(counted)
        over.subtract(before)
        s.service.update(over)
        s.taken_over.update(over)
    s.cages[event.window] = counted  # a count replaces what the books said (the difference is
    # chips found or missing, which the ledger posts as over/short)


@step
def _shift_closed(event: ShiftClosed, s: State) -> None:
    s.cages[event.window] = _sets(event.chips)


@step
def _sold(event: ChipsSold, s: State) -> None:
    _less(s.cage(event.window), _pieces(event.chip_set, event.chips))


@step
def _redeemed(event: ChipsRedeemed, s: State) -> None:
    s.cage(event.window).update(_pieces(event.chip_set, event.chips))


@step
def _jackpot_paid(event: JackpotPaid, s: State) -> None:
    if event.chip_set:
        _less(s.cage(event.window), _pieces(event.chip_set, event.chips))


# A slip recorded after its session closed (a late slip, approved) moves no tray: the closing
# count is what the tray held, and the close put what the slip moved in players' hands (a fill's
# chips at the table, a credit's gone), so the late slip moves them between the cage or transit
# and players' hands, as the ledger does (``ledger.postings._after_close``).


@step
def _fill(event: FillIssued, s: State) -> None:
    chips = _pieces(event.chip_set, event.chips)
    _less(s.cage(event.window), chips)
    if not event.after_close:
        s.tray(event.table).update(chips)


@step
def _credit_requested(event: CreditRequested, s: State) -> None:
    chips = _pieces(event.chip_set or s.table_sets.get(event.table, ""), event.chips)
    if not event.after_close:
        _less(s.tray(event.table), chips)
    s.slips[event.slip] = chips


@step
def _credit_received(event: CreditReceived, s: State) -> None:
    s.slips.pop(event.slip, None)
    s.cage(event.window).update(_pieces(event.chip_set, event.chips))


@step
def _slip_voided(event: SlipVoided, s: State) -> None:
    if event.kind == "credit" and event.slip in s.slips:
        chips = s.slips.pop(event.slip)
        if not event.after_close:
            s.tray(event.table).update(chips)  # the chips stay at the table


@step
def _transfer_sent(event: TransferSent, s: State) -> None:
    chips = _sets(event.chips)
    _less(s.cage(event.window), chips)
    s.transfers[event.transfer_id] = chips


@step
def _transfer_received(event: TransferReceived, s: State) -> None:
    s.transfers.pop(event.transfer_id, None)
    s.cage(event.window).update(_sets(event.chips))


@step
def _adjustment(event: AdjustmentApproved, s: State) -> None:
    chips = _sets(event.chips)
    if event.direction == "in":
        s.cage(event.window).update(chips)
    else:
        _less(s.cage(event.window), chips)


@step
def _table(event: TableConfigured, s: State) -> None:
    s.table_sets[event.code] = event.chip_set


@step
def _table_currency(event: TableCurrencyChanged, s: State) -> None:
    """A table that changes currency plays with the chip set of its new one."""
    s.table_sets[event.table] = event.chip_set


@step
def _session_opened(event: TableSessionOpened, s: State) -> None:
    s.session_tables[event.session_id] = event.table
    opening = _pieces(s.table_sets.get(event.table, ""), event.opening)
    if event.previous_session_id is None:
        over = Counter(opening)
        over.subtract(s.tray(event.table))  # a table's first float: chips the casino held
        s.service.update(over)
        s.taken_over.update(over)
    s.trays[event.table] = opening
    s.tray_change[event.table] = ZERO


@step
def _drop(event: DropRecorded, s: State) -> None:
    s.tray_change[event.table] = s.tray_change.get(event.table, ZERO) - Decimal(event.amount)


@step
def _round(event: RoundSettled, s: State) -> None:
    table = s.session_tables.get(event.session_id)
    if table is None:
        return
    result = event.result_delta if event.correction else event.result
    s.tray_change[table] = s.tray_change.get(table, ZERO) + Decimal(result or 0)


@step
def _session_closed(event: TableSessionClosed, s: State) -> None:
    s.trays[event.table] = _pieces(s.table_sets.get(event.table, ""), event.closing)
    s.tray_change[event.table] = ZERO


@step
def _jackpot_chips(event: JackpotContributed, s: State) -> None:
    s.slots[event.table] = s.slots.get(event.table, ZERO) + Decimal(event.amount)


# The stored names of the classes the fold reads (what a reader of the store asks for).
EVENT_TYPES = step.names()
