"""The daily regulator file of one casino and gaming day: XML against ``reporting/xsd``.

What the day's close fixed (``GamingDayClosed``: the results by table, the jackpot meters read,
the totals) with the records behind it (the day's table sessions, rounds, fill and credit slips
and drop boxes, the jackpot hits) and the day's seal (``docs/regulator-file.md``). It is made
from a sealed day only, and after the seal nothing of the day changes, so the same day gives the
same bytes whenever it is asked for: the close's figures are read from its event, never worked
out again. Every file is validated against the schema before it is handed out (lxml: libxml2's
XML Schema 1.0 validator).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree

from casino.errors import NotFound, gettext_noop
from casino.models import Casino, GamingDaySeal
from casino.money import fmt
from eventstore import read_stream
from eventstore.hashing import format_time
from games.models import DropBox, Round, Slip, TableSession
from jackpots.models import JackpotPrize
from ledger.tax_rules import NON_BANKED_GAMES

from .machine_regulator_file import machines_element
from .models import SealedFile
from .regulator_file_areas import tips_and_exchange
from .regulator_xml import NAMESPACE
from .regulator_xml import element as _element

FILE_NAME = "regulator.xml"  # its name among the sealed day's files and in the day's archive

SCHEMA = Path(__file__).resolve().parent / "xsd" / "regulator-day-1.xsd"
NOT_CLOSED = gettext_noop("gaming day {day} of casino {casino} is not closed and sealed: its regulator file "
                          "is made by its close")


class RegulatorFileInvalid(Exception):
    """The file made does not validate against the schema (a defect: never handed out)."""


@cache
def schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMA)))


def validate(content: bytes) -> list[str]:
    """The schema's complaints about ``content`` (empty when it is valid)."""
    found = schema()
    document = etree.fromstring(content)
    if found.validate(document):
        return []
    return [f"line {e.line}: {e.message}" for e in found.error_log]


def filename(casino: str, gaming_day: dt.date) -> str:
    return f"{casino}-{gaming_day.isoformat()}-regulator.xml"


def _time(moment: dt.datetime | None) -> str:
    return format_time(moment) if moment is not None else ""


def _money(value: Any) -> str:
    return fmt(Decimal(str(value)))


def regulator_file(casino: str, gaming_day: dt.date) -> bytes:
    """The regulator file of ``casino``'s closed and sealed ``gaming_day`` (UTF-8 XML), as its
    close made it."""
    kept = SealedFile.objects.filter(casino_id=casino, gaming_day=gaming_day,
                                     name=FILE_NAME).values_list("content", flat=True).first()
    if kept is not None:
        return bytes(kept)
    return made_regulator_file(casino, gaming_day)


def regulator_file_keep(casino: str, gaming_day: dt.date, *, now: dt.datetime) -> bytes:
    """Make the sealed day's file and keep it (the close, in its unit of work, after the seal)."""
    content = made_regulator_file(casino, gaming_day)
    SealedFile.objects.create(casino_id=casino, gaming_day=gaming_day, name=FILE_NAME,
                              content=content, sha256=hashlib.sha256(content).hexdigest(),
                              made_at=now)
    return content


