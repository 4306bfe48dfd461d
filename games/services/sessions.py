"""Table sessions (partidas): open with a float, fills and credits on slips, drop, colour chips,
close with the closing count and the drop count.

A fill counts in the table's float when the cage issues it (``FillIssued``, the cage's event);
a credit counts when the pit requests it, since the chips leave the table then. See
``docs/tables.md``.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from decimal import Decimal

from casino.errors import Conflict, InvalidCommand, NotFound, gettext_noop, status_words
from casino.models import Casino
from casino.money import check_amount, parse_amount, parse_pieces
from casino.selectors import carried_to
from compliance.services.screening import alerts_raise, movement_check
from compliance.thresholds import BUY_IN
from eventstore import clock, store
from eventstore.commands import in_command
from eventstore.records import Metadata
from games.answers import (
    ColourChipsExchangeAnswer,
    ColourChipsIssueAnswer,
    DropRecordAnswer,
    SessionCloseAnswer,
    SessionOpenAnswer,
    SlipRequestAnswer,
    SlipVoidAnswer,
)
from games.events import (
    ColourChipsExchanged,
    ColourChipsIssued,
    CreditRequested,
    DropRecorded,
    FillRequested,
    SlipVoided,
    TableSessionClosed,
    TableSessionOpened,
)
from games.models import SessionStatus, Slip, SlipKind, SlipStatus, Table, TableSession
from games.players import player_checked

from ._common import (
    casino_get,
    check_casino,
    chips,
    chips_add,
    command,
    session_get,
    table_get,
)
from .table_currency import session_rate
from .tables import drop_definition_current

_SLIP = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,31}$")
ROULETTES = ("american_roulette", "french_roulette")


@command("table_session_open")
def table_session_open(
    *,
    casino: str,
    table: str,
    opening: dict[str, int] | None = None,
    metadata: Metadata,
    session_id: str | None = None,
    rate: object = None,
) -> SessionOpenAnswer:
    """Open a session of ``table`` with its float counted by denomination.

    Without ``opening`` the float is the previous session's closing count (auto-roll). With it,
    any difference from that count is recorded in the event (``roll_difference``). A table in a
    foreign currency opens at the exchange's middle rate in force, or at ``rate`` when one is
    given: within the currency's band from the last posted rate, beyond it only by the
    approval kind ``session_rate`` (a second person; ``table_currency.session_rate``).
    """
    check_casino(metadata, casino)
    return open_session(casino=casino, table=table, opening=opening, metadata=metadata,
                        session_id=session_id, rate=rate)


def open_session(*, casino: str, table: str, opening: dict[str, int] | None,
                 metadata: Metadata, session_id: str | None = None, rate: object = None,
                 rate_approval_id: str = "") -> SessionOpenAnswer:
    """``table_session_open``'s work, inside a command (its own, or the grant of a
    ``session_rate`` approval: ``rate_approval_id``, the rate beyond the band approved)."""
    the_casino = casino_get(casino)
    the_table = table_get(casino, table, lock=True)

    if the_table.open_session_id is not None:
        raise Conflict("table {table} already has an open session", params={"table": table},
                       code="session_open", session=str(the_table.open_session_id))
    previous = the_table.last_closing
    if opening is None:
        if previous is None:
            raise InvalidCommand("this table has never closed: count the opening float",
                                 field="opening")
        counted, amount = chips(the_table, previous, field="opening", allow_empty=True)
    else:
        counted, amount = chips(the_table, opening, field="opening", allow_empty=True)
    difference = chips_add(counted, previous or {}, -1) if previous is not None else {}
    currency, the_rate = session_rate(the_table, the_casino, rate,
                                      approved=bool(rate_approval_id))
    new_id = session_id or str(uuid.uuid4())
    event = TableSessionOpened(
        session_id=new_id, casino=casino, table=table, game=the_table.game,
        gaming_day=the_casino.gaming_day(clock.now()), opening=counted,
        opening_amount=amount,
        previous_session_id=(str(the_table.last_session_id)
                             if the_table.last_session_id else None),
        previous_closing=previous, roll_difference=difference, auto_roll=opening is None,
        currency=currency, rate=the_rate, rate_approval_id=rate_approval_id,
    )
    store.append(f"table_session/{new_id}", [event], expected_version=0, metadata=metadata)
    return SessionOpenAnswer(session_id=new_id, table=table, opening_amount=str(amount),
                             roll_difference=difference)


def _slip_number(slip: str) -> str:
    if not isinstance(slip, str) or not _SLIP.match(slip):
        raise InvalidCommand("slip number {slip!r} must be letters, digits and dashes",
                             params={"slip": slip},
                             field="slip")
    return slip


# Messages tests and screens rely on.
SLIP_AFTER_CLOSE = gettext_noop("the session of table {table} is closed: a {kind} slip added now moves its "
                                "figures and needs a cage supervisor's approval (ask for it on the session's "
                                "page, with a reason from the list)")


def slip_request_checked(session: TableSession, kind: str, slip: str,
                         chip_counts: dict[str, int]) -> tuple[str, Table, dict[str, int],
                                                              Decimal]:
    """The slip's number, the table, the chips and their value, checked (the number unused)."""
    number = _slip_number(slip)
    table = table_get(session.casino_id, session.table)
    counted, amount = chips(table, chip_counts, field="chips")
    if Slip.objects.filter(casino_id=session.casino_id, kind=kind, number=number).exists():
        raise Conflict("{kind} slip number {number} is already used (slips are pre-numbered "
                       "and each number is used once, voided or not)",
                       params={"kind": status_words(kind, "slip kind"), "number": number},
                       code="duplicate_slip", slip=number)
    return number, table, counted, amount


