"""Rounds (golpes): open with bets, "no more bets", the hand's decisions, the outcome, the
settlement from the rules engine, a void, a correction; and a whole round in one command.

Validation, in order: the round's state (betting open, outcome missing ...), checked here; then
the pit's rules on plain values (``games.rules``): the seat, the rules engine
(``games.engine.check_bet`` at placement, ``settle_or_raise`` for the outcome), then the table's
limits, each refusal naming its article. Settlement comes from the engine only: one
``BetSettled`` per bet, as the engine gave it.

This module is the services and their glue: it reads the models, hands the rules plain values
(``TableRules``, ``BetView``, a round's ``play``), turns a rule's refusal into the platform's
error (``_refusal``) and appends the events.
"""

from __future__ import annotations

import dataclasses
import functools
import uuid
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any, ParamSpec, TypeVar

from casino.errors import Conflict, DomainError, InvalidCommand, NotAllowed, Words, gettext_noop
from casino.models import Approval, Role
from casino.money import fmt
from eventstore import reads, store
from eventstore.commands import in_command
from eventstore.events import Event
from eventstore.records import Metadata
from games.answers import (
    BetPlaceAnswer,
    BetWithdrawAnswer,
    DealRecordAnswer,
    DecisionRecordAnswer,
    JackpotBetPlaceAnswer,
    RoundCorrectAnswer,
    RoundOpenAnswer,
    RoundRecordAnswer,
    RoundSettleAnswer,
    RoundStatusAnswer,
    RoundVoidAnswer,
)
from games.events import (
    BetCarried,
    BetPlaced,
    BetSettled,
    BettingClosed,
    BetWithdrawn,
    CardsDealt,
    DecisionRecorded,
    JackpotBetPlaced,
    OutcomeRecorded,
    RoundCorrected,
    RoundOpened,
    RoundSettled,
    RoundVoided,
)
from games.models import Bet, JackpotBet, Round, RoundStatus, Table, TableSession
from games.players import player_checked
from games.rules import bets as bet_rules
from games.rules import decisions, outcomes
from games.rules import settlement as settlement_rules
from games.rules.bets import CARRY_STATUS, DECISION_STAKES, BetView, TableRules
from games.rules.errors import CONFLICT, Phrase, RuleError

from . import jackpot_bets as jp
from ._common import (
    check_casino,
    command,
    locked_round_reads,
    round_and_table,
    round_bets,
    round_get,
    round_reads,
    session_and_table,
    session_get,
    session_reads,
    whole_round_reads,
)

P = ParamSpec("P")
R = TypeVar("R")


# --- the rules' values and refusals -------------------------------------------------------------


def _refusal(error: RuleError) -> DomainError:
    """A rule's refusal in the platform's error family: code, message and extra kept (as
    ``_common.engine_error`` does for the rules engine)."""
    kind = Conflict if error.kind == CONFLICT else InvalidCommand
    params = None if error.params is None else {
        name: Words.stored_as(str(value), str(value), context=value.context)
        if isinstance(value, Phrase) else value for name, value in error.params.items()}
    return kind(error.template, code=error.code, params=params, **error.extra)


