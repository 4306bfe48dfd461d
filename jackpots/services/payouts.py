"""Paying an awarded prize through the cage, and approved corrections of a meter."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.eventstore import store
from casino.eventstore.commands import command
from casino.eventstore.store import Metadata
from casino.models import Role
from casino.money import fmt, parse_amount
from jackpots.events import JackpotMeterCorrected, JackpotPrizePaid
from jackpots.models import JackpotPrize

from ._common import Result, pool_for_update, require_role, text

PAY_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
CORRECTION_ROLES = (Role.ADMINISTRATOR, Role.PIT_BOSS)


@command("jackpot_prize_pay")
def jackpot_prize_pay(
    *,
    prize_id: str,
    shift_id: str,
    metadata: Metadata,
    cash: object = None,
    chips: object = None,
    chip_set: str | None = None,
) -> Result:
    """Pay an awarded prize out of a cage window (the cage's ``JackpotPaid``) and mark it paid on
    the pool (``JackpotPrizePaid``), in one transaction. A prize is paid once: a second payment is
    refused (``already_paid``); a retry with the same idempotency key returns the first answer."""
    require_role(metadata, PAY_ROLES, "paying a jackpot prize")
    from casino.cage import services as cage  # the cage's payout transaction

    prize = (JackpotPrize.objects.select_for_update()
             .filter(prize_id=prize_id, casino_id=metadata.casino).first())
    if prize is None:
        raise NotFound(f"there is no jackpot prize {prize_id!r} in {metadata.casino}",
                       prize_id=prize_id)
    if prize.paid:
        raise Conflict(f"this prize was paid already (cage payout {prize.payout_id})",
                       code="already_paid", prize_id=prize_id, payout_id=prize.payout_id)
    pool = pool_for_update(prize.casino_id, prize.pool_id)
    # The cage's command runs inside this one: its events carry no idempotency key (ours is
    # recorded once, for the whole payment, by this command).
    paid = cage.jackpot_pay(
        shift_id=str(shift_id), pool_id=prize.pool_id, round_id=prize.round_id,
        winner=prize.player, amount=fmt(prize.amount), cash=cash, chips=chips,
        chip_set=chip_set, metadata=dataclasses.replace(metadata, idempotency_key=""))
    store.append(pool.stream, [JackpotPrizePaid(
        pool_id=prize.pool_id, prize_id=prize.prize_id, round_id=prize.round_id,
        seat=prize.seat, player=prize.player, amount=prize.amount,
        payout_id=str(paid["payout_id"]), shift_id=str(shift_id))],
        expected_version=pool.version, metadata=metadata)
    return {"prize_id": prize.prize_id, "pool_id": prize.pool_id,
            "round_id": prize.round_id, "amount": fmt(prize.amount),
            "payout_id": str(paid["payout_id"]), "shift_id": str(shift_id)}


@command("jackpot_meter_correct")
def jackpot_meter_correct(
    *,
    casino: str,
    pool_id: str,
    meter: str,
    direction: str,
    amount: object,
    reason: str,
    requested_by: str,
    metadata: Metadata,
) -> Result:
    """An approved correction of the pool (or the reserve): asked by ``requested_by``, approved by
    another person (the actor, four eyes). A meter never goes below zero."""
    require_role(metadata, CORRECTION_ROLES, "approving a jackpot meter correction")
    if metadata.casino != casino:
        raise InvalidCommand(f"this belongs to casino {casino!r}, not {metadata.casino!r}")
    if meter not in ("pool", "reserve"):
        raise InvalidCommand("the meter corrected is the pool or the reserve", field="meter")
    if direction not in ("up", "down"):
        raise InvalidCommand("a correction goes up or down", field="direction")
    value = parse_amount(amount, field="amount")
    why = text(reason, field="reason", limit=1000)
    asker = text(requested_by, field="requested_by", limit=150)
    if asker == metadata.actor:
        raise NotAllowed(f"{asker} asked for this correction: another person must approve it "
                         "(four eyes)", code="four_eyes")
    pool = pool_for_update(casino, pool_id)

    before: Decimal = pool.amount if meter == "pool" else pool.reserve
    after = before + value if direction == "up" else before - value
    if after < 0:
        raise Conflict(f"the {meter} holds {fmt(before)}: it cannot go down by {fmt(value)}",
                       code="meter_negative")
    store.append(pool.stream, [JackpotMeterCorrected(
        pool_id=pool_id, meter=meter, direction=direction, amount=value, before=before,
        after=after, reason=why, requested_by=asker, approved_by=metadata.actor)],
        expected_version=pool.version, metadata=metadata)
    return {"pool_id": pool_id, "meter": meter, "before": fmt(before), "after": fmt(after),
            "version": pool.version + 1}
