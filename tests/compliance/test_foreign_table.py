"""Issue 39: anti-money-laundering at a Macau table that plays in Hong Kong dollars. The law's
thresholds are in patacas (Instrução da DICJ n.º 1/2016: MOP 500,000.00 in cash), so a buy-in
in HKD is converted at the rate the session opened with (the exchange's posted middle rate, the
one the ledger books the session at: 1 HKD = 1.03 MOP here) before it is compared, summed and
alerted. Figures worked by hand, rounded half up to the cent as the ledger books them."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from casino.context import person_metadata, system_metadata
from casino.errors import Conflict
from casino.models import Role
from casino.services.casinos import casino_register
from casino.services.chips import chip_set_register
from compliance.models import AmlAlert, AnonymousMovement, PatronDay
from compliance.services import patron_register
from eventstore.models import StoredEvent
from exchange.services import currency_accept, exchange_rate_post
from games.limits import default_limits
from games.services import sessions, tables
from games.services.table_currency import table_change_currency

ADMIN = person_metadata(username="gestor", role=Role.ADMINISTRATOR, casino="macau")
SUPERVISOR = person_metadata(username="lei", role=Role.CAGE_SUPERVISOR, casino="macau")
PIT = person_metadata(username="wong", role=Role.PIT_BOSS, casino="macau")
WANG: dict[str, Any] = {"name": "Wang Li", "document_type": "passport", "document_number": "E12345678",
        "document_country": "CN", "date_of_birth": "1968-09-30", "nationality": "CN",
        "address": "Avenida da Praia Grande 1", "pep": False, "document_image": "scans/e1.png"}


@pytest.fixture
def hkd_session(db: None) -> str:
    """Casino macau (books in MOP), HKD accepted at 1.03, table b1 playing in HKD: a session."""
    meta = system_metadata("macau", job="test")
    casino_register(code="macau", name="Macau", currency="MOP", time_zone="Asia/Macau",
                    gaming_day_closes_at=6, metadata=meta)
    chip_set_register(casino="macau", code="patacas", name="Patacas",
                      denominations=["100.00", "25.00"], metadata=meta)
    chip_set_register(casino="macau", code="hkd", name="Hong Kong dollars",
                      denominations=["1000.00", "100.00"], metadata=meta)
    tables.table_configure(casino="macau", code="b1", name="B1", game="french_roulette",
                           seats=8, chip_set="patacas",
                           limits=default_limits("french_roulette", D("10.00")), metadata=PIT)
    currency_accept(currency="HKD", band_percent="2", metadata=ADMIN)
    exchange_rate_post(currency="HKD", mid="1.03", spread_percent="1", metadata=SUPERVISOR)
    table_change_currency(casino="macau", code="b1", currency="HKD", chip_set="hkd",
                          reason="the HKD pit", metadata=PIT)
    return str(sessions.table_session_open(casino="macau", table="b1",
                                           opening={"1000.00": 1}, metadata=PIT).session_id)


def test_an_hkd_buy_in_is_compared_with_the_mop_threshold_at_the_sessions_rate(
        hkd_session: str) -> None:
    # 485,436.88 HKD x 1.03 = 499,999.9864 -> MOP 499,999.99: below 500,000.00, it passes
    sessions.drop_record(session_id=hkd_session, amount="485436.88", metadata=PIT)
    assert AnonymousMovement.objects.get().amount == D("499999.99")
    # 490,000.00 HKD x 1.03 = MOP 504,700.00: 500,000.00 or more, the player is identified
    # first (as patacas, 490,000.00 passed: issue 39); nothing recorded
    before = StoredEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        sessions.drop_record(session_id=hkd_session, amount="490000.00", metadata=PIT)
    assert refused.value.code == "identification_required"
    assert "of 504700.00 MOP (490000.00 HKD at 1.030000) needs" in refused.value.message
    assert StoredEvent.objects.count() == before
    # identified and verified: recorded, in the patron's day in patacas, and on the day's
    # large-transaction report (Macau) at MOP 504,700.00
    wang = str(patron_register(metadata=PIT, place="table", verified=True, **WANG).patron_id)
    sessions.drop_record(session_id=hkd_session, amount="490000.00", patron=wang,
                         metadata=PIT)
    day = PatronDay.objects.get(patron_id=wang)
    assert (day.buy_ins, day.cash) == (D("504700.00"), D("504700.00"))
    large = AmlAlert.objects.get(kind="large_transaction")
    assert (large.amount, large.cash, large.threshold, large.where) == (
        D("504700.00"), D("504700.00"), D("500000.00"), "table b1")
