"""Gaming taxes as data, and the monthly return worked out from them. Pure: no Django.

Design overview
---------------
* ``CATALOGUE``: every parameter a jurisdiction's taxes read, with its legal baseline (value,
  the date it is in force from, the article it comes from) and whether the law leaves the value
  to a contract or an order (``demo``: the value here is a documented demonstration value that a
  casino's accountant replaces, by a change, with its contract's). ``docs/gaming-tax.md`` lists
  them all.
* A change of a parameter is an event (``TaxParameterSet``: who, when, from which day, on which
  legal source); ``Rules`` holds the baseline and every change, and answers "what was in force
  on this day, for this casino".
* ``month_return(...)`` works out one casino's return for one month from its closed days'
  register (``RegisterLine``, one per table and day: what the close fixed) and revenue
  (``DayRevenue``), each day at the parameters in force that day:

  Portugal (Decreto-Lei n.º 422/89, arts. 84.º to 87.º): the special gaming tax (IEJ) on banked
  games is a percentage of the tables' capital em giro inicial plus a percentage of a presumed
  gross profit, itself a percentage of that capital set by zone and by banca simples or dupla
  (art. 85.º, art. 87.º n.º 1 A); on non-banked games a percentage of the commission collected
  (art. 86.º). The concession's annual contrapartida (a percentage of gross revenue, with its
  contractual minimum) is credited with the year's IEJ, and accrues month by month.

  Macau (Lei n.º 16/2001 as amended by Lei n.º 7/2022): the special gaming tax and the two
  contributions on gross gaming revenue (arts. 27.º and 22.º), the annual premium (fixed part
  and per VIP table, mass table and machine, art. 20.º) accrued by twelfths, and the special
  premium when a year's average gross revenue per table or machine is below the government's
  minimum (art. 20.º): the special tax the shortfall would have paid.

* No tax is ever below zero: a negative base is its own line, carried to the next months of the
  year or not as the jurisdiction's ``negative_base_carry`` says (``none`` by default).
* Jackpot start values the casino funded are their own line; whether they reduce the base is the
  jurisdiction's ``jackpot_start_deducted`` (``no`` by default).

Amounts are rounded to the cent once per line of the return (half up), never per day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from casino.errors import Words, gettext_noop

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
HUNDRED = Decimal(100)
TWELVE = Decimal(12)

PT, MO = "PT", "MO"
JURISDICTIONS = (PT, MO)
BANKS = ("simples", "dupla")
CARRY = ("none", "forward")
FLAGS = ("yes", "no")
# Games played against the players' commission rather than against a bank: the poker room's
# (Portaria 217/2007, 1.º and 2.º: póquer não bancado «hold'em», «omaha», «póquer sintético», and
# bacará chemin de fer; docs/poker-room.md). Their tables' base is the commission collected
# (Decreto-Lei n.º 422/89, art. 86.º, n.º 1, as ``pt.non_banked_rate`` says); in Macau the gross
# gaming revenue's tax applies to them as to every game (unverified for the non-banked games).
NON_BANKED_GAMES: frozenset[str] = frozenset({"holdem", "omaha", "synthetic_poker",
                                              "chemin_de_fer"})

ZONES = ("algarve", "espinho", "estoril", "figueira_da_foz", "funchal", "troia",
         "vidago_pedras_salgadas", "porto_santo", "povoa_de_varzim")
# The zones by their names (places: the same in every language).
ZONE_NAMES = {"algarve": "Algarve", "espinho": "Espinho", "estoril": "Estoril",
              "figueira_da_foz": "Figueira da Foz", "funchal": "Funchal", "troia": "Tróia",
              "vidago_pedras_salgadas": "Vidago-Pedras Salgadas", "porto_santo": "Porto Santo",
              "povoa_de_varzim": "Póvoa de Varzim"}
# The other choices' values in words (marked for the catalogue; a screen translates them).
CHOICE_WORDS = {"yes": gettext_noop("yes"), "no": gettext_noop("no"),
                "none": gettext_noop("not carried"), "forward": gettext_noop("carried forward")}


def value_words(code: str, value: str) -> str:
    """A parameter's value as a person reads it: a zone by its name, a choice in words (marked
    for the catalogue), a figure as it is."""
    if code == "pt.zone":
        return ZONE_NAMES.get(value, value)
    kind = BY_CODE[code].kind if code in BY_CODE else ""
    return CHOICE_WORDS.get(value, value) if kind == "choice" else value

DL_422_89 = "Decreto-Lei n.º 422/89, de 2 de dezembro (Lei do Jogo), na redação em vigor"
LEI_16_2001 = "Lei n.º 16/2001 (Macau), na redação da Lei n.º 7/2022"


class ParameterError(ValueError):
    """A parameter value that its kind does not allow, or an unknown parameter: an English
    template with ``{name}`` placeholders and its values, as the platform's refusals are (the
    services pass both on, so a screen says it in its language)."""

    def __init__(self, template: str, **params: object) -> None:
        super().__init__(template.format(**params))
        self.template, self.params = template, params


@dataclass(frozen=True)
class Parameter:
    code: str
    jurisdiction: str
    name: str
    kind: str  # percent, amount, count, choice
    default: str
    legal_source: str
    effective_from: dt.date = dt.date(2000, 1, 1)
    per_casino: bool = False  # a value per casino (a zone, a contract's minimum)
    demo: bool = False  # the law leaves it to a contract or an order: a demonstration value
    choices: tuple[str, ...] = ()
    note: str = ""

    def parse(self, value: object) -> str:
        """The value as stored (a decimal string or a choice), or ParameterError."""
        text = str(value).strip()
        if self.kind == "choice":
            if text not in self.choices:
                raise ParameterError("{code} is one of {choices}, not {text!r}", code=self.code,
                                     choices=", ".join(self.choices), text=text)
            return text
        if isinstance(value, float | bool):
            raise ParameterError("{code}: give the value as a decimal string, not {value!r}",
                                 code=self.code, value=value)
        try:
            number = Decimal(text)
        except InvalidOperation:
            raise ParameterError("{code} is a number, not {text!r}", code=self.code, text=text) from None
        if not number.is_finite() or number < 0:
            raise ParameterError("{code} is a number zero or more, not {text!r}", code=self.code,
                                 text=text)
        if self.kind == "percent" and number > HUNDRED:
            raise ParameterError("{code} is a percentage, at most 100, not {text!r}",
                                 code=self.code, text=text)
        if self.kind == "count" and number != number.to_integral_value():
            raise ParameterError("{code} is a whole number, not {text!r}", code=self.code,
                                 text=text)
        if self.kind == "amount" and number != number.quantize(CENT):
            raise ParameterError("{code} is an amount in cents, not {text!r}", code=self.code,
                                 text=text)
        return str(number)


P = Parameter
_CONTRACTS = Words("{law}, art. 20.º; the concession contracts of 16 December 2022",
                   law=LEI_16_2001)
_ART_87 = f"{DL_422_89}, art. 87.º, n.º 1, A), b)"
_PRESUMED = {  # art. 87.º n.º 1 A) b): presumed gross profit, % of the capital em giro inicial
    "algarve": ("10", "15"), "espinho": ("21", "35"), "estoril": ("21", "35"),
    "figueira_da_foz": ("21", "35"), "funchal": ("3", "4.5"), "troia": ("1", "2.5"),
    "vidago_pedras_salgadas": ("1", "2.5"), "porto_santo": ("1", "2.5"),
    "povoa_de_varzim": ("21", "35"),
}
CATALOGUE: tuple[Parameter, ...] = (
    # --- Portugal -------------------------------------------------------------------------------
    P("pt.zone", PT, gettext_noop("Gaming zone of the casino (zona de jogo)"), "choice",
      "estoril", Words("{law}, art. 3.º; the concession contract", law=DL_422_89),
      per_casino=True, demo=True, choices=ZONES),
    P("pt.capital_rate.simples", PT,
      gettext_noop("IEJ on the capital em giro inicial, banca simples"),
      "percent", "0.25", f"{DL_422_89}, art. 85.º, n.º 1, a)", demo=True,
      note="the percentage of the zone in art. 85.º: check it against the consolidated text"),
    P("pt.capital_rate.dupla", PT, gettext_noop("IEJ on the capital em giro inicial, banca dupla"),
      "percent", "0.35", f"{DL_422_89}, art. 85.º, n.º 1, a)", demo=True,
      note="the percentage of the zone in art. 85.º: check it against the consolidated text"),
    P("pt.profit_rate", PT,
      gettext_noop("IEJ on the presumed gross profit of the bankrolls (lucro bruto das bancas)"),
      "percent", "20", f"{DL_422_89}, art. 85.º, n.º 1, b)", demo=True,
      note="the percentage of the zone in art. 85.º: check it against the consolidated text"),
    *(P(f"pt.presumed_profit.{zone}.{bank}", PT,
        Words("Presumed gross profit, {zone}, banca {bank} (percentage of the capital)",
              zone=ZONE_NAMES[zone], bank=bank),
        "percent", _PRESUMED[zone][i], _ART_87) for zone in ZONES
      for i, bank in enumerate(BANKS)),
    P("pt.non_banked_rate", PT,
      gettext_noop("IEJ on non-banked games, percentage of the commission collected (receita "
                   "cobrada dos pontos)"),
      "percent", "10", f"{DL_422_89}, art. 86.º, n.º 1",
      demo=True, note="set by zone and by period of the concession in art. 86.º"),
    P("pt.contrapartida_rate", PT,
      gettext_noop("Annual contrapartida of the concession, percentage of gross revenue"),
      "percent", "50",
      Words("the concession contract (contrapartida anual), with the IEJ credited against it; "
            "{law}, art. 84.º", law=DL_422_89), demo=True),
    P("pt.contrapartida_minimum", PT, gettext_noop("Annual contrapartida's contractual minimum"),
      "amount", "1000000.00", gettext_noop("the concession contract (contrapartida mínima)"),
      per_casino=True, demo=True),
    P("pt.jackpot_start_deducted", PT,
      gettext_noop("Jackpot start values the casino funds reduce the gross revenue"),
      "choice", "no",
      gettext_noop("docs/gaming-tax.md § Jackpot start values (only prizes paid and the "
                   "players' part of the liability count)"), choices=FLAGS),
    P("pt.negative_base_carry", PT,
      gettext_noop("A month's negative gross revenue is carried to the next months of the year"),
      "choice", "none", gettext_noop("docs/gaming-tax.md § No negative tax"), choices=CARRY),
    # --- Macau ----------------------------------------------------------------------------------
    P("mo.special_gaming_tax", MO,
      gettext_noop("Special gaming tax (imposto especial sobre o jogo)"),
      "percent", "35", f"{LEI_16_2001}, art. 27.º", effective_from=dt.date(2002, 4, 1)),
    P("mo.public_foundation", MO, gettext_noop("Contribution to a public foundation"),
      "percent", "2", f"{LEI_16_2001}, art. 22.º", effective_from=dt.date(2002, 4, 1)),
    P("mo.development_contribution", MO,
      gettext_noop("Contribution to urban development, tourism promotion and social security"),
      "percent", "3", f"{LEI_16_2001}, art. 22.º", effective_from=dt.date(2002, 4, 1)),
    P("mo.premium_fixed", MO, gettext_noop("Annual premium, fixed part"), "amount",
      "30000000.00", _CONTRACTS, effective_from=dt.date(2023, 1, 1)),
    P("mo.premium_vip_table", MO, gettext_noop("Annual premium, per VIP gaming table"), "amount",
      "300000.00", _CONTRACTS, effective_from=dt.date(2023, 1, 1)),
    P("mo.premium_mass_table", MO, gettext_noop("Annual premium, per mass gaming table"),
      "amount", "150000.00", _CONTRACTS, effective_from=dt.date(2023, 1, 1)),
    P("mo.premium_machine", MO, gettext_noop("Annual premium, per gaming machine"), "amount",
      "1000.00", _CONTRACTS, effective_from=dt.date(2023, 1, 1)),
    P("mo.machines", MO,
      gettext_noop("Gaming machines the casino operates (the platform records none)"),
      "count", "0", gettext_noop("the casino's licence"), per_casino=True, demo=True),
    P("mo.minimum_table_revenue", MO,
      gettext_noop("Minimum annual gross revenue per gaming table"),
      "amount", "7000000.00", f"{LEI_16_2001}, art. 20.º; Despacho do Chefe do Executivo "
      "n.º 162/2022", effective_from=dt.date(2023, 1, 1)),
    P("mo.minimum_machine_revenue", MO,
      gettext_noop("Minimum annual gross revenue per gaming machine"),
      "amount", "300000.00", f"{LEI_16_2001}, art. 20.º; Despacho do Chefe do Executivo "
      "n.º 162/2022", effective_from=dt.date(2023, 1, 1)),
    P("mo.jackpot_start_deducted", MO,
      gettext_noop("Jackpot start values the casino funds reduce the gross gaming revenue"),
      "choice", "no", gettext_noop("docs/gaming-tax.md § Jackpot start values"),
      choices=FLAGS),
    P("mo.negative_base_carry", MO,
      gettext_noop("A month's negative gross gaming revenue is carried to the next months of "
                   "the year"),
      "choice", "none", gettext_noop("docs/gaming-tax.md § No negative tax"), choices=CARRY),
)
del P
BY_CODE: dict[str, Parameter] = {p.code: p for p in CATALOGUE}


def parameter(code: str) -> Parameter:
    try:
        return BY_CODE[code]
    except KeyError:
        raise ParameterError("there is no tax parameter {code!r}", code=code) from None


def jurisdiction_of(currency: str) -> str:
    """A casino in euros answers to Portugal, one in patacas to Macau (docs/gaming-tax.md)."""
    return {"EUR": PT, "MOP": MO}.get(currency, "")


# --- the parameters in force ----------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One change of a parameter, as its event recorded it (``casino`` empty: every casino)."""

    code: str
    value: str
    effective_from: dt.date
    legal_source: str
    casino: str = ""
    set_by: str = ""
    set_at: dt.datetime | None = None
    position: int = 0


