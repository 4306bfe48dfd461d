"""The exchange's arithmetic: pure, no Django, no clock, no I/O.

A rate is the book currency's value of one unit of the foreign currency (1 HKD = 1.03 MOP: the
rate 1.030000), six decimals. The casino posts a middle rate and its spread; it buys foreign
notes at the middle less the spread and sells them at the middle plus it. Every amount in the
book currency is rounded half up to the cent (``docs/currencies.md``: a rounding of ours).

* A deal's **book value** is the foreign amount at the middle rate of the moment: what the
  foreign notes are carried at in the books. What the patron is paid (a purchase) or pays (a
  sale) is at the buying or selling rate; the difference is the exchange result.
* At the end of a gaming day the foreign holdings are **revalued** at the day's closing middle
  rate: the holding times the rate, less the book value carried, is the revaluation.
* A new middle rate beyond the casino's band from the last one (``band_percent``) needs a
  second person; a rate of zero or less is never taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
RATE_PLACES = Decimal("0.000001")
HUNDRED = Decimal(100)


class RuleError(ValueError):
    """A rate the rule refuses (code first, as the pit's ``RuleError``: makemessages reads the
    template)."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template, self.code, self.params = template, code, params


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Rate:
    mid: Decimal
    spread_percent: Decimal

    @property
    def buy(self) -> Decimal:
        """What the cage pays for one foreign unit."""
        return (self.mid * (HUNDRED - self.spread_percent) / HUNDRED).quantize(
            RATE_PLACES, rounding=ROUND_HALF_UP)

    @property
    def sell(self) -> Decimal:
        """What the cage asks for one foreign unit."""
        return (self.mid * (HUNDRED + self.spread_percent) / HUNDRED).quantize(
            RATE_PLACES, rounding=ROUND_HALF_UP)


def check_rate(mid: Decimal, spread_percent: Decimal) -> Rate:
    if not mid.is_finite() or mid <= 0:
        raise RuleError("rate_not_positive", "a rate is above zero, not {mid}", mid=mid)
    if mid != mid.quantize(RATE_PLACES):
        raise RuleError("rate_places", "a rate has at most six decimals, not {mid}", mid=mid)
    if not Decimal(0) <= spread_percent < HUNDRED:
        raise RuleError("spread", "the spread is from 0 to below 100 %, not {spread}",
                        spread=spread_percent)
    return Rate(mid, spread_percent)


def beyond_band(mid: Decimal, last: Decimal | None, band_percent: Decimal) -> Decimal | None:
    """How far (in %) ``mid`` moved from ``last`` when that is beyond the band; else None."""
    if last is None or last <= 0:
        return None
    moved = abs(mid - last) / last * HUNDRED
    return moved.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) if moved > band_percent \
        else None


@dataclass(frozen=True)
class Deal:
    foreign: Decimal  # the foreign amount
    rate: Decimal  # the buying or selling rate applied
    book_currency: Decimal  # what the patron is paid (bought) or pays (sold), in book currency
    book_value: Decimal  # the foreign amount at the middle rate
    # the exchange result: book value less paid (bought), received less book value (sold)
    result: Decimal


def buy(foreign: Decimal, rate: Rate) -> Deal:
    paid = cents(foreign * rate.buy)
    value = cents(foreign * rate.mid)
    return Deal(foreign, rate.buy, paid, value, value - paid)


def sell(foreign: Decimal, rate: Rate) -> Deal:
    received = cents(foreign * rate.sell)
    value = cents(foreign * rate.mid)
    return Deal(foreign, rate.sell, received, value, received - value)


def revalue(holding: Decimal, carried: Decimal, closing_mid: Decimal) -> tuple[Decimal, Decimal]:
    """The holding's book value at the closing rate, and the revaluation (that less carried)."""
    after = cents(holding * closing_mid)
    return after, after - carried
