"""The close report's sections as a person reads them on the page, in its language.

The files (``reporting.close_report_files``: the CSV, the PDF) keep the report's own keys
(``hold_percent``, ``banca_francesa``, ``ChipsSold``), which programs read; the page shows the
same sections, in the same order, with a title and a label for each column, and each code of a
cell in words (a game, a status, an event type, an approval's kind and reason).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.utils.formats import date_format, number_format
from django.utils.functional import Promise
from django.utils.timezone import localtime
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from casino.services.approvals import PROCEDURES
from edge.web.labels import label
from edge.web.refusals import said

from ..close_report import CloseReport
from ..close_report_files import TRAYS_BY_SESSION, sections

TITLES: Mapping[str, Promise] = {
    "table": _("Tables"),
    "session": _("Table sessions"),
    "game": _("Games"),
    "cage": _("Cage reconciliation"),
    "jackpot": _("Jackpots"),
    "revenue": _("Gross gaming revenue (the gaming-tax base)"),
    "tax": _("Taxes of the day"),
    "exception": _("Exceptions approved"),
    "correction": _("Late corrections of sealed days, booked in this day"),
    "total": _("The day's totals"),
    "non_banked": _("The poker room (non-banked games)"),
    "machine": _("Machines (their win by the meters)"),
    "currency": _("Currencies (each in its own and in the book currency)"),
}

COLUMNS: Mapping[str, Promise] = {
    "table": pgettext_lazy("column", "Table"),
    "game": pgettext_lazy("column", "Game"),
    "tables": pgettext_lazy("column", "Tables"),
    "sessions": pgettext_lazy("column", "Sessions"),
    "rounds": pgettext_lazy("column", "Rounds"),
    "opening": pgettext_lazy("column", "Opening"),
    "fills": pgettext_lazy("column", "Fills"),
    "credits": pgettext_lazy("column", "Credits"),
    "drop": pgettext_lazy("column", "Drop"),
    "closing": pgettext_lazy("column", "Closing"),
    "win": pgettext_lazy("column", "Win"),
    "hold_percent": pgettext_lazy("column", "Hold %"),
    "handle": pgettext_lazy("column", "Handle"),
    "theoretical_win": pgettext_lazy("column", "Theoretical win"),
    "theoretical_hold_percent": pgettext_lazy("column", "Theoretical hold %"),
    "win_handle_percent": pgettext_lazy("column", "Win ÷ handle %"),
    "against_theoretical": pgettext_lazy("column", "Win less theoretical"),
    "figures": pgettext_lazy("column", "House edges from"),
    "carried": pgettext_lazy("column", "Carried"),
    "cage": pgettext_lazy("column", "Cage"),
    "scope": pgettext_lazy("column", "Of"),
    "shift": pgettext_lazy("column", "Shift"),
    "status": pgettext_lazy("column", "Status"),
    "receipts": pgettext_lazy("column", "Receipts"),
    "payments": pgettext_lazy("column", "Payments"),
    "expected": pgettext_lazy("column", "Expected"),
    "counted": pgettext_lazy("column", "Counted"),
    "variance": pgettext_lazy("column", "Variance"),
    "movements": pgettext_lazy("column", "Movements (in, out)"),
    "pool": pgettext_lazy("column", "Pool"),
    "name": pgettext_lazy("column", "Name"),
    "meter": pgettext_lazy("column", "Meter"),
    "reserve": pgettext_lazy("column", "Reserve"),
    "hits": pgettext_lazy("column", "Hits"),
    "hits_amount": pgettext_lazy("column", "Hits' amount"),
    "paid": pgettext_lazy("column", "Paid"),
    "owed": pgettext_lazy("column", "Owed"),
    "table_revenue": pgettext_lazy("column", "Tables' revenue"),
    "table_variance": pgettext_lazy("column", "Tables' variance"),
    "jackpot_retained": pgettext_lazy("column", "Jackpot bets retained"),
    "jackpot_funding": pgettext_lazy("column", "Jackpot start values funded"),
    "gross_gaming_revenue": pgettext_lazy("column", "Gross gaming revenue"),
    "code": pgettext_lazy("column", "Code"),
    "rate_percent": pgettext_lazy("column", "Rate %"),
    "base": pgettext_lazy("column", "Base"),
    "amount": pgettext_lazy("column", "Amount"),
    "legal_source": pgettext_lazy("column", "Legal source"),
    "approval": pgettext_lazy("column", "Approval"),
    "kind": pgettext_lazy("column", "Kind"),
    "subject": pgettext_lazy("column", "Subject"),
    "reason": pgettext_lazy("column", "Reason"),
    "summary": pgettext_lazy("column", "Summary"),
    "requested_by": pgettext_lazy("column", "Asked by"),
    "approved_by": pgettext_lazy("column", "Approved by"),
    "approved_at": pgettext_lazy("column", "Approved at"),
    "corrects_day": pgettext_lazy("column", "Corrects the gaming day"),
    "session": pgettext_lazy("column", "Session"),
    "opened_at": pgettext_lazy("column", "Opened"),
    "closed_at": pgettext_lazy("column", "Closed"),
    "slip": pgettext_lazy("column", "Slip"),
    "win_change": pgettext_lazy("column", "Change of the win"),
    "gaming_tax_base": pgettext_lazy("column", "Gaming-tax base"),
    "taxes": pgettext_lazy("column", "Taxes"),
    "chips_in_circulation": pgettext_lazy("column", "Chips in circulation"),
    "jackpot_liability": pgettext_lazy("column", "Jackpot liability"),
    "machine_win": pgettext_lazy("column", "Machines' win by meters"),
    "machine": pgettext_lazy("column", "Machine"),
    "bank": pgettext_lazy("column", "Bank"),
    "coin_in": pgettext_lazy("column", "Coin in"),
    "coin_out": pgettext_lazy("column", "Coin out"),
    "jackpots": pgettext_lazy("column", "Jackpots paid by hand"),
    "games_played": pgettext_lazy("column", "Games played"),
    "certified_return": pgettext_lazy("column", "Certified return"),
    "actual_return": pgettext_lazy("column", "Actual return"),
    "flagged": pgettext_lazy("column", "Outside its band"),
    "rake": pgettext_lazy("column", "Rake and time charges"),
    "fees": pgettext_lazy("column", "Entry fees"),
    "commission": pgettext_lazy("column", "Commission"),
    "overlay": pgettext_lazy("column", "Overlay"),
    "revenue": pgettext_lazy("column", "Revenue"),
    "currency": pgettext_lazy("column", "Currency"),
    "rate": pgettext_lazy("column", "Sessions' rate"),
    "tables_win": pgettext_lazy("column", "Tables' win"),
    "tables_win_book": pgettext_lazy("column", "Tables' win, book currency"),
    "cage_holdings": pgettext_lazy("column", "Cage's holdings"),
    "cage_holdings_book": pgettext_lazy("column", "Cage's holdings, book currency"),
    "chips_in_hands": pgettext_lazy("column", "Chips in players' hands"),
    "chips_in_hands_book": pgettext_lazy("column", "Chips in players' hands, book currency"),
}

SCOPES: Mapping[str, Promise] = {
    "shift": pgettext_lazy("scope", "the shift"),
    "day": pgettext_lazy("scope", "the cage's day"),
    "total": pgettext_lazy("scope", "every cage"),
}

FIGURES: Mapping[str, Promise] = {
    "engine": _("the game engine"),
    "local": _("games/hold.py"),
    "engine+local": _("the game engine and games/hold.py"),
    "none": _("none"),
}

# Columns that the page leaves to the files: a code a program reads (the tax's, beside its name).
LEFT_OUT = {"tax": {"code"}}


def _kind(code: str) -> str:
    procedure = PROCEDURES.get(code)
    return gettext(procedure.kind.label) if procedure else label("slip", code)


def _reason(kind: str, code: str) -> str:
    procedure = PROCEDURES.get(kind)
    return gettext(procedure.kind.reason(code).label) if procedure else code


def _words(section: str, column: str) -> Callable[[str], str] | None:
    """How a cell of ``column`` is said, when it holds a code."""
    if column == "game":
        return lambda code: label("game", code)
    if column == "status":
        return lambda code: label("status", code)
    if column == "scope":
        return lambda code: str(SCOPES.get(code, code))
    if column == "cage":
        return lambda code: str(SCOPES["total"]) if code == "TOTAL" else code
    if column == "figures":
        return lambda code: str(FIGURES.get(code, code))
    if column == "kind":
        return _kind
    if section == "tax" and column in ("name", "legal_source"):
        return said
    return None


_DECIMAL = re.compile(r"-?\d+\.\d+")


def _figure(cell: str) -> str:
    """A decimal figure of the report ("1234.50", "12.3456") the page's way, with as many places
    as the report gives it ("1.234,50" in pt-PT); any other cell as it is."""
    if not isinstance(cell, str) or not _DECIMAL.fullmatch(cell):
        return cell
    places = len(cell.split(".")[1])
    return number_format(Decimal(cell), places, use_l10n=True, force_grouping=True)


def _time(at: dt.datetime | None, time_zone: str) -> str:
    return "" if at is None else date_format(localtime(at, ZoneInfo(time_zone)), "H:i")


def shown(report: CloseReport, time_zone: str = "UTC") -> Iterator[tuple[str, list[str], list[list[str]]]]:
    """(title, column labels, rows) of each section but the report's own line."""
    for name, title, header, rows in sections(report):
        if name == "report":
            continue
        left_out = {*LEFT_OUT.get(name, ()),
                    *(TRAYS_BY_SESSION.get(name, ()) if report.sessions else ())}
        kept = [i for i, column in enumerate(header) if column not in left_out]
        words = [_words(name, header[i]) for i in kept]
        out = []
        for number, row in enumerate(rows):
            cells = [say(row[i]) if say else _figure(row[i])
                     for i, say in zip(kept, words, strict=True)]
            if name == "cage":
                cells[-1] = "; ".join(
                    f"{label('event', m.kind)} +{m.received} −{m.paid}"
                    for m in report.cage[number].movements)
            if name == "session":
                line = report.sessions[number]
                cells[header.index("opened_at")] = _time(line.opened_at, time_zone)
                cells[header.index("closed_at")] = _time(line.closed_at, time_zone)
            if name == "exception":
                cells[header.index("reason")] = _reason(report.exceptions[number].kind,
                                                        row[header.index("reason")])
            out.append(cells)
        heading = str(TITLES.get(name, title))
        if name == "tax":
            heading = f"{heading} ({report.jurisdiction or '—'})"
        yield heading, [str(COLUMNS.get(header[i], header[i])) for i in kept], out