@dataclass(frozen=True)
class InForce:
    code: str
    value: str
    effective_from: dt.date
    legal_source: str
    set_by: str  # empty: the legal baseline


@dataclass
class Rules:
    """The baseline and the changes of one casino's jurisdiction."""

    jurisdiction: str
    casino: str
    changes: Sequence[Change] = ()
    _by_code: dict[str, list[Change]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        for change in sorted(self.changes, key=lambda c: (c.effective_from, c.position)):
            if change.casino in ("", self.casino):
                self._by_code.setdefault(change.code, []).append(change)

    def in_force(self, code: str, day: dt.date) -> InForce:
        """The value of ``code`` on ``day``: the latest change in force, a casino's own before
        the jurisdiction's when both start the same day, else the baseline."""
        p = parameter(code)
        best: Change | None = None
        for change in self._by_code.get(code, ()):
            if change.effective_from > day:
                break
            if (best is None or change.effective_from > best.effective_from
                    or change.casino or not best.casino):
                best = change
        if best is None:
            return InForce(code, p.default, p.effective_from, p.legal_source, "")
        return InForce(code, best.value, best.effective_from, best.legal_source, best.set_by)

    def text(self, code: str, day: dt.date) -> str:
        return self.in_force(code, day).value

    def number(self, code: str, day: dt.date) -> Decimal:
        return Decimal(self.in_force(code, day).value)

    def flag(self, code: str, day: dt.date) -> bool:
        return self.text(code, day) == "yes"

    def codes(self) -> list[str]:
        prefix = "pt." if self.jurisdiction == PT else "mo."
        return [p.code for p in CATALOGUE if p.code.startswith(prefix)]


# --- what a closed day fixed ------------------------------------------------------------------


@dataclass(frozen=True)
class RegisterLine:
    """The daily register of one table (the close's ``register``): its first session's opening
    float, its capital em giro inicial (``capital``: the approved capital, or the opening where
    it is above it, ``capital_source`` saying which; ``reporting.day_register.capital_base``),
    drop, result. A register fixed before issue 34 has no ``capital``: its opening stands."""

    day: dt.date
    table: str
    game: str
    bank: str  # simples or dupla
    vip: bool
    opening: Decimal
    drop: Decimal
    win: Decimal
    commission: Decimal = ZERO  # non-banked games: the commission collected
    capital: Decimal | None = None
    capital_source: str = ""

    @property
    def banked(self) -> bool:
        return self.game not in NON_BANKED_GAMES

    @property
    def base(self) -> Decimal:
        """The capital em giro inicial the IEJ reads (DL 422/89, art. 87.º, n.º 1, A), a))."""
        return self.opening if self.capital is None else self.capital


@dataclass(frozen=True)
class DayRevenue:
    """A closed day's gross revenue as the close fixed it (the close's ``revenue``)."""

    day: dt.date
    table_win: Decimal
    jackpot_retained: Decimal
    jackpot_funding: Decimal  # start values the casino funded (positive)
    non_banked: Decimal = ZERO  # the poker room's commission, fees less overlays (7215-7217, 7885)


def gross_revenue(day: DayRevenue, rules: Rules) -> Decimal:
    """The day's gross revenue, the GGR taxes' base: table win and the jackpot bets retained,
    less the start values funded only where the jurisdiction deducts them."""
    deducted = rules.flag(f"{_prefix(rules)}.jackpot_start_deducted", day.day)
    return (day.table_win + day.jackpot_retained + day.non_banked
            - (day.jackpot_funding if deducted else ZERO))


def _prefix(rules: Rules) -> str:
    return "pt" if rules.jurisdiction == PT else "mo"


# --- the return -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaxLine:
    """One line of a return: a tax or contribution, its base and what is owed for the month.

    ``rate`` is the percentage when one rate applied the whole month, else None (the days at
    different rates: ``rates`` says which, from which day)."""

    code: str
    name: str
    base: Decimal
    amount: Decimal
    rate: Decimal | None
    rates: tuple[tuple[dt.date, Decimal], ...]
    legal_source: str
    annual: bool = False  # an annual figure: ``amount`` is the month's accrual
    to_date: Decimal | None = None  # annual figures: the year's accrual to the month's end


@dataclass(frozen=True)
class Month:
    """The return's figures for one month (before the year-to-date lines)."""

    gross_revenue: Decimal  # the month's base as recorded (may be negative)
    negative_base: Decimal  # the part of it below zero (zero or negative)
    carried_in: Decimal  # negative base carried from earlier months of the year
    carried_out: Decimal  # negative base carried to the next month
    taxable_revenue: Decimal  # what the GGR taxes are levied on (zero or more)
    jackpot_funding: Decimal
    jackpot_funding_deducted: bool
    capital: Decimal  # capital em giro inicial of the banked tables
    presumed_profit: Decimal
    commission: Decimal
    lines: tuple[TaxLine, ...]


def _q(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def _rated(code: str, name: str, parts: Iterable[tuple[dt.date, Decimal, Decimal]],
           source: str, scale: Decimal | None = None) -> TaxLine:
    """A line from its days: (day, base, rate %). ``scale`` shrinks the tax when only part of
    the base is taxable (a carried negative base). Never below zero."""
    base, tax = ZERO, Decimal(0)
    rates: list[tuple[dt.date, Decimal]] = []
    for day, day_base, rate in sorted(parts):
        base += day_base
        tax += day_base * rate / HUNDRED
        if not rates or rates[-1][1] != rate:
            rates.append((day, rate))
    if scale is not None:
        tax = tax * scale
    amount = max(_q(tax), ZERO) if base > 0 else ZERO
    return TaxLine(code=code, name=name, base=_q(base), amount=amount,
                   rate=rates[0][1] if len(rates) == 1 else None, rates=tuple(rates),
                   legal_source=source)


def _carry(bases: Sequence[Decimal], how: str) -> tuple[Decimal, Decimal, Decimal]:
    """For the last of a year's monthly bases: (carried in, taxable, carried out)."""
    carried = ZERO
    taxable = ZERO
    carried_in = ZERO
    for base in bases:
        carried_in = carried
        total = base + carried if how == "forward" else base
        taxable = max(total, ZERO)
        carried = min(total, ZERO) if how == "forward" else ZERO
    return carried_in, taxable, carried


def month_figures(*, rules: Rules, month: dt.date, register: Sequence[RegisterLine],
                  revenue: Sequence[DayRevenue], earlier_bases: Sequence[Decimal] = ()
                  ) -> Month:
    """The month's taxes (``month``: its first day). ``earlier_bases``: the gross revenue of
    each earlier month of the year, for a carried negative base."""
    p = _prefix(rules)
    last_day = _month_end(month)
    gross = sum((gross_revenue(d, rules) for d in revenue), ZERO)
    funding = sum((d.jackpot_funding for d in revenue), ZERO)
    how = rules.text(f"{p}.negative_base_carry", last_day)
    carried_in, taxable, carried_out = _carry([*earlier_bases, gross], how)
    lines: list[TaxLine] = []
    capital = presumed = commission = ZERO
    if rules.jurisdiction == PT:
        capital_parts, profit_parts, commission_parts = [], [], []
        for r in register:
            if not r.banked:
                commission += r.commission
                commission_parts.append((r.day, r.commission,
                                         rules.number("pt.non_banked_rate", r.day)))
                continue
            zone = rules.text("pt.zone", r.day)
            capital += r.base
            capital_parts.append((r.day, r.base,
                                  rules.number(f"pt.capital_rate.{r.bank}", r.day)))
            presumed_here = r.base * rules.number(
                f"pt.presumed_profit.{zone}.{r.bank}", r.day) / HUNDRED
            presumed += presumed_here
            profit_parts.append((r.day, presumed_here, rules.number("pt.profit_rate", r.day)))
        lines.append(_rated("pt-iej-capital",
                            gettext_noop("IEJ, banked games: capital em giro inicial"),
                            capital_parts, f"{DL_422_89}, art. 85.º, n.º 1, a); art. 87.º, "
                            "n.º 1, A), a)"))
        lines.append(_rated("pt-iej-profit", gettext_noop("IEJ, banked games: presumed gross "
                                                          "profit"),
                            profit_parts, f"{DL_422_89}, art. 85.º, n.º 1, b); art. 87.º, "
                            "n.º 1, A), b)"))
        lines.append(_rated("pt-iej-non-banked",
                            gettext_noop("IEJ, non-banked games: commission collected"),
                            commission_parts, f"{DL_422_89}, art. 86.º; art. 87.º, n.º 1, B)"))
    else:
        scale = None if taxable == gross else (taxable / gross if gross > 0 else ZERO)
        for code, name in (("mo.special_gaming_tax", gettext_noop("Special gaming tax")),
                           ("mo.public_foundation",
                            gettext_noop("Contribution to a public foundation")),
                           ("mo.development_contribution",
                            gettext_noop("Contribution to urban development, tourism and social "
                                         "security"))):
            parts = [(d.day, gross_revenue(d, rules), rules.number(code, d.day))
                     for d in revenue]
            line = _rated(code.replace(".", "-").replace("_", "-"), name, parts,
                          rules.in_force(code, last_day).legal_source, scale)
            if taxable != gross:  # carried: the base taxed is what the carry leaves
                line = _replace_base(line, taxable)
            lines.append(line)
    return Month(gross_revenue=_q(gross), negative_base=_q(min(gross, ZERO)),
                 carried_in=_q(carried_in), carried_out=_q(carried_out),
                 taxable_revenue=_q(taxable), jackpot_funding=_q(funding),
                 jackpot_funding_deducted=rules.flag(f"{p}.jackpot_start_deducted", last_day),
                 capital=_q(capital), presumed_profit=_q(presumed), commission=_q(commission),
                 lines=tuple(lines))


def _replace_base(line: TaxLine, base: Decimal) -> TaxLine:
    return TaxLine(code=line.code, name=line.name, base=_q(base),
                   amount=line.amount if base > 0 else ZERO, rate=line.rate, rates=line.rates,
                   legal_source=line.legal_source)


def _month_end(month: dt.date) -> dt.date:
    return (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)


# --- the year to date -------------------------------------------------------------------------


@dataclass(frozen=True)
class YearToDate:
    """What a month's return needs of the year so far (January to the month, inclusive)."""

    months: int  # months elapsed, this one included
    taxable_revenue: Decimal  # the GGR taxes' bases of the months, summed
    iej: Decimal  # Portugal: the IEJ of the months, summed
    tables: frozenset[str]  # tables in the year's register
    vip_tables: frozenset[str]
    table_win: Decimal  # the tables' gross revenue of the year


def annual_to_date(*, rules: Rules, day: dt.date, ytd: YearToDate) -> dict[str, Decimal]:
    """The annual figures accrued to ``day`` (a month's last day), by code."""
    share = Decimal(ytd.months) / TWELVE
    if rules.jurisdiction == PT:
        rate = rules.number("pt.contrapartida_rate", day)
        minimum = rules.number("pt.contrapartida_minimum", day) * share
        owed = max(ytd.taxable_revenue * rate / HUNDRED, minimum)
        return {"pt-contrapartida": max(_q(owed - ytd.iej), ZERO)}
    tables = len(ytd.tables)
    vip = len(ytd.vip_tables)
    machines = rules.number("mo.machines", day)
    premium = (rules.number("mo.premium_fixed", day)
               + vip * rules.number("mo.premium_vip_table", day)
               + (tables - vip) * rules.number("mo.premium_mass_table", day)
               + machines * rules.number("mo.premium_machine", day)) * share
    tax = rules.number("mo.special_gaming_tax", day) / HUNDRED
    table_shortfall = max(tables * rules.number("mo.minimum_table_revenue", day) * share
                          - ytd.table_win, ZERO)
    machine_shortfall = machines * rules.number("mo.minimum_machine_revenue", day) * share
    return {"mo-premium": _q(premium),
            "mo-special-premium": _q((table_shortfall + machine_shortfall) * tax)}


ANNUAL_NAMES: Mapping[str, tuple[str, str]] = {
    "pt-contrapartida": (gettext_noop("Annual contrapartida of the concession (less the year's "
                                      "IEJ)"),
                         gettext_noop("the concession contract; the IEJ credited against it")),
    "mo-premium": (gettext_noop("Annual premium (fixed part and per table and machine), by "
                                "twelfths"), f"{LEI_16_2001}, art. 20.º"),
    "mo-special-premium": (gettext_noop("Special premium: average gross revenue per table or "
                                        "machine below the government's minimum"),
                           f"{LEI_16_2001}, art. 20.º; Despacho do Chefe do Executivo n.º "
                           "162/2022"),
}


def annual_lines(*, rules: Rules, day: dt.date, before: Mapping[str, Decimal],
                 now: Mapping[str, Decimal], bases: Mapping[str, Decimal]) -> list[TaxLine]:
    """The annual figures as lines of a month's return: the month's accrual is the year's
    figure to this month less the figure to the month before."""
    out = []
    for code, to_date in now.items():
        name, source = ANNUAL_NAMES[code]
        out.append(TaxLine(code=code, name=name, base=_q(bases.get(code, ZERO)),
                           amount=_q(to_date - before.get(code, ZERO)), rate=None, rates=(),
                           legal_source=source, annual=True, to_date=to_date))
    return out