def _slip_request(kind: str, session_id: str, slip: str, chip_counts: dict[str, int],
                  metadata: Metadata) -> SlipRequestAnswer:
    session = session_get(session_id, lock=True, open_only=False)
    check_casino(metadata, session.casino_id)

    number, table, counted, amount = slip_request_checked(session, kind, slip, chip_counts)
    if session.status != SessionStatus.OPEN:
        raise Conflict(SLIP_AFTER_CLOSE, params=dict(table=session.table,
                                                     kind=status_words(kind, "slip kind")),
                       code="approval_required", kind="late_slip", slip=number)
    return record_slip(session, table, kind, number, counted, amount, metadata)


def _carried(session: TableSession) -> dt.date | None:
    """The open day a late change to closed ``session`` is carried to, if its day is sealed."""
    return carried_to(casino=session.casino_id, gaming_day=session.gaming_day)


@in_command
def record_slip(session: TableSession, table: Table, kind: str, number: str,
                counted: dict[str, int], amount: Decimal, metadata: Metadata, *,
                approval_id: str | None = None) -> SlipRequestAnswer:
    """Record fill or credit slip ``number`` on ``session`` (locked); on a closed session (a late
    slip, approved) the event says so, with the session's gaming day."""
    closed = session.status != SessionStatus.OPEN
    cls = FillRequested if kind == SlipKind.FILL else CreditRequested
    store.append(session.stream,
                 [cls(session_id=str(session.session_id), table=session.table, slip=number,
                      chips=counted, amount=amount, chip_set=table.chip_set,
                      approval_id=approval_id, after_close=closed,
                      gaming_day=session.gaming_day if closed else None,
                      booked_day=_carried(session) if closed else None)],
                 expected_version=session.version, metadata=metadata)
    return SlipRequestAnswer(session_id=str(session.session_id), kind=kind, slip=number,
                             amount=str(amount))


@command("fill_request")
def fill_request(*, session_id: str, slip: str, chips: dict[str, int], metadata: Metadata
                 ) -> SlipRequestAnswer:
    """Ask the cage for chips (reforço) on fill slip ``slip``; the cage issues it."""
    return _slip_request(SlipKind.FILL, session_id, slip, chips, metadata)