def _rule_refusals(fn: Callable[P, R]) -> Callable[P, R]:
    """A service whose rules' refusals (``RuleError``) reach its caller as the platform's."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except RuleError as error:
            raise _refusal(error) from None

    return run


def _table_rules(table: Table) -> TableRules:
    return TableRules(code=table.code, game=table.game, seats=table.seats, limits=table.limits,
                      options=table.options, max_prize_per_coup=table.max_prize_per_coup)


def _view(row: Bet) -> BetView:
    """A ``Bet`` row as the rules read it."""
    return BetView(bet_id=row.bet_id, seat=row.seat, player=row.player, bet_type=row.bet_type,
                   amount=row.amount, bet=dict(row.bet), stage=row.stage, base=row.base,
                   carried_from=str(row.carried_from) if row.carried_from else None,
                   hand_key=row.hand_key)


def _placed(bet: BetView, round_id: str) -> Event:
    """The event that puts ``bet`` on the round: carried in, or placed."""
    if bet.carried_from:
        return BetCarried(round_id=round_id, bet_id=bet.bet_id, from_round_id=bet.carried_from,
                          seat=bet.seat, player=bet.player, bet=bet.bet, amount=bet.amount,
                          base=bet.base)
    return BetPlaced(round_id=round_id, bet_id=bet.bet_id, seat=bet.seat,
                     player=player_checked(bet.player),  # a label, never a name
                     bet=bet.bet, amount=bet.amount, stage=bet.stage, base=bet.base,
                     hand_key=bet.hand_key)


def _bets_of(round_id: uuid.UUID | str) -> list[BetView]:
    """The round's bets still standing, in the order they were placed (a prepared statement:
    every command on a round reads them)."""
    return [_view(b) for b in round_bets(round_id)]


# --- settlement ---------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Plan:
    """A settlement as the service records it: the events, and the figures it answers with."""

    events: list[Event]
    result: Decimal
    prizes: Decimal
    handle: Decimal


def _settlement(table: Table, round_id: str, session_id: str, settled: dict[str, Any],
                bets: list[BetView], *, corrects: dict[str, int | None] | None = None,
                result_delta_from: Decimal | None = None) -> _Plan:
    """The rules' settlement plan (``games.rules.settlement``) as ``BetSettled`` events and a
    ``RoundSettled``."""
    plan = settlement_rules.settlement(_table_rules(table), round_id, settled, bets,
                                       corrects=corrects, result_delta_from=result_delta_from)
    events: list[Event] = [BetSettled(
        round_id=round_id, bet_id=b.bet_id, seat=b.seat, player=b.player, bet_type=b.bet_type,
        status=b.status, stake=b.stake, win=b.win, returned=b.returned, carried=b.carried,
        point=b.point, corrects=b.corrects, capped_win=b.capped_win,
    ) for b in plan.bets]
    events.append(RoundSettled(
        round_id=round_id, session_id=session_id, handle=plan.handle, result=plan.result,
        prizes=plan.prizes, pending=plan.pending, point_after=plan.point_after,
        stakes=plan.stakes, correction=plan.correction, result_delta=plan.result_delta,
    ))
    return _Plan(events, plan.result, plan.prizes, plan.handle)


# --- the commands -------------------------------------------------------------------------------


def _open_events(table: Table, session: TableSession, round_id: str,
                 specs: Sequence[dict[str, Any]], options: dict[str, Any], *,
                 whole: bool = False) -> tuple[list[Event], list[BetView]]:
    """``options``: the round's (``jackpot_bets.round_options``: the table's, with the jackpot
    configuration in force in the pool the table feeds)."""
    if session.current_round_id is not None:
        raise Conflict("round {current_round_id} is still in progress at table "
                       "{code}",
                       params={"current_round_id": session.current_round_id, "code": table.code}, code="round_in_progress")
    carried = [BetView.carried(p) for p in session.pending_bets]
    new = bet_rules.new_bets(_table_rules(table), options, specs, carried, whole=whole)
    events: list[Event] = [RoundOpened(
        round_id=round_id, session_id=str(session.session_id), casino=table.casino_id,
        table=table.code, game=table.game, options=options, number=session.rounds + 1,
        point=session.craps_point if table.game == "craps" else None)]
    bets = carried + new
    events += [_placed(b, round_id) for b in bets]
    return events, bets


@command("round_open", reads=session_reads)
@_rule_refusals
def round_open(*, session_id: str, bets: Sequence[dict[str, Any]] = (), metadata: Metadata,
               round_id: str | None = None) -> RoundOpenAnswer:
    """Open a round for bets, with the bets placed so far; bets still working carry into it."""
    session, table = session_and_table(session_id)
    check_casino(metadata, session.casino_id)
    new_id = round_id or str(uuid.uuid4())

    options, _pool = jp.round_options(table)
    events, placed = _open_events(table, session, new_id, bets, options)
    answer = RoundOpenAnswer(round_id=new_id, number=session.rounds + 1, version=len(events),
                             bets=[b.bet_id for b in placed])
    store.append(f"round/{new_id}", events, expected_version=0, metadata=metadata,
                 answer=answer)
    return answer


def _round_for_command(round_id: str, metadata: Metadata) -> tuple[Round, Table]:
    """The round, locked, and its table (see ``_round_only``)."""
    the_round, table = round_and_table(round_id)
    _check_round(the_round, metadata)
    return the_round, table


def _round_only(round_id: str, metadata: Metadata) -> Round:
    """The round, locked. A round still in play has an open session (a session does not close
    with a round in progress); a settled or void one is checked where it matters."""
    the_round = round_get(round_id, lock=True)
    _check_round(the_round, metadata)
    return the_round


def _check_round(the_round: Round, metadata: Metadata) -> None:
    check_casino(metadata, the_round.casino_id)
    if the_round.status in (RoundStatus.SETTLED, RoundStatus.VOIDED):
        session_get(str(the_round.session_id))  # refuses a closed session


def _refuse_state(the_round: Round, *allowed: str) -> None:
    if the_round.status in allowed:
        return
    messages = {
        RoundStatus.BETTING: ("betting_open", "bets are still being taken: call no more bets "
                                              "first"),
        RoundStatus.CLOSED: ("no_outcome", "the round has no outcome yet"),
        RoundStatus.OUTCOME: ("outcome_recorded", "the outcome is recorded: settle the round, "
                                                  "or void it"),
        RoundStatus.SETTLED: ("already_settled", "the round is already settled (a mistake is "
                                                 "put right by a correction)"),
        RoundStatus.VOIDED: ("round_voided", "the round is void"),
    }
    code, message = messages[RoundStatus(the_round.status)]
    if RoundStatus.BETTING in allowed and the_round.status == RoundStatus.CLOSED:
        code, message = "betting_closed", "no more bets: betting is closed for this round"
    raise Conflict(message, code=code, round=str(the_round.round_id), status=the_round.status)


@command("bet_place", reads=round_reads)
@_rule_refusals
def bet_place(*, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata
              ) -> BetPlaceAnswer:
    """Place bets while betting is open (seat, player, type, amount, the type's fields)."""
    the_round, table = _round_for_command(round_id, metadata)

    _refuse_state(the_round, RoundStatus.BETTING)
    existing = list(Bet.objects.filter(round_id=the_round.round_id).order_by("id"))
    views = [_view(b) for b in existing if not b.withdrawn]
    used = {b.bet_id for b in existing}
    # withdrawn bets keep their ids: placeholders that no limit reads
    taken = [BetView(bet_id=u, seat=0, player="", bet_type="", amount=Decimal(0), bet={})
             for u in used - {v.bet_id for v in views}]
    new = bet_rules.new_bets(_table_rules(table), the_round.options, bets, views + taken)
    store.append(the_round.stream, [_placed(b, str(the_round.round_id)) for b in new],
                 expected_version=the_round.version, metadata=metadata)
    return BetPlaceAnswer(round_id=str(the_round.round_id), bets=[b.bet_id for b in new],
                          version=the_round.version + len(new))


@command("jackpot_bet_place", reads=round_reads)
@_rule_refusals
def jackpot_bet_place(*, round_id: str, bets: Sequence[dict[str, Any]], metadata: Metadata
                      ) -> JackpotBetPlaceAnswer:
    """Jackpot chips (apostas no acumulado), before the deal: ``{seat, player?, amount, id?}``
    each, one chip of exactly the pool's bet per player and coup, by a player with a main-game
    bet on that seat (the seat holder when ``player`` is left out). Recorded on the round
    (``JackpotBetPlaced``), decided by the pool's coup when the round settles."""
    the_round, table = _round_for_command(round_id, metadata)

    pool_id = jp.round_pool(the_round)  # a game without jackpots: no_jackpot, whatever the state
    if the_round.status != RoundStatus.BETTING:
        raise jp.too_late(table.game, the_round.status)
    rid = str(the_round.round_id)
    rows = Bet.objects.filter(round_id=the_round.round_id)
    placed = list(JackpotBet.objects.filter(round_id=the_round.round_id))
    events = jp.new_jackpot_bets(
        game=table.game, seats=table.seats, options=the_round.options, round_id=rid,
        pool_id=pool_id, specs=bets,
        main_bets=[(b.seat, b.player, b.bet_type) for b in rows if not b.withdrawn],
        placed=[(j.seat, j.player) for j in placed],
        used_ids={b.bet_id for b in rows} | {j.bet_id for j in placed})
    store.append(the_round.stream, events, expected_version=the_round.version,
                 metadata=metadata)
    return JackpotBetPlaceAnswer(round_id=rid, pool_id=pool_id,
                                 jackpot_bets=[e.bet_id for e in events],
                                 version=the_round.version + len(events))


@command("bet_withdraw", reads=round_reads)
@_rule_refusals
def bet_withdraw(*, round_id: str, bet_id: str, reason: str = "", metadata: Metadata
                 ) -> BetWithdrawAnswer:
    """Take down a bet carried from an earlier round, where the rules let a player do so."""
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.BETTING)
    bet = Bet.objects.filter(round_id=the_round.round_id, bet_id=bet_id, withdrawn=False).first()
    if bet is None:
        raise InvalidCommand("there is no bet {bet_id!r} in this round",
                             params={"bet_id": bet_id}, field="bet_id")
    bet_rules.check_withdrawable(table.game, _view(bet))
    store.append(the_round.stream, [BetWithdrawn(round_id=str(the_round.round_id), bet_id=bet_id,
                                                 reason=reason)],
                 expected_version=the_round.version, metadata=metadata)
    return BetWithdrawAnswer(round_id=str(the_round.round_id), bet_id=bet_id, withdrawn=True)


