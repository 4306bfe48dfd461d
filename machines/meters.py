"""The slot floor's pure core: the meter vocabulary, readings checked and differenced, the win by
meters, the return to players and its band, a pay table spun. No Django, no clock, no I/O
(a purity contract in ``pyproject.toml`` holds it so).

The meters are the industry's (SAS, G2S ``meters``): money in the casino's currency, to the cent;
counts as whole numbers. A reading is a snapshot of every meter of one machine; what happened
between two readings is their difference. A meter only goes up: one that went back is refused,
unless a rollover or a RAM clear was recorded (``docs/machines.md`` § Meters).

The win by meters (docs/machines.md § Win): ``coin_in − coin_out − jackpots``. Credits a player
cancels and is paid by hand (``cancelled_credits``) are credits already on the machine, not a
loss of the house: they move cash, not win. Tickets and bills are how money enters and leaves
the credit meter: they make the drop and the ticket liability, not the win.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
HUNDRED = Decimal(100)

#: Money meters (SAS long poll meters 0000-0005, 000D/000E, 0080s progressive): the currency.
MONEY_METERS = ("coin_in", "coin_out", "jackpots", "cancelled_credits", "bills_in",
                "tickets_in", "tickets_out", "progressive_contributions")
#: Counted meters.
COUNT_METERS = ("games_played",)
METERS = MONEY_METERS + COUNT_METERS
#: Bills in by denomination (SAS 0040-0057): a count of notes per denomination.
BILLS = "bills"
#: The largest amount a meter holds (NUMERIC(14, 2), as the money columns).
MAX_METER = Decimal("999999999999.99")
MAX_COUNT = 2**62


class MeterError(ValueError):
    """A reading the rules refuse: an English template with ``{name}`` placeholders and its
    values (the services turn it into the platform's refusal, in the page's language)."""

    def __init__(self, template: str, *, code: str = "invalid_reading", **params: object) -> None:
        super().__init__(template.format(**params))
        self.template, self.params, self.code = template, params, code


@dataclass(frozen=True)
class Meters:
    """Every meter of a reading (or a difference of two)."""

    coin_in: Decimal = ZERO
    coin_out: Decimal = ZERO
    jackpots: Decimal = ZERO
    cancelled_credits: Decimal = ZERO
    bills_in: Decimal = ZERO
    tickets_in: Decimal = ZERO
    tickets_out: Decimal = ZERO
    progressive_contributions: Decimal = ZERO
    games_played: int = 0
    bills: tuple[tuple[str, int], ...] = ()  # (denomination, notes), sorted

    def as_data(self) -> dict[str, str]:
        """As an event keeps it: decimal strings, counts as digits, bills as ``bills.<d>``."""
        out = {name: str(getattr(self, name)) for name in METERS}
        out.update({f"{BILLS}.{d}": str(n) for d, n in self.bills})
        return out

    @property
    def win(self) -> Decimal:
        """The win by meters: coin in − coin out − jackpots paid by hand."""
        return self.coin_in - self.coin_out - self.jackpots

    @property
    def drop(self) -> Decimal:
        """What went into the bill validator's box (bills) and the tickets put in."""
        return self.bills_in + self.tickets_in

    @property
    def bills_value(self) -> Decimal:
        return sum((Decimal(d) * n for d, n in self.bills), ZERO)


def _amount(name: str, value: object) -> Decimal:
    if isinstance(value, float | bool) or value is None:
        raise MeterError("meter {name} is an amount written as a string such as \"12.50\", "
                         "not {value!r}", name=name, value=value)
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        raise MeterError("meter {name} is an amount, not {value!r}", name=name,
                         value=value) from None
    if not number.is_finite() or number < 0 or number != number.quantize(CENT) \
            or number > MAX_METER:
        raise MeterError("meter {name} is an amount in cents, zero or more, at most "
                         "999999999999.99, not {value!r}", name=name, value=value)
    return number.quantize(CENT)


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise MeterError("meter {name} is a whole number, not {value!r}", name=name, value=value)
    text = str(value).strip()
    if not text.isdigit() or int(text) > MAX_COUNT:
        raise MeterError("meter {name} is a whole number zero or more, not {value!r}",
                         name=name, value=value)
    return int(text)


