"""The pit's screens (server-rendered, thin): tables, a table with the form that opens a session,
a session with its slips, drop, rounds, result and hold check, a round with its bets, outcome and
settlements, and the gaming day by table and by game.

Reading is for the pit boss, the accountant, the regulator and the administrator; recording is
for the pit boss (as the pit API: ``games.api.views.COMMAND_ROLES``). Each form calls one service
(``games.services``) and only parses its fields (``games.web.forms``): the services and the rules
engine decide, and a refusal is shown beside the form, with what was typed, nothing recorded.
A success redirects (POST-redirect-GET). Every form carries an idempotency key drawn when the
page was rendered, so a double submit records once.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.errors import DomainError, NotFound
from casino.models import Approval, ApprovalStatus, Casino, ChipSet
from casino.selectors import approval_list, casino_codes_for, roles_in
from casino.services.approvals import approval_request
from edge.web.acting import command_metadata
from edge.web.progress import answer_text
from eventstore.records import Metadata
from games import engine, selectors, services
from games.engine.errors import RoundError
from games.models import (
    Bet,
    DropBox,
    Round,
    RoundStatus,
    SessionStatus,
    Slip,
    SlipStatus,
    Table,
    TableSession,
)
from games.roles import COMMAND_ROLES, READ_ROLES
from games.services.approvals import (
    LATE_SLIP,
    ROUND_CORRECTION,
    ROUND_VOID,
    SESSION_RATE,
    SLIP_VOID,
    TABLE_VARIANCE,
)

from . import forms, hands, labels
from .errors import refusal_text

REFUSALS = (DomainError,)  # the store's and the commands' refusals are DomainErrors too

Done = tuple[str, str]  # the message to show, where to go next


# --- who is acting ------------------------------------------------------------------------------



# a slip the cage has not acted on, or refused: the pit voids it
VOIDABLE = (SlipStatus.REQUESTED, SlipStatus.REFUSED)

def _casinos(request: HttpRequest) -> list[str]:
    return casino_codes_for(request.user, *READ_ROLES)


def _may_read(request: HttpRequest, casino: str) -> None:
    if casino not in _casinos(request):
        raise PermissionDenied


def _may_act(request: HttpRequest, casino: str) -> bool:
    """As ``edge.api.base.acting_role``: the pit boss role, held in that casino."""
    return bool(roles_in(request.user, casino) & set(COMMAND_ROLES))



def _found(read: Callable[[], Any]) -> Any:
    try:
        return read()
    except NotFound as error:
        raise Http404(error.message) from None


def money(value: object) -> str:
    """An amount from a service's answer, written the way the page's language writes it."""
    try:
        return number_format(Decimal(str(value)), 2)
    except ArithmeticError:
        return str(value)


def _key() -> str:
    return uuid.uuid4().hex


def _pending(casino: str, kind: str, subjects: Sequence[str]) -> dict[str, Approval]:
    """The requests of ``kind`` awaiting a decision, by subject."""
    return {a.subject: a for a in approval_list(casino=casino, status=ApprovalStatus.REQUESTED,
                                                kind=kind).filter(subject__in=list(subjects))}


def _ask(p: Mapping[str, Any], metadata: Metadata, kind: str, subject: str, here: str) -> Done:
    """Ask for an approval of ``kind`` for ``subject`` with the posted reason and words; the
    second person decides on the Approvals page."""
    approval_request(kind=kind, subject=subject, reason=p.get("reason", ""),
                     explanation=p.get("explanation", ""), metadata=metadata)
    return (_("Asked for approval: nothing moves until another person approves it on the "
              "Approvals page."), here)


def _act(request: HttpRequest, casino: str, actions: Mapping[str, Callable[[Metadata], Done]],
         failed: Callable[[str, str], HttpResponse]) -> HttpResponse:
    """Run the posted action; a refusal re-renders the page with the form as it was typed."""
    action = request.POST.get("action", "")
    form = request.POST.get("form", "")
    where = f"{action}:{form}" if form else action
    handler = actions.get(action)
    if handler is None:
        return failed(where, _("This form is not one of this page's: reload the page."))
    metadata = command_metadata(
        request, casino, COMMAND_ROLES,
        refusal=_("Recording at the pit needs the pit boss role in this casino."))
    try:
        done, url = handler(metadata)
    except REFUSALS as error:
        return failed(where, refusal_text(error))
    messages.success(request, done)
    return redirect(url)


def _typed_rate(value: str) -> str | None:
    """A rate as typed (``1,06`` or ``1.06``: a rate has no thousands to group), or None."""
    text = value.strip()
    return (text.replace(",", ".") if "." not in text else text) or None


# --- what the pages show ------------------------------------------------------------------------


def _denominations(table: Table) -> list[str]:
    chip_set = ChipSet.objects.filter(casino_id=table.casino_id, code=table.chip_set).first()
    return list(chip_set.denominations) if chip_set else []


def _grid(prefix: str, denominations: Sequence[str], values: Mapping[str, Any]
          ) -> list[tuple[str, str, str]]:
    """(denomination, field name, value) per denomination of the table's chip set."""
    out = []
    for denomination in denominations:
        name = f"{prefix}-{denomination}"
        value = values.get(name, values.get(denomination, ""))
        out.append((denomination, name, "" if value in (None, 0) else str(value)))
    return out


