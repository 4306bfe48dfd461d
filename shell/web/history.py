"""The history of any recorded thing: its events, who recorded each, in which role, when, and
what each carried, in words.

``/history/<casino>/<kind>/<id>/``: ``kind`` is the stream's type (a shift, a table session, a
round, a drop box, a cage, a table, a jackpot pool, a chip set, an approval, a seal), ``id`` its
id (for the kinds named within a casino, the code). The events are read through the upcasters
(the typed event, never the stored data). Each field shown is named by ``labels.FIELDS`` and
said by its type: an amount in the casino's currency (the ``money`` filter), pieces by
denomination ("2 × 25,00"), a date, yes or no, a code as its word; ``NOT_SHOWN`` says which
fields are left out and why (``tests/cage/test_history.py`` holds every field of every
labelled event type to one or the other). A shift counted blind keeps its figures from the
history as from its own screen: to a reader who may not see them (``cage.selectors.
expected_sight``), the events that carry its contents show none.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from cage import selectors as cage
from cage.models import CageKind
from cage.web.references import BASES
from casino.errors import NotFound
from casino.models import Casino, Role
from casino.selectors import roles_in
from edge.web.history_links import KINDS
from edge.web.labels import FIELDS, label
from edge.web.money import money_text
from eventstore import read_stream
from eventstore.events import Event
from eventstore.records import RecordedEvent
from games.roles import READ_ROLES as PIT_READERS

# Fields of the labelled events that a history leaves out, and why.
_ID = "an id: the thing it names has its own page"
NOT_SHOWN: dict[str, str] = {
    **dict.fromkeys((
        "adjustment_id", "approval_id", "bet_id", "count_id", "from_round_id", "from_shift_id",
        "to_shift_id", "payout_id", "prize_id", "receipt_id", "round_id", "session_id",
        "shift_id", "transaction_id", "transfer_id", "previous_session_id", "previous_shift_id",
        "drop_box", "hand_key", "corrects"), _ID),
    "patron_id": "the patron's id: who they are is the compliance officer's (docs/patrons.md)",
    # the poker room's figures: its own pages say them in words (/poker-room/<casino>/)
    **dict.fromkeys((
        "addon", "addon_fee", "approval_reference", "awards", "bank", "bank_after",
        "banker_cards", "banker_result", "banker_seat", "banker_total", "buy_in", "cashed_out",
        "charge", "collected", "commission", "commission_percent", "contributions", "coup",
        "entry", "entry_fee", "fee", "fees", "flop_dealt", "guarantee", "late",
        "late_registration_levels", "level_minutes", "max_buy_in", "min_buy_in", "minimum_pot",
        "minutes", "no_flop_no_drop", "overlay", "patron", "payout_percents", "period_minutes",
        "place", "pool", "pot", "punter_cards", "punter_option", "punter_total", "rake",
        "rake_cap", "rake_percent", "rebuy", "rebuy_fee", "recorded", "results", "seated",
        "ticket", "time_rate", "top_up", "tournament", "where"),
        "the poker room's figure: its table's or tournament's page says it in words"),
    "casino": "the page's casino",
    **dict.fromkeys(("bet", "base", "options", "pending", "stakes", "carried_back", "details",
                     "seats", "previous_outcome"),
                    "a structure the round's or the approval's own screen says in words"),
    **dict.fromkeys(("auto_roll", "drop_basis", "drop_definition_version"),
                    "the table's configuration, as the session copied it"),
}

# Events whose fields are a shift's contents: kept from a reader counting blind.
_CONTENTS = frozenset({"ShiftOpened", "ShiftOpeningDisputed", "ShiftOpeningDisputeResolved",
                       "ShiftCounted", "CageCashFellBelowMinimum", "CageCashRestoredAboveMinimum",
                       "VarianceExplained", "VarianceApproved", "VarianceRefused",
                       "ShiftClosed"})


@dataclass(frozen=True)
class Detail:
    """One field of an event: its name, and either an amount (drawn with ``money``) or words."""

    name: str
    text: str = ""
    amount: Decimal | None = None


@dataclass(frozen=True)
class Line:
    version: int
    what: str
    who: str
    role: str
    when: Any
    details: list[Detail] = dataclasses.field(default_factory=list)
    hidden: bool = False  # the shift is counted blind: its contents are not for this reader


# the streams of the pit: a table, its sessions and their rounds
PIT_KINDS = frozenset({"table_session", "round", "table"})

def _pieces(counts: dict[Any, Any]) -> str:
    """``{"25.00": 2, "5.00": 4}`` as "2 × 25,00 · 4 × 5,00", the largest first."""
    ordered = sorted(counts.items(), key=lambda item: -Decimal(str(item[0])))
    return " · ".join(f"{n} × {money_text(Decimal(str(d)))}" for d, n in ordered if n)


def _words(field: str, value: Any) -> Detail | None:
    name = str(FIELDS[field])
    if value is None or value == "" or value == {} or value == ():
        return None
    if isinstance(value, bool):
        return Detail(name, pgettext("answer", "yes") if value else pgettext("answer", "no"))
    if isinstance(value, Decimal):
        return Detail(name, amount=value)
    if isinstance(value, dt.date):
        return Detail(name, formats.date_format(value, "Y-m-d"))
    if isinstance(value, dict):
        text = _mapping(value)
        return Detail(name, text) if text else None
    if isinstance(value, list | tuple):
        return Detail(name, " ".join(str(v) for v in value))
    return Detail(name, _code(field, str(value)))


def _is_counts(value: dict[Any, Any]) -> bool:
    """Pieces by denomination (``{"25.00": 2}``)?"""
    try:
        return all(isinstance(n, int) and Decimal(str(d)) > 0 for d, n in value.items())
    except ArithmeticError:
        return False


def _mapping(value: dict[Any, Any]) -> str:
    if value and all(isinstance(v, dict) and _is_counts(v) for v in value.values()):
        return " · ".join(f"{code}: {_pieces(counts)}" for code, counts in value.items()
                          if any(counts.values()))  # chips by chip set
    if _is_counts(value):
        return _pieces(value)
    # an outcome as the game records it ({"number": 17}): each part named where a word is known
    return " · ".join(f"{label('field', k)} {v}" for k, v in value.items())


def _code(field: str, value: str) -> str:
    """A stored code of ``field`` as its word (the code itself when none is known)."""
    if field == "game":
        return label("game", value)
    if field == "outcome":
        return label("outcome", value)
    if field == "status":
        return label("status", value)
    if field == "payment":
        return label("payment", value)
    if field == "direction":
        return pgettext("adjustment direction", value)
    if field == "basis":

        return str(BASES.get(value, value))
    if field == "kind":
        if value in ("fill", "credit"):
            return label("slip", value)

        return _(str(CageKind(value).label)) if value in CageKind.values else value
    return value


def event_details(event: Event) -> list[Detail]:
    """The fields of ``event`` a person reads, in the event's order, each in words."""
    found = (_words(f.name, getattr(event, f.name)) for f in dataclasses.fields(event)
             if f.name in FIELDS)
    return [d for d in found if d is not None]