@command("credit_request")
def credit_request(*, session_id: str, slip: str, chips: dict[str, int], metadata: Metadata
                   ) -> SlipRequestAnswer:
    """Send chips to the cage (crédito) on credit slip ``slip``; they leave the float now."""
    return _slip_request(SlipKind.CREDIT, session_id, slip, chips, metadata)


# Messages tests and screens rely on.
SLIP_VOID_NEEDS_APPROVAL = gettext_noop("the session of table {table} is closed: voiding {kind} slip {slip} "
                                        "now moves the session's win and needs another person's approval "
                                        "(ask for it on the session's page, with a reason from the list)")


def slip_voidable(casino: str, kind: str, slip: str) -> Slip:
    """The slip ``kind`` ``slip`` of ``casino``, which the cage has not acted on."""
    if kind not in SlipKind.values:
        raise InvalidCommand("a slip is a fill or a credit, not {kind!r}",
                             params={"kind": kind}, field="kind")
    found = Slip.objects.filter(casino_id=casino, kind=kind, number=slip).first()
    if found is None:
        raise NotFound("there is no {kind} slip {slip} in {casino}",
                       params={"kind": status_words(kind, "slip kind"), "slip": slip,
                               "casino": casino}, slip=slip, field="slip")
    if found.status not in (SlipStatus.REQUESTED, SlipStatus.REFUSED):
        raise Conflict("{kind} slip {slip} is {status}: only a slip the cage has not acted "
                       "on (or refused) can be voided",
                       params={"kind": status_words(kind, "slip kind"), "slip": slip,
                               "status": status_words(found.status, "slip status")},
                       code="slip_not_voidable", slip=slip)
    return found


@command("slip_void")
def slip_void(*, casino: str, kind: str, slip: str, reason: str, metadata: Metadata) -> SlipVoidAnswer:
    """Void a slip the cage has not acted on. The number stays used (never missing).

    On a closed session the void moves the session's figures after the close: it is then only a
    request (``approval_request``, kind ``slip_void``: ``games.services.approvals``), applied
    when another person approves it."""
    check_casino(metadata, casino)
    if kind not in SlipKind.values:
        raise InvalidCommand("a slip is a fill or a credit, not {kind!r}",
                             params={"kind": kind}, field="kind")
    if not reason.strip():
        raise InvalidCommand("say why the slip is voided", field="reason")
    found = slip_voidable(casino, kind, slip)
    session = session_get(str(found.session_id), lock=True, open_only=False)

    if session.status != SessionStatus.OPEN:
        raise Conflict(SLIP_VOID_NEEDS_APPROVAL, params=dict(table=session.table,
                                                             kind=status_words(kind, "slip kind"),
                                                       slip=slip),
                       code="approval_required", kind="slip_void", slip=slip)
    return void_slip(session, found, reason=reason.strip(), metadata=metadata)


@in_command
def void_slip(session: TableSession, found: Slip, *, reason: str, metadata: Metadata,
              reason_code: str = "", approval_id: str | None = None) -> SlipVoidAnswer:
    """Record the void of slip ``found`` of ``session`` (locked); on a closed session the event
    says so, with the session's gaming day (the day whose figures move)."""
    closed = session.status != SessionStatus.OPEN
    store.append(session.stream,
                 [SlipVoided(session_id=str(session.session_id), table=session.table,
                             kind=found.kind, slip=found.number, reason=reason,
                             chips=found.chips, amount=found.amount, approval_id=approval_id,
                             reason_code=reason_code, after_close=closed,
                             gaming_day=session.gaming_day if closed else None,
                             booked_day=_carried(session) if closed else None)],
                 expected_version=session.version, metadata=metadata)
    return SlipVoidAnswer(kind=found.kind, slip=found.number, status=SlipStatus.VOIDED.value)