def _chips_text(chips: Mapping[str, int] | None) -> str:
    if not chips:
        return "—"
    return " · ".join(f"{n} × {d}" for d, n in sorted(
        chips.items(), key=lambda kv: Decimal(kv[0]), reverse=True) if n)


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return " ".join(_value_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value_text(v)}" for k, v in value.items())
    return "—" if value is None else str(value)


def _normalised(game: str, options: Mapping[str, Any], outcome: Mapping[str, Any]
                ) -> Mapping[str, Any]:
    """The outcome with what the rules engine derives from it (the colour, the total, the
    point after), as ``settle`` reports it; the stored one where the engine says no."""
    rules = engine.GAMES.get(game)
    if rules is None:
        return outcome
    try:
        return rules.check_outcome(rules.check_options(dict(options)), dict(outcome))
    except RoundError:
        return outcome


def outcome_text(game: str, outcome: Mapping[str, Any] | None,
                 options: Mapping[str, Any] | None = None) -> str:
    """The outcome as a pit boss says it: 17 (red); dice 3 5, total 8; player 9S 5D …"""
    if not outcome:
        return "—"
    outcome = _normalised(game, options or {}, outcome)
    if "number" in outcome and "color" in outcome:
        return f"{outcome['number']} ({labels.label(labels.COLOURS, outcome['color'])})"
    if "dice" in outcome:
        text = _("dice %(dice)s, total %(total)s") % {
            "dice": " ".join(str(d) for d in outcome["dice"]),
            "total": outcome.get("total", sum(outcome["dice"]))}
        if game == "craps":
            text += " · " + _("point before %(before)s, after %(after)s") % {
                "before": outcome.get("point") or "—", "after": outcome.get("point_after") or "—"}
        return text
    cards = _cards_outcome_text(outcome)
    return cards if cards else _value_text(dict(outcome))


def _hand_text(hand: Mapping[str, Any]) -> str:
    text = " ".join(hand.get("cards", []))
    flags = [str(word) for key, word in (("double", _("doubled")), ("surrender", _("surrendered")))
             if hand.get(key)]
    if hand.get("decision") in hands.DECISIONS:
        flags.append(str(hands.DECISIONS[hand["decision"]]).lower())
    return f"{text} ({', '.join(flags)})" if flags else text


