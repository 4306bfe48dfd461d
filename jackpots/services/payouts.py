"""Paying a prize the pool awarded (a hit) through the cage, in full or in instalments.

This is the one way a jackpot leaves a cage window: the cashier picks the hit (its id, from the
hits owed: ``jackpots.selectors.prize_list(unpaid_only=True)``), and the pool, round and winner
come from the hit, never from the request. The cage's API and screen call this service too.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from cage.services.transactions import jackpot_payout_record
from casino.context import require_role
from casino.errors import Conflict, NotFound, gettext_noop
from casino.money import Money, fmt
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata
from jackpots.events import JackpotPrizePaid
from jackpots.models import JackpotPrize
from jackpots.roles import PAY_ROLES

from ..answers import PrizePayAnswer
from ._common import pool_for_update, text

# Messages tests and screens rely on.
NOT_A_HIT = gettext_noop("there is no jackpot hit {prize!r} in {casino}: a jackpot is paid only against a "
                         "hit its pool recorded (choose one of the hits owed)")
ALREADY_PAID = gettext_noop("this hit of {amount} was paid in full already (last payment {payout_id})")
MORE_THAN_OWED = gettext_noop("this hit owes {owed} (prize {amount}, {paid} paid already): {asked} is more "
                              "than it owes")


@command("jackpot_prize_pay")
def jackpot_prize_pay(
    *,
    prize_id: str,
    shift_id: str,
    metadata: Metadata,
    amount: Money | None = None,
    cash: object = None,
    chips: object = None,
    chip_set: str | None = None,
    patron: object = None,
    payment: object = None,
    cheque_number: object = None,
) -> PrizePayAnswer:
    """Pay a hit out of a cage window (the cage's ``JackpotPaid``) and record the payment on the
    pool (``JackpotPrizePaid``), in one transaction.

    ``amount`` is what is paid now (all that the hit still owes when left out); the cash and chips
    handed over add up to it. A hit may be paid in instalments that together come to its prize,
    never more: paying more than remains is refused (``more_than_owed``), a hit paid in full is
    refused (``already_paid``). Two windows paying one hit at once are serialised by the
    command's append lock and the hit's row lock: the second sees what the first paid. A retry
    with the same idempotency key returns the first answer. ``patron``: the identified winner,
    required at the anti-money-laundering threshold (``docs/patrons.md``). ``payment``
    ``casino_cheque`` with ``cheque_number``: paid by casino cheque, only to the identified
    winner (``docs/cage.md``)."""
    require_role(metadata, PAY_ROLES, "paying a jackpot prize")

    key = text(prize_id, field="prize_id", limit=64)
    prize = (JackpotPrize.objects.select_for_update()
             .filter(prize_id=key, casino_id=metadata.casino).first())
    if prize is None:
        raise NotFound(NOT_A_HIT, params=dict(prize=key, casino=metadata.casino), field="prize_id",
                       prize_id=key)
    owed: Decimal = prize.owed
    if owed <= 0:
        raise Conflict(ALREADY_PAID, params=dict(amount=fmt(prize.amount), payout_id=prize.payout_id),
                       code="already_paid", field="prize_id", prize_id=key,
                       payout_id=prize.payout_id)
    paying = owed if amount is None else amount  # parsed at the edge
    if paying > owed:
        raise Conflict(MORE_THAN_OWED, params=dict(owed=fmt(owed), amount=fmt(prize.amount),
                                             paid=fmt(prize.paid_amount), asked=fmt(paying)),
                       code="more_than_owed", field="amount", prize_id=key, owed=fmt(owed))
    pool = pool_for_update(prize.casino_id, prize.pool_id)
    # The window's movement runs inside this command: its event carries no idempotency key of
    # its own (ours is recorded once, for the whole payment).
    paid = jackpot_payout_record(
        shift_id=str(shift_id), prize_id=prize.prize_id, pool_id=prize.pool_id,
        round_id=prize.round_id, winner=prize.player, amount=paying, cash=cash, chips=chips,
        chip_set=chip_set, patron=patron, payment=payment, cheque_number=cheque_number,
        metadata=dataclasses.replace(metadata, idempotency_key=""))
    left = owed - paying
    store.append(pool.stream, [JackpotPrizePaid(
        pool_id=prize.pool_id, prize_id=prize.prize_id, round_id=prize.round_id,
        seat=prize.seat, player=prize.player, amount=paying,
        payout_id=paid.payout_id, shift_id=paid.shift_id, owed_after=left)],
        expected_version=pool.version, metadata=metadata)
    return PrizePayAnswer(prize_id=prize.prize_id, pool_id=prize.pool_id,
                          round_id=prize.round_id, amount=fmt(paying), prize=fmt(prize.amount),
                          owed=fmt(left), payout_id=paid.payout_id,
                          shift_id=paid.shift_id, patron_id=paid.patron_id,
                          payment=paid.payment, cheque_number=paid.cheque_number)
