"""The slot cashier's count (caixa das máquinas): the cash at a window counted by note by a
cashier, with a second person (a cage supervisor), as a cage shift's count is
(``SlotCashCounted``). The books move nothing on it: the reconciliation
(``reporting.machine_reconciliation``) holds the count against the window's cash in the ledger
(1146.W) up to it, and a difference stays a line of the day until a supervisor excuses it."""

from __future__ import annotations

from collections.abc import Mapping

from casino.context import require_role
from casino.errors import Conflict
from casino.models import Role
from casino.money import CASH_DENOMINATIONS, counts_as_data, counts_value, fmt, parse_counts
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines.answers import SlotCashCountAnswer
from machines.events import SlotCashCounted
from machines.models import SlotCashCount
from machines.roles import PAY_ROLES

from ._common import casino_get, code, second_person

COUNT_WITNESSES = (Role.CAGE_SUPERVISOR,)


@command("slot_cash_count")
def slot_cash_count(*, casino: str, count_id: str, window: str, notes: Mapping[str, int],
                    witnessed_by: str, metadata: Metadata) -> SlotCashCountAnswer:
    """Count the slot cashier's cash at ``window``, by note, witnessed by a cage supervisor."""
    require_role(metadata, PAY_ROLES, "counting the slot cashier's cash")
    place = casino_get(metadata, casino)
    ident = code(count_id, field="count_id")
    where = code(window, field="window")
    counts = parse_counts(dict(notes) if isinstance(notes, Mapping) else notes,
                          allowed=CASH_DENOMINATIONS.get(place.currency, ()), field="notes")
    witness = second_person(metadata, casino, witnessed_by, COUNT_WITNESSES,
                            what="the slot cashier's count")
    if SlotCashCount.objects.filter(casino_id=casino, count_id=ident).exists():
        raise Conflict("count {count_id} is already recorded", params={"count_id": ident},
                       code="duplicate_count", field="count_id")
    counted = counts_value(counts)
    day = place.gaming_day(clock.now())
    store.append(f"slot_cash/{casino}.{ident}", [SlotCashCounted(
        count_id=ident, window=where, gaming_day=day, notes=counts_as_data(counts),
        counted=counted, witnessed_by=witness)], expected_version=0, metadata=metadata)
    return SlotCashCountAnswer(casino=casino, count_id=ident, window=where,
                               gaming_day=day.isoformat(), counted=fmt(counted),
                               witnessed_by=witness)