def _cards_outcome_text(outcome: Mapping[str, Any]) -> str:
    """A card game's outcome in words: whose cards, hand by hand (never the data's keys)."""
    parts = []
    if isinstance(outcome.get("player"), list) and isinstance(outcome.get("banker"), list):
        parts += [_("Player %(cards)s") % {"cards": " ".join(outcome["player"])},
                  _("Banker %(cards)s") % {"cards": " ".join(outcome["banker"])}]
    dealer = outcome.get("dealer")
    if isinstance(dealer, dict) and isinstance(dealer.get("cards"), list):
        parts.append(_("Bank %(cards)s") % {"cards": " ".join(dealer["cards"])})
    for seat in outcome.get("seats") or outcome.get("hands") or []:
        if not isinstance(seat, dict):
            return ""
        played = seat.get("hands")
        text = (" / ".join(_hand_text(h) for h in played) if isinstance(played, list)
                else _hand_text(seat))
        parts.append(_("seat %(seat)s: %(hand)s") % {"seat": seat.get("seat"), "hand": text})
    return " · ".join(parts)


def _bet_details(game: str, bet: Mapping[str, Any]) -> str:
    names = {f.name: f.label for form in forms.bet_forms(game) for f in form.fields}
    parts = []
    for key, value in bet.items():
        if key in ("id", "type", "amount", "seat"):
            continue
        if key == "numbers":
            parts.append(", ".join(str(v) for v in value))
        elif key == "bet":
            parts.append(_("on %(bet)s") % {"bet": value})
        elif key == "hand":
            parts.append(_("hand %(n)s") % {"n": value})
        else:
            parts.append(f"{names.get(key, key)} {_value_text(value)}")
    return " · ".join(parts)


def _bet_rows(game: str, bets: Sequence[Bet]) -> list[dict[str, Any]]:
    return [{
        "bet": b, "type": labels.bet_type_label(game, b.bet_type),
        "details": _bet_details(game, b.bet), "status": b.status,
        "status_label": labels.label(labels.BET_STATUS, b.status),
        "words": hands.settlement_text(b),
    } for b in bets]


def _round_rows(rounds: Sequence[Round]) -> list[dict[str, Any]]:
    return [{"round": r, "status_label": labels.label(labels.ROUND_STATUS, r.status),
             "outcome": (outcome_text(r.game, r.settled_outcome or r.outcome, r.options)
                         if r.outcome else r.void_reason)}
            for r in rounds]


def _table_rows(tables: Sequence[Table]) -> list[dict[str, Any]]:
    return [{"table": t, "game": labels.game_label(t.game)} for t in tables]


def _session_rows(sessions: Sequence[TableSession]) -> list[dict[str, Any]]:
    return [{"session": s, "game": labels.game_label(s.game),
             "status_label": labels.label(labels.SESSION_STATUS, s.status)} for s in sessions]


# --- tables -------------------------------------------------------------------------------------


def _tables_page(request: HttpRequest, codes: Sequence[str]) -> HttpResponse:
    casinos = [(Casino.objects.get(code=c),
                _table_rows(list(selectors.table_list(casino=c).order_by("code"))),
                _session_rows(list(selectors.table_session_list(casino=c)[:50])),
                _may_act(request, c))
               for c in codes]
    return render(request, "pit/tables.html", {"casinos": casinos})


@login_required
def table_list(request: HttpRequest) -> HttpResponse:
    return _tables_page(request, _casinos(request))


@login_required
def casino_tables(request: HttpRequest, casino: str) -> HttpResponse:
    _may_read(request, casino)
    return _tables_page(request, [casino])


