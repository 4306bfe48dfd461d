"""The distribution of a period's tips (gratificações): pure, no Django, no clock, no I/O.

The rule, as the law sets it (``docs/tips.md`` cites each part):

* Tips are not the staff's to pocket nor the house's revenue: they go into the tip boxes and
  are shared by rule (Decreto-Lei 422/89, art. 79.º; the rules of distribution by portaria,
  art. 79.º n.º 3: Portaria 1159/90, amended by Portarias 129/94 and 355/2004, which kept the
  rules of Despacho Normativo 24/89 for the traditional rooms).
* A share of the whole goes to the Fundo Especial de Segurança Social dos Profissionais de
  Banca dos Casinos: 12 % of the tips, 15 % from 1 January 2017 (``PT_FUND_PERCENT``).
* What is left is the staff's: shared by the points of each person's category (the
  coefficients of the classes, Despacho Normativo 24/89), for the days worked in the period.
  The category coefficients are the casino's parameters, flagged as unverified: the published
  coefficients could not be read (``docs/tips.md``).

Every split is by largest remainder in cents, so the parts sum exactly to the whole: first
between the categories (by the sum of their people's points), then within each category
between its people. Ties of remainder go to the first in order (category, then staff number).
The fund's share is rounded half up to the cent (a parameter of ours, flagged: the rounding is
not in the texts found).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
HUNDRED = Decimal(100)

#: The fund's share of the tips of the traditional rooms in Portugal, by the date it took effect:
#: 12 % until 2016 (as the 2017 amendment reports it; flagged: the date from which 12 % applied
#: and the text that set it were not read, the first date here is Portaria 1159/90's), 15 %
#: from 1 January 2017 (Portaria 12/2017 of 9 January, amending the fund's regulation,
#: effective 1 January: «aumento da comparticipação dos trabalhadores no ativo, de 12% para 15%
#: das gratificações»).
PT_FUND_PERCENT: tuple[tuple[dt.date, Decimal], ...] = (
    (dt.date(1990, 11, 27), Decimal("12")),
    (dt.date(2017, 1, 1), Decimal("15")),
)
#: Decreto-Lei 422/89 (its authorisation): the fund's share is not above 15 %.
PT_FUND_CEILING = Decimal("15")

#: How long a period is: a calendar month in Portugal (the monthly distribution of Despacho
#: Normativo 42/89, «mensualização da distribuição das gratificações»); a casino's policy
#: elsewhere may say a gaming day.
PERIOD_KINDS = ("month", "day")


class RuleError(ValueError):
    """A distribution the rule cannot make; ``template`` and ``params`` are the refusal's words."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template, self.code, self.params = template, code, params


@dataclass(frozen=True)
class Person:
    """One member of staff in a distribution: a staff number, never a name."""

    staff_number: str
    category: str
    points: Decimal  # the category's coefficient
    days: int = 1  # days worked in the period (each day counts the category's points)

    @property
    def weight(self) -> Decimal:
        return self.points * self.days


@dataclass(frozen=True)
class Share:
    staff_number: str
    category: str
    points: Decimal
    days: int
    amount: Decimal


@dataclass(frozen=True)
class CategoryShare:
    category: str
    people: int
    points: Decimal  # the sum of its people's weights
    amount: Decimal


@dataclass(frozen=True)
class Distribution:
    total: Decimal
    fund_percent: Decimal
    fund: Decimal
    staff: Decimal
    categories: tuple[CategoryShare, ...]
    shares: tuple[Share, ...]


def fund_percent_pt(period_start: dt.date) -> Decimal:
    """The fund's percentage in force on ``period_start`` (``PT_FUND_PERCENT``)."""
    found = None
    for since, percent in PT_FUND_PERCENT:
        if period_start >= since:
            found = percent
    if found is None:
        raise RuleError("no_fund_rule", "no fund percentage is known before {since}",
                        since=PT_FUND_PERCENT[0][0].isoformat())
    return found