def made_regulator_file(casino: str, gaming_day: dt.date) -> bytes:
    """The file made from the close's event, the seal and the records as they stand now."""
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None:
        raise NotFound("there is no casino {casino!r}", params={"casino": casino}, field="casino")
    closed = read_stream(f"gaming_day/{casino}.{gaming_day.isoformat()}")
    seal = GamingDaySeal.objects.filter(casino_id=casino, gaming_day=gaming_day).first()
    if not closed or seal is None:
        raise NotFound(NOT_CLOSED, params=dict(day=gaming_day, casino=casino), field="gaming_day")
    close = closed[0].data
    root = etree.Element(f"{{{NAMESPACE}}}RegulatorDay", nsmap={None: NAMESPACE})
    root.set("casino", casino)
    root.set("gamingDay", gaming_day.isoformat())
    root.set("currency", the_casino.currency)

    sessions = _element(root, "Sessions")
    day_sessions = list(TableSession.objects.filter(casino_id=casino, gaming_day=gaming_day)
                        .order_by("table", "opened_at", "session_id"))
    for s in day_sessions:
        _element(sessions, "Session", id=s.session_id, table=s.table, game=s.game,
                 status=s.status, openedAt=_time(s.opened_at), closedAt=_time(s.closed_at),
                 rounds=s.rounds, roundsVoided=s.rounds_voided, opening=fmt(s.opening_amount),
                 fills=fmt(s.fills_amount), credits=fmt(s.credits_amount),
                 closing=fmt(s.closing_amount) if s.closing_amount is not None else None)
    session_ids = [s.session_id for s in day_sessions]

    rounds = _element(root, "Rounds")
    for r in (Round.objects.filter(casino_id=casino, session_id__in=session_ids)
              .order_by("table", "session_id", "number")
              .only("round_id", "session_id", "table", "game", "number", "status", "opened_at",
                    "corrections")):
        _element(rounds, "Round", id=r.round_id, session=r.session_id, table=r.table,
                 game=r.game, number=r.number, status=r.status, openedAt=_time(r.opened_at),
                 corrections=r.corrections)

    results = _element(root, "Results")
    for row in close.get("results", []):
        _element(results, "Result", table=row["table"], game=row["game"],
                 sessions=row["sessions"], rounds=row["rounds"], handle=_money(row["handle"]),
                 drop=_money(row["drop"]), win=_money(row["win"]),
                 # a table in another currency: its win as counted, beside the book value
                 currency=row.get("currency"),
                 winInCurrency=_money(row["win_in_currency"]) if "currency" in row else None)

    slips = _element(root, "Slips")
    for slip in Slip.objects.filter(casino_id=casino, session_id__in=session_ids).order_by(
            "kind", "number"):
        _element(slips, "Slip", kind=slip.kind, number=slip.number, session=slip.session_id,
                 table=slip.table, status=slip.status, amount=fmt(slip.amount),
                 requestedAt=_time(slip.requested_at))

    drop = _element(root, "Drop")
    for box in DropBox.objects.filter(casino_id=casino, gaming_day=gaming_day).order_by(
            "table", "session_id"):
        _element(drop, "DropBox", session=box.session_id, table=box.table, status=box.status,
                 counted=fmt(box.amount),
                 received=fmt(box.received_amount) if box.received_amount is not None else None,
                 countedAt=_time(box.counted_at))

    jackpots = _element(root, "Jackpots")
    for pool in close.get("jackpots", []):
        _element(jackpots, "Pool", id=pool["pool_id"], meter=_money(pool["meter"]),
                 reserve=_money(pool["reserve"]), unpaid=_money(pool["unpaid"]))
    start, end = the_casino.gaming_day_start(gaming_day), the_casino.gaming_day_end(gaming_day)
    for hit in JackpotPrize.objects.filter(casino_id=casino, hit_at__gte=start,
                                           hit_at__lt=end).order_by("position", "bet_id"):
        _element(jackpots, "Hit", pool=hit.pool_id, round=hit.round_id, table=hit.table,
                 combination=hit.combination, amount=fmt(hit.amount), hitAt=_time(hit.hit_at),
                 paid="true" if hit.paid else "false")

    tips_and_exchange(root, the_casino, gaming_day)  # issue 39: optional elements
    non_banked = [row for row in close.get("register", []) if row["game"] in NON_BANKED_GAMES]
    if non_banked:  # the poker room's commission, as the close's register fixed it
        section = _element(root, "NonBanked")
        for row in non_banked:
            _element(section, "Commission", subject=row["table"], game=row["game"],
                     amount=_money(row["commission"]))

    machines_element(root, the_casino, gaming_day)  # the slot floor (docs/machines.md)
    totals = close.get("totals", {})
    _element(root, "Totals", drop=_money(totals["drop"]), win=_money(totals["win"]),
             gamingTaxBase=_money(totals["gaming_tax_base"]),
             chipsInCirculation=_money(totals["chips_in_circulation"]),
             jackpotLiability=_money(totals["jackpot_liability"]))
    payload = seal.payload
    _element(root, "Seal", keyId=seal.key_id, firstSequence=payload.get("first_sequence", 0),
             lastSequence=payload.get("last_sequence", 0), firstPosition=seal.first_position,
             lastPosition=seal.last_position, prevHash=payload.get("prev_hash", "") or "-",
             lastHash=seal.last_hash, reportDigest=seal.report_digest, position=seal.position,
             signature=seal.signature)
    content: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                    pretty_print=True)
    problems = validate(content)
    if problems:
        raise RegulatorFileInvalid("; ".join(problems[:5]))
    return content