@command("round_close_betting", reads=locked_round_reads)
@_rule_refusals
def round_close_betting(*, round_id: str, metadata: Metadata) -> RoundStatusAnswer:
    """«Jogo feito. Nada mais.»: no initial bet is taken after this."""
    the_round = _round_only(round_id, metadata)

    _refuse_state(the_round, RoundStatus.BETTING)
    answer = RoundStatusAnswer(round_id=str(the_round.round_id), status=RoundStatus.CLOSED.value,
                               version=the_round.version + 1)
    store.append(the_round.stream, [BettingClosed(round_id=str(the_round.round_id))],
                 expected_version=the_round.version, metadata=metadata, answer=answer)
    return answer


@command("deal_record")
@_rule_refusals
def deal_record(*, round_id: str, upcard: str, seats: dict[str, list[str]], metadata: Metadata
                ) -> DealRecordAnswer:
    """Blackjack: the bank's up card and two cards to each seat with a stake (n.º 17)."""
    the_round = _round_only(round_id, metadata)
    if the_round.game != "blackjack":
        raise InvalidCommand("the deal is recorded card by card at blackjack only")
    _refuse_state(the_round, RoundStatus.CLOSED)
    hands = decisions.check_deal(the_round.play, upcard, seats, _bets_of(the_round.round_id))
    store.append(the_round.stream,
                 [CardsDealt(round_id=str(the_round.round_id), upcard=upcard, seats=hands)],
                 expected_version=the_round.version, metadata=metadata)
    return DealRecordAnswer(round_id=str(the_round.round_id), version=the_round.version + 1)