def split(total: Decimal, weights: Sequence[tuple[str, Decimal]]) -> dict[str, Decimal]:
    """``total`` (cents) split by ``weights`` by largest remainder: the parts sum to ``total``.

    Each key gets its exact share rounded down to the cent; the cents left over go one each to
    the largest remainders (ties: the earlier key)."""
    whole = sum((w for _, w in weights), Decimal(0))
    if total < 0 or any(w < 0 for _, w in weights):
        raise RuleError("negative", "a split is of an amount of zero or more, by weights of "
                        "zero or more")
    if not weights or whole == 0:
        if total == 0:
            return {key: ZERO for key, _ in weights}
        raise RuleError("nobody", "there is nobody to share {total} with", total=total)
    exact = [(key, total * w / whole) for key, w in weights]
    parts = {key: value.quantize(CENT, rounding=ROUND_DOWN) for key, value in exact}
    left = int((total - sum(parts.values(), ZERO)) / CENT)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i][1] - parts[exact[i][0]]), i))
    for i in order[:left]:
        parts[exact[i][0]] += CENT
    return parts


def distribute(total: Decimal, fund_percent: Decimal, people: Sequence[Person]
               ) -> Distribution:
    """The fund's share of ``total``, then the rest by category and by person (points)."""
    if total != total.quantize(CENT) or total < 0:
        raise RuleError("amount", "the tips to share ({total}) are an amount in cents",
                        total=total)
    if not ZERO <= fund_percent <= HUNDRED:
        raise RuleError("percent", "the fund's share is between 0 and 100 %, not {percent}",
                        percent=fund_percent)
    seen: set[str] = set()
    for p in people:
        if p.staff_number in seen:
            raise RuleError("twice", "staff number {staff} is listed twice",
                            staff=p.staff_number)
        seen.add(p.staff_number)
        if p.points <= 0 or p.days < 0:
            raise RuleError("weights", "staff {staff}: points above zero and days of zero or more",
                            staff=p.staff_number)
    fund = (total * fund_percent / HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)
    staff = total - fund
    working = [p for p in people if p.days > 0]
    ordered = sorted(working, key=lambda p: (p.category, p.staff_number))
    categories: dict[str, list[Person]] = {}
    for p in ordered:
        categories.setdefault(p.category, []).append(p)
    by_category = split(staff, [(c, sum((p.weight for p in ps), Decimal(0)))
                                for c, ps in categories.items()])
    shares: list[Share] = []
    category_shares: list[CategoryShare] = []
    for category, members in categories.items():
        amount = by_category[category]
        each = split(amount, [(p.staff_number, p.weight) for p in members])
        shares += [Share(p.staff_number, category, p.points, p.days, each[p.staff_number])
                   for p in members]
        category_shares.append(CategoryShare(
            category, len(members), sum((p.weight for p in members), Decimal(0)), amount))
    return Distribution(total, fund_percent, fund, staff, tuple(category_shares), tuple(shares))


def period_of(day: dt.date, kind: str) -> tuple[str, dt.date, dt.date]:
    """The period a gaming day belongs to: its code, first and last gaming day."""
    if kind == "day":
        return day.isoformat(), day, day
    if kind == "month":
        first = day.replace(day=1)
        after = (first + dt.timedelta(days=32)).replace(day=1)
        return first.strftime("%Y-%m"), first, after - dt.timedelta(days=1)
    raise RuleError("period_kind", "a period is a {kinds}, not a {kind!r}",
                    kinds=" or a ".join(PERIOD_KINDS), kind=kind)


def parse_period(code: str, kind: str) -> tuple[str, dt.date, dt.date]:
    """A period's code (``2026-11`` for a month, ``2026-11-30`` for a day) read back."""
    try:
        day = (dt.date.fromisoformat(code + "-01") if kind == "month"
               else dt.date.fromisoformat(code))
    except (TypeError, ValueError):
        example = "2026-11" if kind == "month" else "2026-11-30"
        raise RuleError("period", "{period!r} is not a period here (a {kind}, such as "
                        "{example})", period=code, kind=kind, example=example) from None
    return period_of(day, kind)

