"""The jackpot services (writes). Each is a command (``@command``: one transaction), takes ``metadata`` and records
events on the pool's stream (``jackpot/<casino>.<pool_id>``). A meter correction is not a service of
its own: it is a kind of four-eyes approval (``approvals.METER_CORRECTION``), registered here."""

from ..answers import PrizePayAnswer
from .approvals import METER_CORRECTION
from .coups import jackpot_coup_settle
from .payouts import jackpot_prize_pay
from .pools import jackpot_pool_change, jackpot_pool_create, jackpot_pool_set_tables
from .rounds import jackpot_round_settle

__all__ = [
    "METER_CORRECTION",
    "PrizePayAnswer",
    "jackpot_coup_settle",
    "jackpot_pool_change",
    "jackpot_pool_create",
    "jackpot_pool_set_tables",
    "jackpot_prize_pay",
    "jackpot_round_settle",
]