@login_required
@require_http_methods(["GET", "POST"])
def table_detail(request: HttpRequest, casino: str, code: str) -> HttpResponse:
    """A table: its game, limits and last closing count, and the form that opens a session."""
    _may_read(request, casino)
    table: Table = _found(lambda: selectors.table_get(casino=casino, code=code))
    denominations = _denominations(table)

    def page(failed: str = "", error: str = "") -> HttpResponse:
        values: Mapping[str, Any] = request.POST if failed else {
            f"opening-{d}": n for d, n in (table.last_closing or {}).items()}
        return render(request, "pit/table.html", {
            "table": table, "game": labels.game_label(table.game),
            "limits": [(labels.limit_group_label(table.game, group), limit)
                       for group, limit in sorted(table.limits.items())],
            "last_closing": _chips_text(table.last_closing),
            "grid": _grid("opening", denominations, values),
            "can_act": _may_act(request, casino), "key": _key(),
            "failed": failed, "error": error,
            "posted_rate": request.POST.get("rate", "") if failed else "",
            "posted": request.POST if failed else {},
            "rate_reasons": SESSION_RATE.reasons,
            "rate_pending": _pending(casino, SESSION_RATE.name, [code]).get(code),
        }, status=200)

    if request.method == "POST":
        def open_session(metadata: Metadata) -> Done:
            roll = request.POST.get("mode") == "roll"
            opening = None if roll else forms.parse_pieces(request.POST, "opening", denominations)
            done = services.table_session_open(casino=casino, table=code, opening=opening,
                                               metadata=metadata,
                                               rate=_typed_rate(request.POST.get("rate", "")))
            return (_("Session opened at table %(table)s, float %(amount)s.")
                    % {"table": code, "amount": money(done.opening_amount)},
                    reverse("pit-session", args=[done.session_id]))

        def ask_rate(metadata: Metadata) -> Done:
            approval_request(
                kind=SESSION_RATE.name, subject=code, reason=request.POST.get("reason", ""),
                explanation=request.POST.get("explanation", ""),
                details={"rate": _typed_rate(request.POST.get("rate", "")),
                         "opening": forms.parse_pieces(request.POST, "opening", denominations)},
                metadata=metadata)
            return (_("Asked for approval: nothing moves until another person approves it on "
                      "the Approvals page."), reverse("pit-table", args=[casino, code]))

        return _act(request, casino, {"open": open_session, "ask_rate": ask_rate}, page)
    return page()