@command("decision_record", reads=round_reads)
@_rule_refusals
def decision_record(
    *,
    round_id: str,
    seat: int,
    decision: str,
    hand: int = 1,
    cards: Sequence[str] = (),
    bet_id: str | None = None,
    amount: object = None,
    followers: Sequence[str] = (),
    metadata: Metadata,
) -> DecisionRecordAnswer:
    """A decision of the hand in play, with the stake it takes, when the rules allow it.

    Blackjack (after the deal): ``hit`` and ``double`` with the card drawn, ``split`` with the
    second card of each hand, ``stand``, ``surrender``, ``insurance`` and ``even_money`` of one
    bet (``bet_id``); ``followers``: back bets that follow a split or a double (n.os 28, 30).
    Stud poker: ``call`` (the call stake, twice the ante) or ``fold``.
    """
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.CLOSED)
    rid = str(the_round.round_id)
    card_list = list(cards)
    hand, new = decisions.decide(table.game, the_round.play, _bets_of(the_round.round_id),
                                 seat=seat, hand=hand, decision=decision, cards=card_list,
                                 bet_id=bet_id, amount=amount, followers=followers)
    events: list[Event] = [DecisionRecorded(round_id=rid, seat=seat, hand=hand, decision=decision,
                                            cards=card_list, bet_id=bet_id)]
    events += [_placed(b, rid) for b in new]
    store.append(the_round.stream, events, expected_version=the_round.version, metadata=metadata)
    return DecisionRecordAnswer(round_id=rid, decision=decision, bets=[b.bet_id for b in new],
                                version=the_round.version + len(events))


