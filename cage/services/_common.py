"""What the cage services share: finding the shift, reading input, checking holdings, appending.

Helpers here run inside the public service's transaction; they never open their own.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction

from casino.errors import (
    Conflict,
    InvalidCommand,
    NotFound,
    gettext_noop,
    status_words,
)
from casino.inputs import text as text  # the cage services take it from here
from casino.models import Casino, ChipSet
from casino.money import CASH_DENOMINATIONS, check_amount, counts_as_data, fmt, parse_counts
from eventstore import store
from eventstore.events import Event
from eventstore.records import Metadata, RecordedEvent

from .. import inventory as inv
from ..events import CageCashFellBelowMinimum, CageCashRestoredAboveMinimum
from ..models import Cage, Shift, ShiftLine, ShiftStatus
from ..selectors import shift_expected

# Messages tests and screens rely on.
SHIFT_NOT_OPEN = gettext_noop("shift {shift} is {status}: it takes no more movements")
NOT_HELD = gettext_noop("the {window} does not hold {what}")
COUNT_INCOMPLETE = gettext_noop("the count has no figure for {missing}: type every denomination, "
                                "0 where there is none")


def new_id() -> str:
    return str(uuid.uuid4())


def casino_get(metadata: Metadata) -> Casino:
    casino = Casino.objects.filter(code=metadata.casino).first()
    if casino is None:
        raise NotFound("there is no casino {casino!r}",
                       params={"casino": metadata.casino})
    return casino


def cage_get(casino: str, code: str) -> Cage:
    cage = Cage.objects.filter(casino_id=casino, code=code).first()
    if cage is None:
        raise NotFound("there is no cage, window or vault {code!r} in {casino}",
                       params={"code": code, "casino": casino}, field="cage")
    return cage


def shift_get(metadata: Metadata, shift_id: object) -> Shift:
    try:
        key = uuid.UUID(str(shift_id))
    except ValueError:
        raise InvalidCommand("{shift_id!r} is not a shift id",
                             params={"shift_id": shift_id}, field="shift") from None
    shift = Shift.objects.filter(id=key, casino_id=metadata.casino).first()
    if shift is None:
        raise NotFound("there is no shift {shift_id} in {casino}",
                       params={"shift_id": shift_id, "casino": metadata.casino}, field="shift")
    return shift


def require_open(shift: Shift) -> None:
    if shift.status != ShiftStatus.OPEN:
        raise Conflict(SHIFT_NOT_OPEN, params=dict(shift=shift.id, status=status_words(
                           shift.status, "shift status", shift.get_status_display())),
                       code="shift_not_open", shift=str(shift.id), status=shift.status)


# --- amounts and counts ------------------------------------------------------------------------


def cash_counts(casino: Casino, raw: object, *, field: str = "cash",
                required: bool = False) -> dict[Decimal, int]:
    if raw is None:
        if required:
            raise InvalidCommand("{field} is missing", params={"field": field}, field=field)
        return {}
    return parse_counts(raw, allowed=CASH_DENOMINATIONS[casino.currency], field=field)


def chip_set_code(casino: Casino, code: object) -> str:
    """The chip set named, or the casino's only one when none is named."""
    if code in (None, ""):
        codes = list(ChipSet.objects.filter(casino=casino).values_list("code", flat=True))
        if len(codes) == 1:
            return codes[0]
        raise InvalidCommand("say which chip set" if codes else "this casino has no chip set yet",
                             field="chip_set")
    if not isinstance(code, str) or not ChipSet.objects.filter(casino=casino, code=code).exists():
        raise InvalidCommand("there is no chip set {code!r} in {code_2}",
                             params={"code": code, "code_2": casino.code}, field="chip_set")
    return code


def chip_counts(casino: Casino, chip_set: str, raw: object, *,
                field: str = "chips") -> dict[Decimal, int]:
    if raw is None:
        return {}
    chip_set_row = ChipSet.objects.get(casino=casino, code=chip_set)
    allowed = tuple(Decimal(d) for d in chip_set_row.denominations)
    return parse_counts(raw, allowed=allowed, field=field)