# --- a session ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def session_detail(request: HttpRequest, session_id: str) -> HttpResponse:
    session: TableSession = _found(lambda: selectors.table_session_get(session_id=session_id))
    _may_read(request, session.casino_id)
    table: Table = _found(lambda: selectors.table_get(casino=session.casino_id,
                                                      code=session.table))
    denominations = _denominations(table)
    sid = str(session.session_id)
    here = reverse("pit-session", args=[sid])
    if request.method == "GET" and request.GET.get("fragment") == "cage-answers":
        return _cage_answers(request, sid)

    def page(failed: str = "", error: str = "") -> HttpResponse:
        posted: Mapping[str, Any] = request.POST if failed else {}
        slips = list(selectors.slip_list(casino=session.casino_id).filter(session_id=sid)
                     .order_by("requested_at"))
        closed = session.status != SessionStatus.OPEN
        slip_asks = _pending(session.casino_id, SLIP_VOID.name,
                             [f"{s.kind}/{s.number}" for s in slips])
        variance = next((v for v in selectors.session_variances(
            casino=session.casino_id, gaming_day=session.gaming_day)
            if v.session_id == sid), None) if closed else None
        return render(request, "pit/session.html", {
            "s": session, "table": table, "game": labels.game_label(session.game),
            "status_label": labels.label(labels.SESSION_STATUS, session.status),
            "opening": _chips_text(session.opening), "float": _chips_text(session.float_chips),
            "closing": _chips_text(session.closing), "roll": _chips_text(session.roll_difference),
            "rounds": _round_rows(list(selectors.round_list(session_id=sid))),
            "hold": selectors.session_hold_check(session),
            # while open: the rounds' result is the table win so far, over the drop so far
            "hold_so_far": (session.round_result / session.drop_recorded * 100).quantize(
                Decimal("0.01")) if session.drop_recorded and not closed else None,
            "slips": [{"slip": s, "kind": labels.label(labels.SLIP_KIND, s.kind),
                       "status_label": labels.label(labels.SLIP_STATUS, s.status),
                       "chips": _chips_text(s.chips),
                       "refused": s.status == SlipStatus.REFUSED,
                       "voidable": s.status in VOIDABLE and not closed,
                       "ask_void": s.status in VOIDABLE and closed,
                       "pending": slip_asks.get(f"{s.kind}/{s.number}")} for s in slips],
            "slip_reasons": SLIP_VOID.reasons, "variance": variance,
            "variance_reasons": TABLE_VARIANCE.reasons,
            "variance_pending": _pending(session.casino_id, TABLE_VARIANCE.name, [sid]).get(sid),
            "slip_grid": _grid("chips", denominations, posted if failed.startswith(
                ("fill", "credit", "ask_late_slip")) else {}),
            "late_slip_reasons": LATE_SLIP.reasons,
            "close_grid": _grid("closing", denominations, posted if failed == "close" else {}),
            "is_open": session.status == SessionStatus.OPEN,
            "answers": (answers := _slip_answers(sid)),
            "answers_waiting": any(a["waiting"] for a in answers),
            "box": DropBox.objects.filter(session_id=session.session_id).first(),
            "can_act": _may_act(request, session.casino_id), "key": _key(),
            "failed": failed, "error": error, "posted": posted,
        })

    if request.method == "POST":
        p = request.POST

        def slip(kind: str) -> Callable[[Metadata], Done]:
            def run(metadata: Metadata) -> Done:
                chips = forms.parse_pieces(p, "chips", denominations)
                call = services.fill_request if kind == "fill" else services.credit_request
                done = call(session_id=sid, slip=p.get("slip", "").strip(), chips=chips,
                            metadata=metadata)
                text = (_("Fill %(slip)s requested: %(amount)s. The cage issues it.")
                        if kind == "fill" else
                        _("Credit %(slip)s recorded: %(amount)s leave the table for the cage."))
                return text % {"slip": done.slip, "amount": money(done.amount)}, here
            return run

        def void_slip(metadata: Metadata) -> Done:
            kind, number = p.get("kind", ""), p.get("slip", "")
            services.slip_void(casino=session.casino_id, kind=kind, slip=number,
                               reason=p.get("reason", ""), metadata=metadata)
            return _("Slip %(slip)s voided.") % {"slip": number}, here

        def ask_void_slip(metadata: Metadata) -> Done:
            return _ask(p, metadata, SLIP_VOID.name, f"{p.get('kind', '')}/{p.get('slip', '')}",
                        here)

        def ask_late_slip(metadata: Metadata) -> Done:
            approval_request(
                kind=LATE_SLIP.name, subject=f"{p.get('kind', '')}/{p.get('slip', '').strip()}",
                reason=p.get("reason", ""), explanation=p.get("explanation", ""),
                details={"session_id": sid,
                         "chips": forms.parse_pieces(p, "chips", denominations)},
                metadata=metadata)
            return (_("Asked for approval: nothing moves until another person approves it on "
                      "the Approvals page."), here)

        def ask_variance(metadata: Metadata) -> Done:
            return _ask(p, metadata, TABLE_VARIANCE.name, sid, here)

        def drop(metadata: Metadata) -> Done:
            seat = p.get("seat", "").strip()
            done = services.drop_record(session_id=sid, amount=forms.amount_text(p.get("amount")),
                                        seat=forms.parse_seat(seat) if seat else None,
                                        player=p.get("player", "").strip(),
                                        patron=p.get("patron", "").strip() or None,
                                        metadata=metadata)
            return _("Drop of %(amount)s recorded.") % {"amount": money(done.amount)}, here

        def close(metadata: Metadata) -> Done:
            closing = forms.parse_pieces(p, "closing", denominations)
            done = _send_session_close(sid, closing, metadata)
            if done is None:
                return (_("The close is sent to the workers: its result shows here once it "
                          "is done (reload the page)."), here)
            if not done["closed"]:  # the task's refusal, said in the page's language
                raise DomainError(answer_text(done, _("the close was refused")),
                                  code=done.get("code"), **(done.get("extra") or {}))
            if done.get("already_closed"):
                return _("The session was closed already."), here
            if done["table_win"] is None:
                return (_("Session closed: rounds' result %(result)s. The drop box goes to the "
                          "count room; the table win follows its count.")
                        % {"result": money(done["round_result"])}, here)
            return (_("Session closed: table win %(win)s, rounds' result %(result)s.")
                    % {"win": money(done["table_win"]), "result": money(done["round_result"])}, here)

        def open_round(metadata: Metadata) -> Done:
            done = services.round_open(session_id=sid, metadata=metadata)
            return (_("Round %(number)s open: place the bets.") % {"number": done.number},
                    reverse("pit-round", args=[done.round_id]))

        return _act(request, session.casino_id, {
            "fill": slip("fill"), "credit": slip("credit"), "void_slip": void_slip,
            "ask_void_slip": ask_void_slip, "ask_variance": ask_variance,
            "ask_late_slip": ask_late_slip,
            "drop": drop, "close": close, "open_round": open_round}, page)
    return page()