@command("outcome_record", reads=round_reads)
@_rule_refusals
def outcome_record(*, round_id: str, outcome: dict[str, Any], metadata: Metadata
                   ) -> RoundStatusAnswer:
    """Record what happened, validated by the rules engine against the round's bets."""
    the_round, table = _round_for_command(round_id, metadata)
    _refuse_state(the_round, RoundStatus.CLOSED)
    bets = _bets_of(the_round.round_id)
    outcomes.check_decided(table.game, bets, the_round.play)
    prepared = outcomes.prepare_outcome(table.game, outcome, the_round.point, the_round.play)
    settlement_rules.settle(table.game, the_round.options, prepared, bets, the_round.play)
    answer = RoundStatusAnswer(round_id=str(the_round.round_id),
                               status=RoundStatus.OUTCOME.value, version=the_round.version + 1)
    store.append(the_round.stream,
                 [OutcomeRecorded(round_id=str(the_round.round_id), outcome=prepared)],
                 expected_version=the_round.version, metadata=metadata, answer=answer)
    return answer


@command("round_settle", reads=round_reads)
@_rule_refusals
def round_settle(*, round_id: str, metadata: Metadata) -> RoundSettleAnswer:
    """Settle the round from the rules engine: one ``BetSettled`` per bet."""
    the_round, table = _round_for_command(round_id, metadata)

    _refuse_state(the_round, RoundStatus.OUTCOME)
    _refuse_void_asked(the_round)
    bets = _bets_of(the_round.round_id)
    assert the_round.outcome is not None
    settled = settlement_rules.settle(table.game, the_round.options, the_round.outcome, bets,
                                      the_round.play)
    plan = _settlement(table, str(the_round.round_id), str(the_round.session_id), settled,
                       bets)
    answer = RoundSettleAnswer(round_id=str(the_round.round_id), result=str(plan.result),
                               prizes=str(plan.prizes), handle=str(plan.handle),
                               version=the_round.version + len(plan.events))
    chips = jp.round_jackpot_bets(the_round)  # the pool's coup decides them, not the append
    store.append(the_round.stream, plan.events, expected_version=the_round.version,
                 metadata=metadata, answer=None if chips else answer)
    if chips:  # the pool's coup, with the round (docs/jackpots.md § Integration)
        answer = dataclasses.replace(answer, jackpot=jp.coup_record(
            round_id=str(the_round.round_id), bets=jp.chip_specs(chips),
            pool_id=chips[0].pool_id, metadata=metadata))
    return answer


