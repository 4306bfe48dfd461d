"""The denomination grids of the cage's forms: one box per note, coin or chip, never free text.

A grid is named by its form field (``cash``, ``change``, ``chips``): its boxes are
``<field>-<denomination>`` for notes and coins and ``<field>-<chip set>-<denomination>`` for chips,
so a refused form is drawn again with every box as typed. ``static/cage/grid.js`` adds the
totals as you type and the change due; without it the form still posts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.http import QueryDict
from django.utils.translation import gettext as _

from casino.errors import InvalidCommand
from casino.models import Casino, ChipSet
from casino.money import CASH_DENOMINATIONS, fmt
from edge.web.money import money_text


@dataclass(frozen=True)
class Box:
    name: str  # the field's name, e.g. cash-100.00
    denomination: str  # 100.00, as the services read it
    shown: str  # 100,00 in pt-PT
    value: str  # as typed (a refused form), else empty


@dataclass(frozen=True)
class Grid:
    field: str  # cash, change, chips-main
    label: str
    boxes: list[Box]
    chip_set: str = ""


def _boxes(field: str, denominations: list[str], posted: Mapping[str, str]) -> list[Box]:
    return [Box(name=f"{field}-{d}", denomination=d, shown=money_text(Decimal(d)),
                value=str(posted.get(f"{field}-{d}", ""))) for d in denominations]


def cash_denominations(casino: Casino) -> list[str]:
    return [fmt(d) for d in CASH_DENOMINATIONS[casino.currency]]


def chip_sets(casino: Casino) -> list[ChipSet]:
    return list(ChipSet.objects.filter(casino_id=casino.code).order_by("code"))


def chip_denominations(chip_set: ChipSet) -> list[str]:
    return [fmt(Decimal(d)) for d in chip_set.denominations]


def cash_grid(casino: Casino, field: str, label: str, posted: Mapping[str, str]) -> Grid:
    return Grid(field, label, _boxes(field, cash_denominations(casino), posted))


def chip_grids(casino: Casino, field: str, label: str, posted: Mapping[str, str], *,
               sets: list[ChipSet] | None = None) -> list[Grid]:
    """One grid per chip set of the casino (``<field>-<set>-<denomination>``); ``sets``: the
    casino's chip sets when the caller read them already (a page of many grids reads them once)."""
    return [Grid(f"{field}-{s.code}", f"{label} · {s.name}" if label else s.name,
                 _boxes(f"{field}-{s.code}", chip_denominations(s), posted), chip_set=s.code)
            for s in (chip_sets(casino) if sets is None else sets)]


def _read(posted: QueryDict, field: str, denominations: list[str]) -> dict[str, int] | None:
    """Pieces by denomination as typed; an empty box is none; not a whole number, refused."""
    counts: dict[str, int] = {}
    for d in denominations:
        raw = (posted.get(f"{field}-{d}") or "").strip()
        if not raw:
            continue
        if not raw.isdigit():
            raise InvalidCommand(_("%(denomination)s: %(typed)s is not a number of pieces")
                                 % {"denomination": money_text(Decimal(d)), "typed": raw},
                                 field=field.split("-")[0])
        if int(raw):
            counts[d] = int(raw)
    return counts or None


def read_cash(posted: QueryDict, casino: Casino, field: str) -> dict[str, int] | None:
    return _read(posted, field, cash_denominations(casino))


def read_chips_by_set(posted: QueryDict, casino: Casino, field: str, *,
                      sets: list[ChipSet] | None = None) -> dict[str, dict[str, int]] | None:
    found = {}
    for s in (chip_sets(casino) if sets is None else sets):
        counts = _read(posted, f"{field}-{s.code}", chip_denominations(s))
        if counts:
            found[s.code] = counts
    return found or None


def read_chips(posted: QueryDict, casino: Casino, field: str, *,
               sets: list[ChipSet] | None = None) -> tuple[str | None, dict[str, int] | None]:
    """The chips of one chip set (the movements of one set): the set typed in, and its count."""
    found = read_chips_by_set(posted, casino, field, sets=sets) or {}
    if len(found) > 1:
        raise InvalidCommand(_("chips of one chip set at a time"), field=field)
    if not found:
        return None, None
    code, counts = next(iter(found.items()))
    return code, counts