def parse_meters(data: Mapping[str, object], *, denominations: Sequence[str]) -> Meters:
    """A reading's meters from what a slot system sent: every standard meter present, bills by
    ``denominations`` (the casino's notes), nothing else. ``bills`` may come as a mapping
    ``{"20.00": 3}`` or as keys ``bills.20.00``."""
    if not isinstance(data, Mapping):
        raise MeterError("meters are an object of meter names and values")
    known = set(METERS) | {BILLS}
    bills: dict[str, object] = {}
    for key, value in data.items():
        if isinstance(key, str) and key.startswith(BILLS + "."):
            bills[key[len(BILLS) + 1:]] = value
        elif key not in known:
            raise MeterError("there is no meter {name!r} (the meters are {known})", name=key,
                             known=", ".join((*METERS, BILLS)), code="unknown_meter")
    raw = data.get(BILLS)
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise MeterError("bills are an object of denominations and notes")
        bills.update(raw)
    missing = [name for name in METERS if name not in data]
    if missing:
        raise MeterError("the reading lacks meter {name}", name=missing[0], code="missing_meter")
    notes: dict[str, int] = {}
    allowed = {str(Decimal(d).quantize(CENT)): d for d in denominations}
    for denomination, count in bills.items():
        try:
            key = str(Decimal(str(denomination)).quantize(CENT))
        except InvalidOperation:
            key = ""
        if key not in allowed:
            raise MeterError("there is no note of {denomination} in this casino's currency",
                             denomination=denomination, code="unknown_denomination")
        notes[key] = _count(f"{BILLS}.{key}", count)
    values: dict[str, object] = {name: _amount(name, data[name]) for name in MONEY_METERS}
    values["games_played"] = _count("games_played", data["games_played"])
    return Meters(**values, bills=tuple(sorted(notes.items(), key=lambda i: Decimal(i[0]))))  # type: ignore[arg-type]


def from_data(data: Mapping[str, str]) -> Meters:
    """A reading as an event keeps it (``Meters.as_data``) back into meters."""
    values: dict[str, object] = {n: Decimal(data.get(n, "0.00")) for n in MONEY_METERS}
    values["games_played"] = int(data.get("games_played", "0"))
    bills = tuple(sorted(((k[len(BILLS) + 1:], int(v)) for k, v in data.items()
                          if k.startswith(BILLS + ".")), key=lambda i: Decimal(i[0])))
    return Meters(**values, bills=bills)  # type: ignore[arg-type]


def difference(before: Meters, after: Meters) -> Meters:
    """What happened between two readings: ``after − before``, meter by meter. A meter that went
    back is refused (``meter_went_back``): only a recorded rollover or RAM clear restarts them."""
    values: dict[str, object] = {}
    for name in METERS:
        b, a = getattr(before, name), getattr(after, name)
        if a < b:
            raise MeterError("meter {name} went back from {before} to {after} with no rollover "
                             "or RAM clear recorded", name=name, before=b, after=a,
                             code="meter_went_back")
        values[name] = a - b
    old = dict(before.bills)
    bills = []
    for denomination, notes in after.bills:
        if notes < old.get(denomination, 0):
            raise MeterError("meter bills.{name} went back from {before} to {after} with no "
                             "rollover or RAM clear recorded", name=denomination,
                             before=old.get(denomination, 0), after=notes,
                             code="meter_went_back")
        if notes - old.get(denomination, 0):
            bills.append((denomination, notes - old.get(denomination, 0)))
    for denomination in old:
        if denomination not in dict(after.bills) and old[denomination]:
            raise MeterError("meter bills.{name} went back from {before} to 0 with no rollover "
                             "or RAM clear recorded", name=denomination,
                             before=old[denomination], after=0, code="meter_went_back")
    return Meters(**values, bills=tuple(bills))  # type: ignore[arg-type]


def add(a: Meters, b: Meters) -> Meters:
    values: dict[str, object] = {n: getattr(a, n) + getattr(b, n) for n in METERS}
    bills = dict(a.bills)
    for d, n in b.bills:
        bills[d] = bills.get(d, 0) + n
    return Meters(**values, bills=tuple(sorted(bills.items(), key=lambda i: Decimal(i[0]))))  # type: ignore[arg-type]