_VOID_ASKED_SQL = (f"SELECT {reads.columns(Approval, 'a')} FROM casino_approval AS a "
                   "WHERE a.casino_id = %s AND a.kind = 'round_void' AND a.subject = %s "
                   "AND a.status = 'requested'")


def _refuse_void_asked(the_round: Round) -> None:
    """A round whose void is asked for waits for the decision: it is not settled meanwhile
    (a prepared statement on the settlement's path, by the open-request index)."""
    found = reads.every(_VOID_ASKED_SQL, [the_round.casino_id, str(the_round.round_id)],
                        Approval)
    asked = found[0] if found else None
    if asked is not None:
        raise Conflict("{requested_by} asked for this round to be void: it is settled "
                       "only if the request is refused or withdrawn",
                       params={"requested_by": asked.requested_by}, code="void_requested",
                       approval=str(asked.id))


# Messages tests and screens rely on.
VOID_NEEDS_APPROVAL = gettext_noop("the outcome is recorded: voiding the round now needs another pit boss's "
                                   "approval (ask for it on the round's page, with a reason from the list)")


@command("round_void")
@_rule_refusals
def round_void(*, round_id: str, reason: str, metadata: Metadata) -> RoundVoidAnswer:
    """A void round (golpe nulo): nothing is settled; bets carried into it keep working.

    Before the outcome a pit boss voids alone. Once the outcome is recorded the void is only a
    request (``approval_request``, kind ``round_void``: ``games.services.approvals``), applied
    when another pit boss approves it. A settled round is never voided: its mistake is put right
    by a correction (``round_correct``).

    Jackpot chips: still on the layout (betting open) they go back to their players; collected
    («nada mais» called) they are in the pool, and the pool records a void coup: contributions,
    no prize (``docs/jackpots.md`` § Void rounds)."""
    the_round = _round_only(round_id, metadata)
    if not reason.strip():
        raise InvalidCommand("say why the round is void", field="reason")

    _refuse_state(the_round, RoundStatus.BETTING, RoundStatus.CLOSED, RoundStatus.OUTCOME)
    if the_round.status == RoundStatus.OUTCOME:
        raise Conflict(VOID_NEEDS_APPROVAL, code="approval_required", kind="round_void",
                       round=str(the_round.round_id))
    return void_round(the_round, reason=reason.strip(), metadata=metadata)


@in_command
def void_round(the_round: Round, *, reason: str, metadata: Metadata, reason_code: str = "",
               approval_id: str | None = None, requested_by: str = "") -> RoundVoidAnswer:
    """Record the void of ``the_round`` (locked, its state checked by the caller): bets carried
    into it go back to the session, collected jackpot chips get the pool's void coup."""
    back = [{"bet_id": b.bet_id, "seat": b.seat, "player": b.player, "bet": b.bet,
             "amount": str(b.amount), "base": b.base, "from_round_id": b.carried_from}
            for b in _bets_of(the_round.round_id) if b.carried_from]
    store.append(the_round.stream,
                 [RoundVoided(round_id=str(the_round.round_id),
                              session_id=str(the_round.session_id), reason=reason,
                              carried_back=back, approval_id=approval_id,
                              requested_by=requested_by, reason_code=reason_code)],
                 expected_version=the_round.version, metadata=metadata)
    chips = jp.round_jackpot_bets(the_round)
    jackpot = None
    if chips and the_round.status != RoundStatus.BETTING:
        jackpot = jp.coup_record(round_id=str(the_round.round_id), bets=jp.chip_specs(chips),
                                 pool_id=chips[0].pool_id, metadata=metadata)
    return RoundVoidAnswer(round_id=str(the_round.round_id), status=RoundStatus.VOIDED.value,
                           jackpot=jackpot)