def _slip_answers(session_id: str) -> list[dict[str, Any]]:
    """The session's slips with the cage's answer so far (issued, received, refused, or none)."""
    return [{"slip": s, "kind": labels.label(labels.SLIP_KIND, s.kind),
             "status_label": labels.label(labels.SLIP_STATUS, s.status),
             "waiting": s.status == SlipStatus.REQUESTED,
             "refused": s.status == SlipStatus.REFUSED}
            for s in Slip.objects.filter(session_id=session_id).order_by("requested_at")]


def _cage_answers(request: HttpRequest, session_id: str) -> HttpResponse:
    """The cage's answers to the session's requests, which the page fetches again while one
    waits (htmx polling): issued, or refused with the cage's reason, as soon as it answers."""
    answers = _slip_answers(session_id)
    return render(request, "pit/_cage_answers.html", {
        "answers": answers, "session_id": session_id,
        "waiting": any(a["waiting"] for a in answers)})


def _send_session_close(session_id: str, closing: dict[str, int], metadata: Metadata
                        ) -> dict[str, Any] | None:
    """The close goes to the workers (``games.table_session_close``) once this request's work
    is committed, as the ledger's close page sends the day's close; without a broker it runs in
    process at once and its answer comes back (``None``: a worker has it, not done yet)."""
    from games.tasks import table_session_close_task

    answer: dict[str, Any] = {}

    def send() -> None:
        sent = table_session_close_task.delay(session_id, closing, metadata.as_dict())
        if sent.ready():
            answer.update(sent.get())

    transaction.on_commit(send)
    return answer or None


# --- a round ------------------------------------------------------------------------------------


def _bet_form_entries(game: str, failed: str, posted: Mapping[str, Any]) -> list[dict[str, Any]]:
    entries = []
    for form in forms.bet_forms(game):
        mine = failed == f"bet:{form.key}"
        entries.append({
            "form": form, "title": forms.form_title(game, form), "failed": mine,
            "types": [(t, labels.bet_type_label(game, t)) for t in form.types],
            "fields": [(f, posted.get(f.name, "") if mine else "") for f in form.fields],
            "values": posted if mine else {},
        })
    return entries


