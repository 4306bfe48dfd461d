"""Cage reconciliation (accountability) for a shift and for a gaming day, by denomination.

opening + receipts − payments = expected; counted − expected = variance. In pieces, with the
value beside each figure. A gaming day adds up each cage's shifts of the day: opening is the first
shift's opening, counted the last shift's count, receipts and payments the sum. Because each
shift opens on the previous one's count, the day's variance is the sum of its shifts' variances.
The casino total adds the cages (a transfer between two cages is a payment at one and a receipt
at the other, so it shows in both columns and nets out of expected).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from casino.money import fmt

from . import inventory as inv
from .models import Shift, ShiftEntry, ShiftLine, ShiftStatus
from .selectors import LineFigures, shift_figures, shift_list

Key = tuple[str, str, Decimal]  # kind, chip set, denomination


@dataclass
class ReportLine:
    kind: str
    chip_set: str
    denomination: Decimal
    opening: int = 0
    receipts: int = 0
    payments: int = 0
    counted: int | None = None

    @property
    def expected(self) -> int:
        return self.opening + self.receipts - self.payments

    @property
    def variance(self) -> int | None:
        return None if self.counted is None else self.counted - self.expected

    @property
    def label(self) -> str:
        return "cash" if self.kind == inv.CASH else f"chips ({self.chip_set})"

    def value(self, figure: str) -> Decimal | None:
        pieces = getattr(self, figure)
        return None if pieces is None else self.denomination * pieces


def _total(lines: Iterable[ReportLine], figure: str) -> Decimal | None:
    values = [line.value(figure) for line in lines]
    if any(v is None for v in values):
        return None
    return sum((v for v in values if v is not None), inv.ZERO)


@dataclass
class Section:
    """One cage's accountability (or the casino's total), line by line."""

    title: str
    cage: str
    shift_ids: list[str]
    status: str
    lines: list[ReportLine]
    movements: dict[str, tuple[Decimal, Decimal]] = field(default_factory=dict)

    def total(self, figure: str) -> Decimal | None:
        return _total(self.lines, figure)

    @property
    def totals(self) -> dict[str, Decimal | None]:
        return {f: self.total(f) for f in
                ("opening", "receipts", "payments", "expected", "counted", "variance")}

    @property
    def balanced(self) -> bool | None:
        if any(line.counted is None for line in self.lines):
            return None
        return all(line.variance == 0 for line in self.lines)


@dataclass
class Reconciliation:
    casino: str
    scope: str  # "shift" or "gaming_day"
    gaming_day: dt.date
    sections: list[Section]


def _from_figures(figures: Iterable[LineFigures]) -> list[ReportLine]:
    return [ReportLine(f.kind, f.chip_set, f.denomination, f.opening, f.receipts, f.payments,
                       f.counted) for f in figures]


def _movements(shift_ids: Iterable[str]) -> dict[str, tuple[Decimal, Decimal]]:
    """Value in and out by movement type (what the receipts and payments were)."""
    totals: dict[str, list[Decimal]] = defaultdict(lambda: [inv.ZERO, inv.ZERO])
    for entry in ShiftEntry.objects.filter(shift_id__in=list(shift_ids)):
        if entry.amount_in or entry.amount_out:
            totals[entry.event_type][0] += entry.amount_in
            totals[entry.event_type][1] += entry.amount_out
    return {k: (v[0], v[1]) for k, v in sorted(totals.items())}


def shift_reconciliation(shift: Shift) -> Reconciliation:
    section = Section(title=f"{shift.get_cage_kind_display()} {shift.cage}", cage=shift.cage,
                      shift_ids=[str(shift.id)], status=shift.status,
                      lines=_from_figures(shift_figures(shift)),
                      movements=_movements([str(shift.id)]))
    return Reconciliation(casino=shift.casino_id, scope="shift", gaming_day=shift.gaming_day,
                          sections=[section])


def gaming_day_reconciliation(*, casino: str, gaming_day: dt.date) -> Reconciliation:
    """Every cage that had a shift on ``gaming_day``, then the casino's total."""
    shifts = list(shift_list(casino=casino, gaming_day=gaming_day))
    lines_by_shift: dict[str, list[ShiftLine]] = defaultdict(list)
    for line in ShiftLine.objects.filter(shift__in=shifts):
        lines_by_shift[str(line.shift_id)].append(line)
    by_cage: dict[str, list[Shift]] = defaultdict(list)
    for shift in shifts:  # in opening order
        by_cage[shift.cage].append(shift)
    sections: list[Section] = []
    totals: dict[Key, ReportLine] = {}
    all_counted = True
    for code in sorted(by_cage):
        cage_shifts = by_cage[code]
        first, last = cage_shifts[0], cage_shifts[-1]
        day: dict[Key, ReportLine] = {}
        for shift in cage_shifts:
            for row in lines_by_shift[str(shift.id)]:
                key = (row.kind, row.chip_set, row.denomination)
                entry = day.setdefault(key, ReportLine(*key))
                if shift is first:
                    entry.opening = row.opening
                entry.receipts += row.receipts
                entry.payments += row.payments
        counted = last.status in (ShiftStatus.COUNTED, ShiftStatus.CLOSED)
        all_counted = all_counted and counted
        last_counts = {(r.kind, r.chip_set, r.denomination): r.counted or 0
                       for r in lines_by_shift[str(last.id)]}
        for key, entry in day.items():
            entry.counted = last_counts.get(key, 0) if counted else None
        ordered = [day[k] for k in sorted(day, key=lambda k: (k[0], k[1], -k[2]))]
        ids = [str(s.id) for s in cage_shifts]
        sections.append(Section(title=f"{first.get_cage_kind_display()} {code}", cage=code,
                                shift_ids=ids, status=last.status, lines=ordered,
                                movements=_movements(ids)))
        for key, entry in day.items():
            total = totals.setdefault(key, ReportLine(*key, counted=0))
            total.opening += entry.opening
            total.receipts += entry.receipts
            total.payments += entry.payments
            total.counted = (total.counted or 0) + (entry.counted or 0)
    if by_cage:
        total_lines = [totals[k] for k in sorted(totals, key=lambda k: (k[0], k[1], -k[2]))]
        if not all_counted:
            for entry in total_lines:
                entry.counted = None
        sections.append(Section(
            title="Casino total", cage="", shift_ids=[str(s.id) for s in shifts],
            status="closed" if all(s.status == ShiftStatus.CLOSED for s in shifts) else "open",
            lines=total_lines, movements=_movements(str(s.id) for s in shifts)))
    return Reconciliation(casino=casino, scope="gaming_day", gaming_day=gaming_day,
                          sections=sections)


CSV_HEADER = ("casino", "scope", "gaming_day", "cage", "shifts", "status", "kind", "chip_set",
              "denomination", "opening", "receipts", "payments", "expected", "counted",
              "variance", "opening_value", "receipts_value", "payments_value",
              "expected_value", "counted_value", "variance_value")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return fmt(value)
    return str(value)


def csv_rows(report: Reconciliation) -> Iterator[list[str]]:
    yield list(CSV_HEADER)
    for section in report.sections:
        for line in section.lines:
            yield [_cell(v) for v in (
                report.casino, report.scope, report.gaming_day.isoformat(),
                section.cage or "TOTAL", " ".join(section.shift_ids), section.status,
                line.kind, line.chip_set, line.denomination, line.opening, line.receipts,
                line.payments, line.expected, line.counted, line.variance,
                line.value("opening"), line.value("receipts"), line.value("payments"),
                line.value("expected"), line.value("counted"), line.value("variance"))]


def as_csv(report: Reconciliation) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(csv_rows(report))
    return buffer.getvalue()