def round_preview(the_round: Round, table: Table) -> _Plan:
    """What the round's recorded outcome settles to (nothing recorded): what a void after the
    outcome takes away, for the person who approves it."""
    assert the_round.outcome is not None
    bets = _bets_of(the_round.round_id)
    settled = settlement_rules.settle(table.game, the_round.options, the_round.outcome, bets,
                                      the_round.play)
    return _settlement(table, str(the_round.round_id), str(the_round.session_id), settled, bets)


@command("round_correct", reads=round_reads)
@_rule_refusals
def round_correct(*, round_id: str, outcome: dict[str, Any], reason: str, metadata: Metadata
                  ) -> RoundCorrectAnswer:
    """Correct a settled round's outcome and re-settle it, approved by a pit boss who is not the
    person who recorded the mistake (four eyes)."""
    the_round, table = _round_for_command(round_id, metadata)
    if metadata.role != Role.PIT_BOSS:
        raise NotAllowed("a correction is approved by a pit boss", code="not_allowed")
    return correct_round(the_round, table, outcome=outcome, reason=reason, metadata=metadata)


@_rule_refusals
def correct_round(the_round: Round, table: Table, *, outcome: dict[str, Any], reason: str,
                  metadata: Metadata) -> RoundCorrectAnswer:
    """Record the correction of ``the_round`` (locked) by ``metadata``'s pit boss: the command's,
    and the approval's when the pit boss who made the mistake asked another for it
    (``round_correction``, ``games.services.approvals``)."""
    if metadata.actor == the_round.outcome_by:
        raise NotAllowed("{actor} recorded the outcome being corrected: another pit "
                         "boss must approve the correction (four eyes)",
                         params={"actor": metadata.actor}, code="four_eyes")
    if not reason.strip():
        raise InvalidCommand("say what the mistake was", field="reason")
    _refuse_state(the_round, RoundStatus.SETTLED)
    bets = _bets_of(the_round.round_id)
    rows = {b.bet_id: b.settled_version for b in Bet.objects.filter(round_id=the_round.round_id)}
    if table.game in CARRY_STATUS:
        later = Round.objects.filter(session_id=the_round.session_id,
                                     number__gt=the_round.number).exists()
        if later or any(b.carried_from for b in bets) or Bet.objects.filter(
                round_id=the_round.round_id, status=CARRY_STATUS[table.game]).exists():
            raise Conflict("this round's bets carried from roll to roll: it can be corrected only "
                           "while it is the last round and nothing carried into or out of it",
                           code="correction_unsupported")
    prepared = outcomes.prepare_outcome(table.game, outcome, the_round.point, the_round.play)
    settled = settlement_rules.settle(table.game, the_round.options, prepared, bets,
                                      the_round.play)
    _check_jackpot_cards_kept(the_round, table.game, prepared)
    # refuses a corrected outcome that leaves bets working (games.rules.settlement)
    plan = _settlement(table, str(the_round.round_id), str(the_round.session_id), settled, bets,
                       corrects=rows, result_delta_from=the_round.result)
    events: list[Event] = [RoundCorrected(
        round_id=str(the_round.round_id), outcome=prepared,
        previous_outcome=the_round.outcome or {}, corrects=the_round.outcome_version or 0,
        mistake_by=the_round.outcome_by, reason=reason.strip())]
    events += plan.events
    store.append(the_round.stream, events, expected_version=the_round.version, metadata=metadata)
    return RoundCorrectAnswer(round_id=str(the_round.round_id), result=str(plan.result),
                              previous_result=str(the_round.result),
                              version=the_round.version + len(events))