@command("drop_record")
def drop_record(*, session_id: str, amount: object, seat: int | None = None, player: str = "",
                patron: object = None, metadata: Metadata) -> DropRecordAnswer:
    """Cash exchanged for chips at the table, pushed into the drop box. ``patron``: the
    identified patron, required at the anti-money-laundering threshold (a buy-in, summed with
    the patron's other movements of the day: ``docs/patrons.md``)."""

    session = session_get(session_id, lock=True)
    check_casino(metadata, session.casino_id)
    value = parse_amount(amount)
    casino = Casino.objects.get(code=session.casino_id)
    checked = movement_check(casino=casino, patron=patron, gaming_day=session.gaming_day,
                             kind=BUY_IN, amount=value, cash=value,
                             where=f"table {session.table}", mark=player,
                             currency=session.currency, rate=session.rate)

    store.append(session.stream,
                 [DropRecorded(session_id=str(session.session_id), table=session.table,
                               amount=value, seat=seat, player=player_checked(player),
                               patron_id=checked.patron_id)],
                 expected_version=session.version, metadata=metadata)
    alerts_raise(checked, event_type="DropRecorded", reference=str(session.session_id),
                 where=f"table {session.table}", metadata=metadata)
    return DropRecordAnswer(session_id=str(session.session_id), amount=str(value),
                            patron_id=checked.patron_id or None)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _straight_limits(session_table: object) -> tuple[Decimal, Decimal]:
    limits = getattr(session_table, "limits", {})
    straight = limits["straight"]
    return Decimal(straight["min"]), Decimal(straight["max"])


@command("colour_chips_issue")
def colour_chips_issue(*, session_id: str, colour: str, player: str, chip_value: object,
                       chips: int, paid_with: str = "chips", patron: object = None,
                       metadata: Metadata) -> ColourChipsIssueAnswer:
    """Roulette: give a player chips of a free colour, valued by the player (n.os 8, 9, 13).
    Paid in cash, a buy-in: ``patron`` as in ``drop_record``."""
    player = player_checked(player)  # a label, never a name (casino.players)
    session = session_get(session_id, lock=True)
    check_casino(metadata, session.casino_id)
    if session.game not in ROULETTES:
        raise InvalidCommand("colour chips are a roulette thing (fichas sem valor facial)")
    table = table_get(session.casino_id, session.table)
    value = parse_amount(chip_value, field="chip_value")
    low, high = _straight_limits(table)
    if value < low:
        raise InvalidCommand("a colour chip is worth at least the table minimum {low}",
                             params={"low": low},
                             field="chip_value", article="Portaria 217/2007, roleta, n.º 9")
    if value > high:
        raise InvalidCommand(
            "a colour chip may not be worth more than the straight-up maximum {high}",
            params={"high": high},
            field="chip_value", article="Portaria 217/2007, roleta, n.º 9")
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise InvalidCommand("give one colour chip or more", field="chips")
    # as many as the pieces columns hold, worth no more than the money columns do
    check_amount(value * parse_pieces(chips, field="chips", what="colour chips"), field="chips")
    if paid_with not in ("chips", "cash"):
        raise InvalidCommand("colour chips are paid with value chips or cash", field="paid_with")
    if not colour.strip() or not player.strip():
        raise InvalidCommand("name the colour and the player", field="colour")
    held = session.colour_chips.get(colour)
    if held and held["player"] != player:
        raise Conflict("colour {colour} is taken by {player} (one colour per player, "
                       "n.º 8)",
                       params={"colour": colour, "player": held['player']}, code="colour_taken")
    if held and Decimal(held["value"]) != value:
        raise Conflict("colour {colour} is marked at {value} on the mostrador; "
                       "exchange the chips before changing its value",
                       params={"colour": colour, "value": held['value']}, code="colour_value")
    for other, state in session.colour_chips.items():
        if other != colour and state["player"] == player:
            raise Conflict("{player} already plays colour {other} (one colour per player, n.º 8)",
                           params={"player": player, "other": other},
                           code="colour_taken")
    amount = value * chips
    events: list[ColourChipsIssued | DropRecorded] = [
        ColourChipsIssued(session_id=str(session.session_id), table=session.table, colour=colour,
                          player=player, chip_value=value, chips=chips, amount=amount,
                          paid_with=paid_with)]
    checked = None
    if paid_with == "cash":

        checked = movement_check(casino=Casino.objects.get(code=session.casino_id),
                                 patron=patron, gaming_day=session.gaming_day, kind=BUY_IN,
                                 amount=amount, cash=amount, where=f"table {session.table}",
                                 currency=session.currency, rate=session.rate)
        events.append(DropRecorded(session_id=str(session.session_id), table=session.table,
                                   amount=amount, player=player, patron_id=checked.patron_id))

    store.append(session.stream, events, expected_version=session.version, metadata=metadata)
    if checked is not None:
        alerts_raise(checked, event_type="DropRecorded", reference=str(session.session_id),
                     where=f"table {session.table}", metadata=metadata)
    return ColourChipsIssueAnswer(colour=colour, player=player, chips=chips, amount=str(amount))


