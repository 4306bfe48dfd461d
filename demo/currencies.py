"""The exchange at the Macau cage in the demo gaming day (``docs/currencies.md``), through the
exchange's own services: the casino takes Hong Kong dollars beside patacas at the rate it sets
(the cage supervisor posts it, a small move each day after the first), the desk opens once with
its float of patacas, patrons change HKD notes to patacas and a few back, and at the end of the
day the accountant revalues the holding at the day's closing rate. Every figure is drawn from
one ``random.Random``: the same seed gives the same deals.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils import timezone

from casino.context import system_metadata
from casino.errors import Conflict
from casino.models import Casino, ChipSet, Role
from casino.services.chips import chip_set_register
from eventstore.records import Metadata
from eventstore.store import stream_version
from exchange.models import AcceptedCurrency, ExchangeDeal, ExchangeDesk, Revaluation
from exchange.services import (
    currency_accept,
    exchange_desk_open,
    exchange_rate_post,
    foreign_cash_buy,
    foreign_cash_revalue,
    foreign_cash_sell,
)
from games.models import Table, TableSession
from games.services.table_currency import table_change_currency
from ledger.chip_revaluation import foreign_chips_revalue, revaluation_stream

if TYPE_CHECKING:
    from demo.day import DemoDay

JOB = "demo_day"
CASINO = "macau"
FLOAT = {"1000.00": 200, "500.00": 100, "100.00": 200}  # 270,000.00 MOP
# Macau's tables that play in Hong Kong dollars, with chips of their own ("hkd")
HKD_TABLES = ("fp1",)


def _as(role: str, who: str) -> Metadata:
    meta = system_metadata(CASINO, job=JOB)
    return Metadata(actor=f"{meta.actor}:{who}", role=role, casino=CASINO,
                    request_id=meta.request_id, correlation_id=meta.correlation_id)


def play_currencies(played: Sequence[TableSession], seed: int = 0) -> None:
    """Macau's exchange desk for the day, if Macau played."""
    if not any(s.casino_id == CASINO for s in played):
        return
    casino = Casino.objects.get(code=CASINO)
    rng = random.Random(f"fx:{seed}:{ExchangeDeal.objects.count()}")
    boss, cashier = _as(Role.CAGE_SUPERVISOR, "fx-supervisor"), _as(Role.CASHIER, "fx-cashier")
    accepted = AcceptedCurrency.objects.filter(casino_id=CASINO, currency="HKD").first()
    if accepted is None:
        currency_accept(currency="HKD", band_percent="2",
                        metadata=_as(Role.ADMINISTRATOR, "config"))
        mid = Decimal("1.03")
    else:  # a small move within the band
        mid = (accepted.mid or Decimal("1.03")) + Decimal(rng.choice((-2, -1, 1, 2))) / 1000
    exchange_rate_post(currency="HKD", mid=str(mid), spread_percent="1", metadata=boss)
    if not ExchangeDesk.objects.filter(casino_id=CASINO).exists():
        exchange_desk_open(cash=FLOAT, metadata=cashier)
    for _ in range(4):
        foreign_cash_buy(currency="HKD", cash={"1000.00": rng.randint(1, 5),
                                               "500.00": rng.randint(0, 2),
                                               "100.00": rng.randint(0, 9)}, metadata=cashier)
    foreign_cash_sell(currency="HKD", cash={"1000.00": 1}, metadata=cashier)
    today = casino.gaming_day(timezone.now())
    if not Revaluation.objects.filter(casino_id=CASINO, gaming_day=today).exists():
        foreign_cash_revalue(metadata=_as(Role.ACCOUNTANT, "accounts"))
    # and the HKD chips the HKD tables left in players' hands (ledger/chip_revaluation.py)
    if not stream_version(revaluation_stream(CASINO, "HKD", today)):
        try:
            foreign_chips_revalue(metadata=_as(Role.ACCOUNTANT, "accounts"))
        except Conflict as refused:
            if refused.code != "nothing_held":  # no HKD chips out yet: nothing to revalue
                raise


def play_day(d: DemoDay) -> None:
    """Macau's exchange desk in one demo day (``demo.days.DAY_PLAYERS``), on the day's clock:
    the rate posted, HKD bought and sold, the holding revalued at the day's end."""
    if d.casino == CASINO:
        play_currencies(d.sessions, d.rng.randrange(1 << 30))
        d.advance(dt.timedelta(minutes=15))


def play_in_hkd(tables: list[Table]) -> list[Table]:
    """Macau's HKD tables (``HKD_TABLES``), before their first session: HKD accepted and a
    first rate posted if not yet (the cage supervisor, 1.03), a chip set of Hong Kong dollars
    (the pataca set's denominations), and each table set to play in HKD with it
    (``table_change_currency``). The tables as they are now."""
    mine = [t for t in tables if t.casino_id == CASINO and t.code in HKD_TABLES
            and not t.currency and t.last_closing is None and t.open_session_id is None]
    if not mine:
        return tables
    accepted = AcceptedCurrency.objects.filter(casino_id=CASINO, currency="HKD").first()
    if accepted is None:
        currency_accept(currency="HKD", band_percent="2",
                        metadata=_as(Role.ADMINISTRATOR, "config"))
    if accepted is None or accepted.mid is None:
        exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1",
                           metadata=_as(Role.CAGE_SUPERVISOR, "fx-supervisor"))
    if not ChipSet.objects.filter(casino_id=CASINO, code="hkd").exists():
        main = ChipSet.objects.get(casino_id=CASINO, code="main")
        chip_set_register(casino=CASINO, code="hkd", name="Hong Kong dollar chips",
                          denominations=list(main.denominations),
                          metadata=system_metadata(CASINO, job=JOB))
    for table in mine:
        table_change_currency(casino=CASINO, code=table.code, currency="HKD", chip_set="hkd",
                              reason="the demo's Hong Kong dollar pit",
                              metadata=_as(Role.ADMINISTRATOR, "config"))
    return [Table.objects.get(pk=t.pk) for t in tables]