def _check_jackpot_cards_kept(the_round: Round, game: str, outcome: dict[str, Any]) -> None:
    """A correction may not change the cards that decided a jackpot chip: the pool paid on
    them (prizes the cage may have paid). The jackpot's own correction is an approved meter
    correction (the four-eyes kind ``jackpot_meter_correction``)."""
    if the_round.options.get("jackpot") is None:
        return
    seats = set(JackpotBet.objects.filter(round_id=the_round.round_id)
                .values_list("seat", flat=True))
    before = the_round.outcome or {}
    changed = sorted(seat for seat in seats if jp.jackpot_cards(game, before, seat)
                     != jp.jackpot_cards(game, outcome, seat))
    if changed:
        raise Conflict("the correction changes the cards that decided the jackpot chips of "
                       "seats {changed}, which the pool has paid on: correct the rest of the "
                       "round only, and the jackpot by an approved meter correction",
                       params={"changed": changed},
                       code="jackpot_decided", seats=changed)


@command("round_record", reads=whole_round_reads)
@_rule_refusals
def round_record(*, session_id: str, bets: Sequence[dict[str, Any]], outcome: dict[str, Any],
                 metadata: Metadata, round_id: str | None = None,
                 jackpot_bets: Sequence[dict[str, Any]] = ()) -> RoundRecordAnswer:
    """A whole round in one command, as an electronic table sends it: open, bets, no more bets,
    outcome and settlement, in one append.

    ``jackpot_bets``: the jackpot chips placed before the deal (as ``jackpot_bet_place`` takes
    them; at blackjack a seat split more than once also gives its first cards in dealing order,
    ``cards``); the pool's coup is recorded right after the round's append."""
    session, table = session_and_table(session_id)
    check_casino(metadata, session.casino_id)
    new_id = round_id or str(uuid.uuid4())

    options, pool_id = jp.round_options(table)
    initial = [b for b in bets if b.get("type") not in DECISION_STAKES.get(table.game, ())]
    later = [b for b in bets if b.get("type") in DECISION_STAKES.get(table.game, ())]
    events, placed = _open_events(table, session, new_id, initial, options, whole=True)
    if later:
        decided = bet_rules.new_bets(_table_rules(table), options, later, placed,
                                 stage="decision", whole=True)
        events += [_placed(b, new_id) for b in decided]
        placed += decided
    chips: list[JackpotBetPlaced] = []
    if jackpot_bets:
        if pool_id is None:
            raise Conflict("table {code} feeds no jackpot pool: there is no jackpot "
                           "to bet on",
                           params={"code": table.code}, code="no_jackpot", table=table.code)
        chips = jp.new_jackpot_bets(
            game=table.game, seats=table.seats, options=options, round_id=new_id,
            pool_id=pool_id, specs=jackpot_bets,
            main_bets=[(b.seat, b.player, b.bet_type) for b in placed], placed=[],
            used_ids={b.bet_id for b in placed}, allow_cards=True)
        events += chips
    events.append(BettingClosed(round_id=new_id))
    point = session.craps_point if table.game == "craps" else None
    prepared = outcomes.prepare_outcome(table.game, outcome, point, {})
    settled = settlement_rules.settle(table.game, options, prepared, placed, {})
    events.append(OutcomeRecorded(round_id=new_id, outcome=prepared))
    plan = _settlement(table, new_id, str(session.session_id), settled, placed)
    events += plan.events
    answer = RoundRecordAnswer(round_id=new_id, number=session.rounds + 1,
                               result=str(plan.result), prizes=str(plan.prizes),
                               handle=str(plan.handle))
    store.append(f"round/{new_id}", events, expected_version=0, metadata=metadata,
                 answer=None if chips else answer)
    if chips:  # the pool's coup, with the round (docs/jackpots.md § Integration)
        assert pool_id is not None
        given = [{"id": c.bet_id, "seat": c.seat, "player": c.player, "amount": fmt(c.amount)}
                 | ({"cards": spec["cards"]} if "cards" in spec else {})
                 for c, spec in zip(chips, jackpot_bets, strict=True)]
        answer = dataclasses.replace(answer, jackpot=jp.coup_record(
            round_id=new_id, bets=given, pool_id=pool_id, metadata=metadata))
    return answer
