"""Chemin de fer's commission is the configured share of what the banker wins (CF-6)."""

from __future__ import annotations

from decimal import ROUND_FLOOR
from decimal import Decimal as D

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.rules.chemin_de_fer import BANKER, Coup, settle_coup

amounts = st.integers(min_value=1, max_value=10**8).map(lambda c: D(c) / 100)


@given(stakes=st.lists(amounts, min_size=1, max_size=8),
       percent=st.integers(min_value=0, max_value=2000).map(lambda p: D(p) / 100))
def test_the_commission_is_the_configured_share_of_the_bankers_win(
    stakes: list[D], percent: D
) -> None:
    # 6 against 7, both stand on two cards: the banker wins every stake
    bank = sum(stakes, D(0))
    result = settle_coup(Coup(["6S", "KH"], ["7D", "KC"], bank, dict(enumerate(stakes, 1)),
                              percent))
    assert result.winner == BANKER
    assert result.banker_result == bank
    assert result.commission == (bank * percent / 100).quantize(D("0.01"), rounding=ROUND_FLOOR)
    assert result.bank_after == bank + bank - result.commission
    assert result.commission <= result.banker_result