@login_required
@require_http_methods(["GET", "POST"])
def round_detail(request: HttpRequest, round_id: str) -> HttpResponse:
    the_round: Round = _found(lambda: selectors.round_get(round_id=round_id))
    _may_read(request, the_round.casino_id)
    rid = str(the_round.round_id)
    here = reverse("pit-round", args=[rid])
    session = selectors.table_session_get(session_id=str(the_round.session_id))
    table: Table = _found(lambda: selectors.table_get(casino=the_round.casino_id,
                                                      code=the_round.table))
    game = the_round.game

    jackpot = (the_round.options or {}).get("jackpot")  # the pool's, when the table feeds one

    def page(failed: str = "", error: str = "") -> HttpResponse:
        posted: Mapping[str, Any] = request.POST if failed else {}
        outcome_values = posted if failed in ("outcome", "correct", "ask_correct") else {}
        status = the_round.status
        bets = list(selectors.bet_list(round_id=rid))
        return render(request, "pit/round.html", {
            "r": the_round, "session": session, "table": table,
            "game": labels.game_label(game),
            "status_label": labels.label(labels.ROUND_STATUS, status),
            "outcome": outcome_text(game, the_round.settled_outcome or the_round.outcome,
                                    the_round.options),
            "bets": _bet_rows(game, bets),
            "deal_seats": [(n, posted.get(f"seat-{n}", "") if failed == "deal" else "")
                           for n in hands.deal_seats(the_round, bets)],
            "hands": hands.blackjack_hands(the_round, bets),
            "upcard": (the_round.play or {}).get("upcard", ""),
            "insurable": hands.insurable_bets(the_round, bets),
            "boxes": hands.stud_boxes(the_round, bets),
            "jackpot": jackpot, "jackpot_bets": [
                {"bet": j, "status_label": labels.label(labels.JACKPOT_BET_STATUS, j.status)}
                for j in selectors.jackpot_bet_list(round_id=rid)],
            "bet_forms": _bet_form_entries(game, failed, posted),
            # craps odds back a line or come bet of the round, picked from the list
            "odds_bases": [(b.bet_id, f"{b.bet_id} · {labels.bet_type_label(game, b.bet_type)}"
                            f"{' ' + str(b.point) if b.point else ''} · {b.amount}")
                           for b in bets if game == "craps" and not b.withdrawn
                           and b.bet_type in ("pass", "dont_pass", "come", "dont_come")],
            "seats": range(1, table.seats + 1),
            "outcome_fields": [(f, outcome_values.get(f.name, "")) for f in forms.outcome_fields(
                game, the_round, sorted({b.seat for b in bets if not b.withdrawn}))],
            "outcome_note": forms.outcome_form(game).note,
            "taking_bets": status == RoundStatus.BETTING,
            "needs_outcome": status == RoundStatus.CLOSED,
            "to_settle": status == RoundStatus.OUTCOME,
            "voidable": status in (RoundStatus.BETTING, RoundStatus.CLOSED),
            # after the outcome a void is asked for, and approved by another pit boss
            "ask_void": status == RoundStatus.OUTCOME, "void_reasons": ROUND_VOID.reasons,
            "void_pending": _pending(the_round.casino_id, ROUND_VOID.name, [rid]).get(rid),
            # the pit boss who recorded the outcome asks another for the correction
            "correction_reasons": ROUND_CORRECTION.reasons,
            "correction_pending": _pending(the_round.casino_id, ROUND_CORRECTION.name,
                                           [rid]).get(rid),
            "settled": status == RoundStatus.SETTLED,
            "next_round": (session.status == SessionStatus.OPEN
                           and session.current_round_id is None),
            "session_open": session.status == SessionStatus.OPEN,
            "can_act": _may_act(request, the_round.casino_id), "key": _key(),
            "failed": failed, "error": error, "posted": posted,
        })

    if request.method == "POST":
        p = request.POST

        def bet(metadata: Metadata) -> Done:
            spec = forms.parse_bet(game, p)
            done = services.bet_place(round_id=rid, bets=[spec], metadata=metadata)
            return (_("Bet %(bet)s placed: %(type)s, %(amount)s on seat %(seat)s.") % {
                "bet": ", ".join(done.bets), "type": labels.bet_type_label(game, spec["type"]),
                "amount": money(spec["amount"]), "seat": spec["seat"]}, here)

        def jackpot_bet(metadata: Metadata) -> Done:
            spec: dict[str, Any] = {"seat": forms.parse_seat(p.get("seat", "")),
                                    "amount": forms.amount_text(p.get("amount"))}
            if p.get("player", "").strip():
                spec["player"] = p["player"].strip()
            done = services.jackpot_bet_place(round_id=rid, bets=[spec], metadata=metadata)
            return (_("Jackpot chip %(bet)s placed on seat %(seat)s.")
                    % {"bet": ", ".join(done.jackpot_bets), "seat": spec["seat"]}, here)

        def withdraw(metadata: Metadata) -> Done:
            bet_id = p.get("bet_id", "")
            services.bet_withdraw(round_id=rid, bet_id=bet_id, reason=p.get("reason", ""),
                                  metadata=metadata)
            return _("Bet %(bet)s taken down: its stake goes back to the player.") % {
                "bet": bet_id}, here

        def close_betting(metadata: Metadata) -> Done:
            services.round_close_betting(round_id=rid, metadata=metadata)
            return _("No more bets."), here

        def deal(metadata: Metadata) -> Done:
            seats = hands.deal_seats(the_round, list(selectors.bet_list(round_id=rid)))
            services.deal_record(round_id=rid, **hands.parse_deal(p, seats), metadata=metadata)
            return _("Deal recorded: play the hands."), here

        def decision(metadata: Metadata) -> Done:
            spec = hands.parse_decision(p, p.getlist("followers"))
            done = services.decision_record(round_id=rid, **spec, metadata=metadata)
            text = _("Seat %(seat)s: %(decision)s recorded.") % {
                "seat": spec["seat"], "decision": hands.DECISIONS[spec["decision"]]}
            if done.bets:
                text += " " + _("Its stake: bet %(bets)s.") % {"bets": ", ".join(done.bets)}
            return text, here

        def outcome(metadata: Metadata) -> Done:
            services.outcome_record(round_id=rid, outcome=forms.parse_outcome(
                game, p, the_round), metadata=metadata)
            return _("Outcome recorded: settle the round."), here

        def settle(metadata: Metadata) -> Done:
            done = services.round_settle(round_id=rid, metadata=metadata)
            return (_("Round settled: prizes %(prizes)s, result %(result)s.")
                    % {"prizes": money(done.prizes), "result": money(done.result)}, here)

        def void(metadata: Metadata) -> Done:
            services.round_void(round_id=rid, reason=p.get("reason", ""), metadata=metadata)
            return _("Round void: nothing is settled."), here

        def ask_void(metadata: Metadata) -> Done:
            return _ask(p, metadata, ROUND_VOID.name, rid, here)

        def ask_correct(metadata: Metadata) -> Done:
            approval_request(kind=ROUND_CORRECTION.name, subject=rid, reason=p.get("reason", ""),
                             explanation=p.get("explanation", ""),
                             details={"outcome": forms.parse_outcome(game, p, the_round)},
                             metadata=metadata)
            return (_("Correction asked for: it waits on the other pit bosses' home; one of "
                      "them corrects the round from the Approvals page."), here)

        def correct(metadata: Metadata) -> Done:
            done = services.round_correct(
                round_id=rid, outcome=forms.parse_outcome(game, p, the_round),
                reason=p.get("reason", ""), metadata=metadata)
            return (_("Round corrected and settled again: result %(result)s (was %(before)s).")
                    % {"result": money(done.result), "before": money(done.previous_result)},
                    here)

        return _act(request, the_round.casino_id, {
            "bet": bet, "jackpot_bet": jackpot_bet, "close_betting": close_betting,
            "deal": deal, "decision": decision, "withdraw": withdraw,
            "outcome": outcome, "settle": settle,
            "void": void, "ask_void": ask_void, "correct": correct,
            "ask_correct": ask_correct}, page)
    return page()


# --- the gaming day -----------------------------------------------------------------------------


@login_required
def gaming_days(request: HttpRequest) -> HttpResponse:
    casinos = []
    for code in _casinos(request):
        by_game = [{**g, "game_label": labels.game_label(g["game"])}
                   for g in selectors.gaming_day_by_game(casino=code)]
        missing = [(labels.label(labels.SLIP_KIND, kind), series) for kind in ("fill", "credit")
                   for series in selectors.slip_missing_numbers(casino=code, kind=kind)]
        casinos.append((Casino.objects.get(code=code),
                        selectors.gaming_day_by_table(casino=code).order_by("-gaming_day", "table"),
                        by_game, missing))
    return render(request, "pit/gaming_days.html", {"casinos": casinos})