def _blind(kind: str, ident: str, casino: str, request: HttpRequest, held: set[str]) -> bool:
    """Whether this reader may not see the shift's contents (its count is blind to them)."""
    if kind != "shift":
        return False

    try:
        shift = cage.shift_get(casino=casino, shift_id=ident)
    except NotFound:
        return False
    supervisor = bool(held & {Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.REGULATOR,
                              Role.ADMINISTRATOR}) or bool(getattr(request.user,
                                                                   "is_superuser", False))
    return cage.expected_sight(shift, viewer=request.user.get_username(),
                               supervisor=supervisor) == cage.SIGHT_NONE


def _line(e: RecordedEvent, blind: bool) -> Line:
    hidden = blind and e.event_type in _CONTENTS
    return Line(version=e.version, what=label("event", e.event_type),
                who=str((e.metadata or {}).get("actor", "")),
                role=label("role", (e.metadata or {}).get("role", "")),
                when=e.recorded_at, details=[] if hidden else event_details(e.event),
                hidden=hidden)


@login_required
def history(request: HttpRequest, casino: str, kind: str, ident: str) -> HttpResponse:
    the_casino = Casino.objects.filter(code=casino).first()
    if the_casino is None or kind not in KINDS:
        raise Http404(_("there is no such thing to show the history of"))
    held = roles_in(request.user, casino)
    superuser = bool(getattr(request.user, "is_superuser", False))
    if not held and not superuser:
        raise PermissionDenied(_("you hold no role in this casino"))
    if kind in PIT_KINDS and not superuser and not held & set(PIT_READERS):
        # the pit's data is the pit's readers' (issue 35: cashiers and compliance officers
        # read it here before)
        raise PermissionDenied(_("the pit's history is for the pit boss, the accountant, the "
                                 "administrator and the regulator"))
    stream = f"{kind}/{casino}.{ident}" if KINDS[kind] else f"{kind}/{ident}"
    events = [e for e in read_stream(stream)
              if (e.metadata or {}).get("casino", casino) == casino]
    if not events:
        raise Http404(_("nothing is recorded under this reference"))
    blind = _blind(kind, ident, casino, request, held)
    lines = [_line(e, blind) for e in events]
    return render(request, "casino/history.html", {
        "casino": the_casino, "kind": kind, "ident": ident, "lines": lines})