def chip_set_counts(casino: Casino, raw: object, *,
                    field: str = "chips") -> dict[str, dict[Decimal, int]]:
    """Chips of several sets: ``{"<chip set>": {"20.00": 5}}``."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InvalidCommand("{field} must map each chip set to its count by denomination",
                             params={"field": field},
                             field=field)
    parsed: dict[str, dict[Decimal, int]] = {}
    for code, counts in raw.items():
        chip_set = chip_set_code(casino, code)
        parsed[chip_set] = chip_counts(casino, chip_set, counts, field=f"{field} {chip_set}")
    return parsed


def holdings(casino: Casino, cash: object, chips: object, *, cash_required: bool = False,
             complete: bool = False) -> inv.Inventory:
    """Cash and chips of several sets as one inventory, worth no more than a money column holds
    (each part is checked by ``parse_counts``, the whole here).

    ``complete``: a count of everything a cage holds or could hold, every cash denomination of
    the casino and every denomination of each of its chip sets, a zero typed as zero. A
    denomination left out is refused, naming it: nothing counts as zero by default (the blind
    count, ``docs/cage.md``).
    """
    cash_parsed = cash_counts(casino, cash if cash is not None or not complete else {},
                              required=cash_required)
    chips_parsed = chip_set_counts(casino, chips)
    if complete:
        _require_every_denomination(casino, cash_parsed, chips_parsed)
    held = inv.of(cash_parsed, chips_parsed)
    check_amount(inv.value(held), field="chips" if inv.chips_part(held) else "cash")
    return held


def _require_every_denomination(casino: Casino, cash: Mapping[Decimal, int],
                                chips: Mapping[str, Mapping[Decimal, int]]) -> None:
    cash_missing = [d for d in CASH_DENOMINATIONS[casino.currency] if d not in cash]
    chips_missing: dict[str, list[Decimal]] = {}
    for chip_set in ChipSet.objects.filter(casino=casino).order_by("code"):
        typed = chips.get(chip_set.code, {})
        absent = sorted((Decimal(d) for d in chip_set.denominations
                         if Decimal(d) not in typed), reverse=True)
        if absent:
            chips_missing[chip_set.code] = absent
    if not cash_missing and not chips_missing:
        return
    parts = [f"cash {', '.join(fmt(d) for d in cash_missing)}"] if cash_missing else []
    parts += [f"{code} chips {', '.join(fmt(d) for d in ds)}" for code, ds in chips_missing.items()]
    raise InvalidCommand(
        COUNT_INCOMPLETE, params=dict(missing="; ".join(parts)),
        field="cash" if cash_missing else "chips",
        missing={"cash": [fmt(d) for d in cash_missing],
                 "chips": {c: [fmt(d) for d in ds] for c, ds in chips_missing.items()}})


def chips_data(chips: Mapping[str, Mapping[Decimal, int]]) -> dict[str, dict[str, int]]:
    data = {s: counts_as_data(dict(c)) for s, c in sorted(chips.items())}
    return {s: c for s, c in data.items() if c}


def cash_data(cash: Mapping[Decimal, int]) -> dict[str, int]:
    return counts_as_data(dict(cash))


def inventory_data(inventory: inv.Inventory) -> dict[str, Any]:
    return {"cash": cash_data(inv.cash_part(inventory)),
            "chips": chips_data(inv.chips_part(inventory))}


def must_equal(declared: Decimal, actual: Decimal, *, what: str, field: str) -> None:
    if declared != actual:
        raise InvalidCommand("{what} come to {actual}, not {declared}",
                             params={"what": what, "actual": fmt(actual), "declared": fmt(declared)}, field=field,
                             declared=fmt(declared), actual=fmt(actual))


# --- holdings ------------------------------------------------------------------------------------


def expected(shift: Shift) -> inv.Inventory:
    """What the shift should hold now: opening + receipts − payments, line by line."""
    return shift_expected(shift)


def count_of(shift: Shift) -> inv.Inventory:
    """The shift's last count (what a closed shift handed on to the next one)."""
    held: inv.Inventory = {}
    for line in ShiftLine.objects.filter(shift=shift):
        if line.counted:
            held[inv.Line(line.kind, line.chip_set, line.denomination)] = line.counted
    return held


def check_holds(shift: Shift, wanted: inv.Inventory, *, field: str,
                incoming: inv.Inventory | None = None) -> None:
    """Refuse (``Conflict``) when the shift does not hold ``wanted``, counting ``incoming``
    (cash just received, from which change may be given)."""
    missing = inv.shortfalls(inv.add(expected(shift), incoming or {}), wanted)
    if missing:
        parts = [
            f"{n} x {fmt(line.denomination)} "
            f"{'cash' if line.kind == inv.CASH else line.chip_set + ' chips'} (it holds {held})"
            for line, held, n in missing
        ]
        raise Conflict(
            NOT_HELD, params=dict(window=f"{shift.get_cage_kind_display().lower()} {shift.cage}",
                            what="; ".join(parts)),
            code="not_enough", field=field,
            missing=[{"kind": line.kind, "chip_set": line.chip_set,
                      "denomination": fmt(line.denomination), "held": held, "wanted": n}
                     for line, held, n in missing],
        )


# --- appending ------------------------------------------------------------------------------------


def append(shift: Shift, events: Sequence[Event], metadata: Metadata,
           *, conflict: str = "") -> list[RecordedEvent]:
    """Append to the shift's stream at the version read, then record a minimum-cash crossing.

    A unique index of the projections (one live shift per cage, one cage action per slip) that
    fires here means someone else got there first: that is a ``Conflict`` with ``conflict`` as
    its message, and the savepoint leaves nothing behind.
    """
    cage = Cage.objects.get(casino_id=shift.casino_id, code=shift.cage)
    before = inv.value(expected(shift), inv.CASH)
    try:
        with transaction.atomic():
            recorded = store.append(shift.stream, events, expected_version=shift.version,
                                    metadata=metadata)
    except IntegrityError as exc:
        if conflict:
            raise Conflict(conflict) from exc
        raise Conflict("the cage refused the change: {exc}", params={"exc": str(exc)}) from exc
    shift.version = recorded[-1].version
    after = inv.value(expected(shift), inv.CASH)
    recorded += alert_if_crossed(shift, cage, before, after, metadata)
    return recorded


def alert_if_crossed(shift: Shift, cage: Cage, before: Decimal | None, after: Decimal,
                     metadata: Metadata) -> list[RecordedEvent]:
    crossing = inv.minimum_crossing(before, after, cage.minimum_cash)
    if crossing is None:
        return []
    alert_class = CageCashFellBelowMinimum if crossing == "fell" else CageCashRestoredAboveMinimum
    alert = alert_class(shift_id=str(shift.id), window=shift.cage, cash_value=after,
                        minimum_cash=cage.minimum_cash)
    recorded = store.append(shift.stream, [alert], expected_version=shift.version,
                            metadata=metadata)
    shift.version = recorded[-1].version
    return recorded