@command("colour_chips_exchange")
def colour_chips_exchange(*, session_id: str, colour: str, chips: int, late: bool = False,
                          metadata: Metadata) -> ColourChipsExchangeAnswer:
    """Colour chips back for value chips (n.º 15); late ones are worth the table minimum."""
    session = session_get(session_id, lock=True)
    check_casino(metadata, session.casino_id)
    held = session.colour_chips.get(colour)
    if not held:
        raise Conflict("no chips of colour {colour} are out at this table",
                       params={"colour": colour}, code="colour_free")
    if isinstance(chips, bool) or not isinstance(chips, int) or not 1 <= chips <= held["chips"]:
        raise InvalidCommand("{chips} chips of colour {colour} are out; exchange 1 to "
                             "{chips}",
                             params={"chips": held['chips'], "colour": colour}, field="chips")
    table = table_get(session.casino_id, session.table)
    value = _straight_limits(table)[0] if late else Decimal(held["value"])
    amount = value * chips

    store.append(session.stream,
                 [ColourChipsExchanged(session_id=str(session.session_id),
                                       table=session.table, colour=colour, chips=chips,
                                       chip_value=value, amount=amount, late=late)],
                 expected_version=session.version, metadata=metadata)
    return ColourChipsExchangeAnswer(colour=colour, chips=chips, amount=str(amount), late=late)


@command("table_session_close")
def table_session_close(*, session_id: str, closing: dict[str, int], metadata: Metadata
                        ) -> SessionCloseAnswer:
    """Close the session with the closing count by denomination. The drop box goes to the count
    room, where two counters count it (``count_room.drop_box_count``): the session's drop, win
    and hold follow from that count (with the ``counted`` drop definition, they wait for it)."""
    session = session_get(session_id, lock=True)
    check_casino(metadata, session.casino_id)
    table = table_get(session.casino_id, session.table, lock=True)
    counted, amount = chips(table, closing, field="closing", allow_empty=True)

    if session.current_round_id is not None:
        raise Conflict("a round is in progress: settle or void it before closing",
                       code="round_in_progress", round=str(session.current_round_id))
    if session.game == "craps" and session.pending_bets:
        raise Conflict("{n_pending_bets} craps bets are still working: play on "
                       "until they are decided",
                       params={"n_pending_bets": len(session.pending_bets)}, code="bets_working")
    if session.colour_chips:
        raise Conflict("colour chips are still out ({colours}): exchange them first (n.º 15)",
                       params={"colours": ", ".join(sorted(session.colour_chips))},
                       code="colour_chips_out")
    basis, version = drop_definition_current(session.casino_id)
    store.append(session.stream, [
        TableSessionClosed(session_id=str(session.session_id), table=session.table,
                           closing=counted, closing_amount=amount, drop_basis=basis,
                           drop_definition_version=version),
    ], expected_version=session.version, metadata=metadata)
    session.refresh_from_db()
    return SessionCloseAnswer(
        session_id=str(session.session_id), closing_amount=str(amount),
        drop=_text(session.drop), table_win=_text(session.table_win),
        round_result=str(session.round_result), drop_box="to be counted in the count room",
        # a variance of any size waits for a second person (docs/approvals.md)
        variance=_text(session.variance),
        variance_state="awaiting_approval" if session.variance else "none")