def check_bills(meters: Meters) -> None:
    """The bills counted by denomination make the bills-in meter."""
    if meters.bills and meters.bills_value != meters.bills_in:
        raise MeterError("bills by denomination make {value}, the bills-in meter says {meter}",
                         value=meters.bills_value, meter=meters.bills_in,
                         code="bills_do_not_add_up")


# --- the return to players --------------------------------------------------------------------


def actual_return(coin_in: Decimal, paid: Decimal) -> Decimal | None:
    """Percent of the coin in paid back (coin out and jackpots), two decimals; None if no play."""
    if coin_in <= 0:
        return None
    return (paid * HUNDRED / coin_in).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class ReturnCheck:
    actual: Decimal | None
    certified: Decimal
    low: Decimal
    high: Decimal
    games: int
    outside: bool


def return_check(*, coin_in: Decimal, paid: Decimal, games: int, certified: Decimal,
                 spread: Decimal, z: Decimal = Decimal("3")) -> ReturnCheck:
    """The machine's actual return against its certified one, in a band that narrows with the
    games played: ``certified ± z · spread / √games`` percentage points, where ``spread`` is the
    pay table's standard deviation of one game's return, in percent of the bet (its volatility,
    as the manufacturer's par sheet gives it). ``z`` = 3: a fair machine is flagged about three
    times in a thousand. No play, no flag."""
    actual = actual_return(coin_in, paid)
    if games <= 0 or actual is None:
        return ReturnCheck(actual, certified, ZERO, HUNDRED * 100, games, False)
    width = (z * spread / Decimal(games).sqrt()).quantize(CENT, rounding=ROUND_HALF_UP)
    low, high = certified - width, certified + width
    return ReturnCheck(actual, certified, low, high, games, not (low <= actual <= high))


# --- pay tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayLine:
    weight: int  # out of the table's total weight
    pays: int  # times the bet (0: a loss)


def parse_paytable(lines: object) -> tuple[PayLine, ...]:
    """``[{"weight": 900, "pays": 0}, {"weight": 100, "pays": 9}]``: weights whole and positive,
    pays whole, zero or more."""
    if not isinstance(lines, list | tuple) or not lines:
        raise MeterError("a pay table is a list of {{weight, pays}} lines", code="invalid_paytable")
    out = []
    for line in lines:
        if not isinstance(line, Mapping):
            raise MeterError("a pay table line is {{weight, pays}}", code="invalid_paytable")
        weight, pays = line.get("weight"), line.get("pays")
        if (isinstance(weight, bool) or not isinstance(weight, int) or weight <= 0
                or isinstance(pays, bool) or not isinstance(pays, int) or pays < 0):
            raise MeterError("a pay table line's weight is a whole number above 0 and its pays "
                             "a whole number zero or more, not {line}", line=dict(line),
                             code="invalid_paytable")
        out.append(PayLine(weight, pays))
    return tuple(out)


def theoretical_return(paytable: Sequence[PayLine]) -> Decimal:
    """The pay table's return to players, percent (two decimals, half up)."""
    total = sum(line.weight for line in paytable)
    paid = sum(line.weight * line.pays for line in paytable)
    return (Decimal(paid) * HUNDRED / Decimal(total)).quantize(CENT, rounding=ROUND_HALF_UP)


def return_spread(paytable: Sequence[PayLine]) -> Decimal:
    """The standard deviation of one game's return, percent of the bet (two decimals)."""
    total = Decimal(sum(line.weight for line in paytable))
    mean = sum(Decimal(line.weight * line.pays) for line in paytable) / total
    var = sum(Decimal(line.weight) * (Decimal(line.pays) - mean) ** 2 for line in paytable) / total
    return (var.sqrt() * HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)


def spin(paytable: Sequence[PayLine], rng: random.Random) -> int:
    """One game: the multiple of the bet it pays, drawn by the lines' weights."""
    total = sum(line.weight for line in paytable)
    draw = rng.randrange(total)
    for line in paytable:
        if draw < line.weight:
            return line.pays
        draw -= line.weight
    raise AssertionError("unreachable")  # pragma: no cover
