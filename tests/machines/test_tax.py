"""The gaming tax on a month of machines, in Portugal and in Macau, by hand."""

from __future__ import annotations

from decimal import Decimal

from machines.law import machine_tax


def test_portugal_taxes_the_machines_win_at_the_parameters_rate() -> None:
    # a month's win by meters of 125,431.27 at 25 % (the unverified parameter):
    # 125,431.27 × 0.25 = 31,357.8175 → 31,357.82
    (line,) = machine_tax("PT", win=Decimal("125431.27"), machines=120)
    assert (line.code, line.amount, line.verified) == ("pt-iej-machines", Decimal("31357.82"),
                                                       False)
    # a month the machines lost pays nothing on them
    (lost,) = machine_tax("PT", win=Decimal("-500.00"), machines=120)
    assert (lost.base, lost.amount) == (Decimal("0.00"), Decimal("0.00"))


def test_macau_taxes_the_win_and_a_twelfth_of_the_premium_per_machine() -> None:
    lines = machine_tax("MO", win=Decimal("2000000.00"), machines=200,
                        premium_per_machine=Decimal("1000.00"))
    amounts = {line.code: line.amount for line in lines}
    # 35 % of 2,000,000 = 700,000; 2 % = 40,000; 3 % = 60,000;
    # premium: 200 machines × 1,000 / 12 = 16,666.666… → 16,666.67
    assert amounts == {"mo-special-tax-machines": Decimal("700000.00"),
                       "mo-foundation-machines": Decimal("40000.00"),
                       "mo-development-machines": Decimal("60000.00"),
                       "mo-premium-machines": Decimal("16666.67")}
