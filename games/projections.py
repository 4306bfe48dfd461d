"""Projections of the pit's events: tables, drop definitions, table sessions, slips, rounds and
bets, gaming days. Live (applied in the appending transaction) and rebuildable.

Cage events: ``FillIssued`` and ``CreditReceived`` (the cage's, on its own streams) are read by
type name and ``recorded.data`` keys only (``slip``, ``shift_id``, ``window``); their casino is
the event's metadata casino. A fill counts in the table's float when the cage issues it; a credit
counts when the pit requests it (the chips leave the table then), and comes back if the credit
slip is voided.

The session and gaming-day projections read ``Slip`` and ``TableSession`` rows for facts fixed
before the event they handle (a slip's session and chips; a closed session's figures), which a
replay in event order reproduces.
"""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import F, Sum

from casino import prepared
from casino.eventstore.projections import Projection, handles, register
from casino.eventstore.store import RecordedEvent

from . import play
from .models import (
    Bet,
    DropDefinition,
    GamingDayResult,
    JackpotBet,
    JackpotBetStatus,
    Round,
    RoundStatus,
    SessionStatus,
    Slip,
    SlipKind,
    SlipStatus,
    Table,
    TableSession,
)

ZERO = Decimal("0.00")
HUNDRED = Decimal(100)


def _dec(value: Any) -> Decimal:
    return Decimal(str(value)) if value is not None else ZERO


def _chips_add(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    out = dict(a)
    for denomination, pieces in b.items():
        out[denomination] = out.get(denomination, 0) + sign * pieces
    return {d: n for d, n in sorted(out.items(), key=lambda kv: Decimal(kv[0]), reverse=True)
            if n}


def _casino(recorded: RecordedEvent) -> str:
    return str(recorded.metadata.get("casino", ""))


@register
class TableProjection(Projection):
    name = "tables"
    models = (Table,)

    @handles("TableConfigured")
    def configured(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        Table.objects.create(
            casino_id=d["casino"], code=d["code"], name=d["name"], game=d["game"],
            options=d["options"], seats=d["seats"], chip_set=d["chip_set"], limits=d["limits"],
            max_prize_per_coup=d.get("max_prize_per_coup"), version=recorded.version)

    def _table(self, recorded: RecordedEvent) -> Any:
        casino, _, code = recorded.stream_id.partition(".")
        return Table.objects.filter(casino_id=casino, code=code)

    @handles("TableLimitsChanged")
    def limits_changed(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        self._table(recorded).update(limits=d["limits"],
                                     max_prize_per_coup=d.get("max_prize_per_coup"),
                                     version=recorded.version)

    @handles("TableOptionsChanged")
    def options_changed(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        self._table(recorded).update(options=d["options"], seats=d["seats"],
                                     version=recorded.version)

    @handles("TableSessionOpened")
    def session_opened(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        Table.objects.filter(casino_id=d["casino"], code=d["table"]).update(
            open_session_id=d["session_id"])

    @handles("TableSessionClosed")
    def session_closed(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        Table.objects.filter(casino_id=_casino(recorded), code=d["table"]).update(
            open_session_id=None, last_session_id=d["session_id"], last_closing=d["closing"])


@register
class DropDefinitionProjection(Projection):
    name = "drop_definitions"
    models = (DropDefinition,)

    @handles("DropDefinitionSet")
    def set(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        DropDefinition.objects.create(casino_id=d["casino"], version=recorded.version,
                                      basis=d["basis"], reason=d["reason"],
                                      set_by=recorded.metadata.get("actor", ""),
                                      set_at=recorded.recorded_at)


def _close_figures(s: TableSession) -> None:
    """Table win = drop + closing - opening + credits - fills, and what goes with it."""
    if s.status != SessionStatus.CLOSED or s.closing_amount is None:
        return
    drop = s.drop_counted if s.drop_basis == "counted" else s.drop_recorded
    s.drop = drop or ZERO
    s.table_win = s.drop + s.closing_amount - s.opening_amount + s.credits_amount - s.fills_amount
    s.variance = s.table_win - s.round_result
    s.hold_percent = (s.table_win / s.drop * HUNDRED).quantize(Decimal("0.0001")) if s.drop else None
    s.win_handle_percent = ((s.table_win / s.handle * HUNDRED).quantize(Decimal("0.0001"))
                            if s.handle else None)


@register
class TableSessionProjection(Projection):
    name = "table_sessions"
    models = (TableSession,)
    # These handlers change the session row from the event alone (the pit's hot path): their
    # statement goes with the event store's INSERT.
    deferred = frozenset({"RoundOpened", "RoundSettled"})

    def _get(self, session_id: str) -> TableSession:
        return TableSession.objects.get(session_id=session_id)

    def _save(self, s: TableSession, recorded: RecordedEvent | None = None) -> None:
        if recorded is not None and recorded.stream_type == "table_session":
            s.version = recorded.version
        _close_figures(s)
        s.save()

    @handles("TableSessionOpened")
    def opened(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        TableSession.objects.create(
            session_id=d["session_id"], casino_id=d["casino"], table=d["table"], game=d["game"],
            gaming_day=d["gaming_day"], status=SessionStatus.OPEN,
            opened_at=recorded.recorded_at, opened_by=recorded.metadata.get("actor", ""),
            previous_session_id=d.get("previous_session_id"), opening=d["opening"],
            opening_amount=_dec(d["opening_amount"]), roll_difference=d.get("roll_difference", {}),
            float_chips=d["opening"], version=recorded.version)

    @handles("FillRequested")
    def fill_requested(self, recorded: RecordedEvent) -> None:
        s = self._get(recorded.data["session_id"])
        s.fills_requested_amount += _dec(recorded.data["amount"])
        self._save(s, recorded)

    @handles("CreditRequested")
    def credit_requested(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        s.float_chips = _chips_add(s.float_chips, d["chips"], -1)
        s.credits_amount += _dec(d["amount"])
        self._save(s, recorded)

    @handles("SlipVoided")
    def slip_voided(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        if d["kind"] == SlipKind.CREDIT:  # the chips never left
            s.float_chips = _chips_add(s.float_chips, d.get("chips", {}))
            s.credits_amount -= _dec(d.get("amount"))
        else:
            s.fills_requested_amount -= _dec(d.get("amount"))
        self._save(s, recorded)

    @handles("FillIssued")
    def fill_issued(self, recorded: RecordedEvent) -> None:
        slip = Slip.objects.filter(casino_id=_casino(recorded), kind=SlipKind.FILL,
                                   number=str(recorded.data["slip"])).first()
        if slip is None:
            return
        s = self._get(str(slip.session_id))
        s.float_chips = _chips_add(s.float_chips, slip.chips)
        s.fills_amount += slip.amount
        s.fills_requested_amount -= slip.amount
        self._save(s)

    @handles("DropRecorded")
    def drop_recorded(self, recorded: RecordedEvent) -> None:
        s = self._get(recorded.data["session_id"])
        s.drop_recorded += _dec(recorded.data["amount"])
        self._save(s, recorded)

    @handles("ColourChipsIssued")
    def colour_issued(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        held = s.colour_chips.get(d["colour"], {"player": d["player"], "value": d["chip_value"],
                                                "chips": 0})
        held["chips"] += d["chips"]
        s.colour_chips = {**s.colour_chips, d["colour"]: held}
        s.colour_chips_in += _dec(d["amount"])
        self._save(s, recorded)

    @handles("ColourChipsExchanged")
    def colour_exchanged(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        colours = dict(s.colour_chips)
        held = dict(colours[d["colour"]])
        held["chips"] -= d["chips"]
        if held["chips"] > 0:
            colours[d["colour"]] = held
        else:
            colours.pop(d["colour"])
        s.colour_chips = colours
        s.colour_chips_out += _dec(d["amount"])
        self._save(s, recorded)

    @handles("DropCounted")
    def drop_counted(self, recorded: RecordedEvent) -> None:
        s = self._get(recorded.data["session_id"])
        s.drop_counted = _dec(recorded.data["amount"])
        self._save(s, recorded)

    @handles("TableSessionClosed")
    def closed(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        s.status = SessionStatus.CLOSED
        s.closing = d["closing"]
        s.closing_amount = _dec(d["closing_amount"])
        s.drop_basis = d["drop_basis"]
        s.drop_definition_version = d["drop_definition_version"]
        s.closed_at = recorded.recorded_at
        s.closed_by = recorded.metadata.get("actor", "")
        s.pending_bets = []
        self._save(s, recorded)

    _ROUND_OPENED = ("UPDATE games_tablesession SET rounds = rounds + 1, current_round_id = %s "
                     "WHERE session_id = %s")
    _ROUND_SETTLED = ("UPDATE games_tablesession SET handle = handle + %s, "
                      "round_result = round_result + %s, pending_bets = pending_bets || %s::jsonb, "
                      "craps_point = %s::smallint, current_round_id = NULL WHERE session_id = %s")
    # A round opened and settled in one append (a whole round): one UPDATE for both.
    _ROUND_PLAYED = ("UPDATE games_tablesession SET rounds = rounds + 1, handle = handle + %s, "
                     "round_result = round_result + %s, pending_bets = pending_bets || %s::jsonb, "
                     "craps_point = %s::smallint, current_round_id = NULL WHERE session_id = %s")

    @handles("RoundOpened")
    def round_opened(self, recorded: RecordedEvent) -> None:
        self.queue(self._ROUND_OPENED,
                   [uuid.UUID(recorded.data["round_id"]), uuid.UUID(recorded.data["session_id"])])

    @handles("BetCarried")
    def bet_carried(self, recorded: RecordedEvent) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_tablesession SET pending_bets = (SELECT coalesce(jsonb_agg(p), "
                "'[]'::jsonb) FROM jsonb_array_elements(pending_bets) AS p "
                "WHERE p->>'bet_id' <> %s) "
                "WHERE session_id = (SELECT session_id FROM games_round WHERE round_id = %s)",
                [recorded.data["bet_id"], recorded.data["round_id"]])

    @handles("RoundSettled")
    def round_settled(self, recorded: RecordedEvent) -> None:
        # One statement: this runs for every round (the hot path of the pit).
        d = recorded.data
        session_id = uuid.UUID(d["session_id"])
        if d.get("correction"):
            query = ("UPDATE games_tablesession SET round_result = round_result + %s "
                     "WHERE session_id = %s")
            params: list[Any] = [_dec(d.get("result_delta")), session_id]
        else:
            query = self._ROUND_SETTLED
            params = [_dec(d["handle"]), _dec(d["result"]), json.dumps(d.get("pending", [])),
                      d.get("point_after"), session_id]
            queued = self.queued()
            if (queued and queued[-1][0] == self._ROUND_OPENED
                    and queued[-1][1][1] == session_id):
                queued.pop()  # the same round's opening, still queued: fold it in
                query = self._ROUND_PLAYED
        self.queue(query, params)

    @handles("RoundVoided")
    def round_voided(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        s = self._get(d["session_id"])
        s.rounds_voided += 1
        s.pending_bets = [*s.pending_bets, *d.get("carried_back", [])]
        s.current_round_id = None
        self._save(s)


@register
class SlipProjection(Projection):
    name = "slips"
    models = (Slip,)

    @handles("FillRequested", "CreditRequested")
    def requested(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        Slip.objects.create(
            casino_id=_casino(recorded),
            kind=SlipKind.FILL if recorded.event_type == "FillRequested" else SlipKind.CREDIT,
            number=d["slip"], session_id=d["session_id"], table=d["table"],
            chip_set=d.get("chip_set", ""), chips=d["chips"],
            amount=_dec(d["amount"]), status=SlipStatus.REQUESTED,
            requested_at=recorded.recorded_at, requested_by=recorded.metadata.get("actor", ""))

    @handles("SlipVoided")
    def voided(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        Slip.objects.filter(casino_id=_casino(recorded), kind=d["kind"], number=d["slip"]).update(
            status=SlipStatus.VOIDED, void_reason=d["reason"])

    @handles("FillIssued")
    def fill_issued(self, recorded: RecordedEvent) -> None:
        self._cage(recorded, SlipKind.FILL, SlipStatus.ISSUED)

    @handles("CreditReceived")
    def credit_received(self, recorded: RecordedEvent) -> None:
        self._cage(recorded, SlipKind.CREDIT, SlipStatus.RECEIVED)

    def _cage(self, recorded: RecordedEvent, kind: str, status: str) -> None:
        d = recorded.data
        shift = d.get("shift_id")
        Slip.objects.filter(casino_id=_casino(recorded), kind=kind, number=str(d["slip"])).update(
            status=status, shift_id=str(shift) if shift is not None else None,
            window=str(d.get("window") or ""))


class _NewRound:
    """A round opened by the append being applied, and its bets: the rows ``flush`` inserts."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.fields = fields
        self.bets: dict[str, dict[str, Any]] = {}


@register
class RoundProjection(Projection):
    name = "rounds"
    models = (Round, Bet, JackpotBet)

    def _round(self, recorded: RecordedEvent) -> Any:
        return Round.objects.filter(round_id=recorded.data["round_id"])

    # A round opened in the append being applied is kept back (``_NewRound``): its bets, no more
    # bets, outcome and settlement change it in memory, and ``flush`` writes the round and its
    # bets in two INSERTs. The pit's hot path (a round opened with its bets; a whole round from an
    # electronic table) then costs two statements instead of one per event. Any other handler
    # writes the new round first, then changes the tables as before.

    # The handlers of the pit's hot path read no table: they change the new round, or queue
    # their statement (``queue``), and the event store sends it all with its INSERT.
    deferred = frozenset({"RoundOpened", "BetPlaced", "BetCarried", "BettingClosed",
                          "OutcomeRecorded", "RoundCorrected", "BetSettled", "RoundSettled"})

    def take_queued(self) -> list[prepared.Statement]:
        statements = []
        pending: _NewRound | None = self.state().pop("new_round", None)
        if pending is not None:
            sql, params = prepared.insert(Round, [pending.fields])
            if pending.bets:  # one statement: the round in a WITH, then its bets
                bets_sql, bets_params = prepared.insert(Bet, list(pending.bets.values()))
                sql, params = f"WITH new_round AS ({sql}) {bets_sql}", params + bets_params
            statements.append((sql, params))
        return statements + super().take_queued()

    def _settlements(self) -> list[tuple[Any, ...]]:
        """The ``BetSettled`` rows of the append being applied (see ``bet_settled``)."""
        rows: list[tuple[Any, ...]] = self.state().setdefault("settlements", [])
        return rows

    def _new_round(self, recorded: RecordedEvent) -> _NewRound | None:
        """The round of ``recorded`` if this append opened it; else write any new round."""
        pending: _NewRound | None = self.state().get("new_round")
        if pending is not None and pending.fields["round_id"] == recorded.data["round_id"]:
            return pending
        self.flush()
        return None

    @handles("RoundOpened")
    def opened(self, recorded: RecordedEvent) -> None:
        self.flush()  # a round new from before (not in one append with this one)
        d = recorded.data
        self.state()["new_round"] = _NewRound(dict(
            round_id=d["round_id"], session_id=d["session_id"], casino_id=d["casino"],
            table=d["table"], game=d["game"], options=d["options"], number=d["number"],
            status=RoundStatus.BETTING, point=d.get("point"), opened_at=recorded.recorded_at,
            opened_by=recorded.metadata.get("actor", ""), version=recorded.version))

    @handles("BetPlaced", "BetCarried")
    def bet(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        new = self._new_round(recorded)
        if new is not None:
            new.fields["version"] = recorded.version
            new.bets[d["bet_id"]] = dict(
                round_id=d["round_id"], bet_id=d["bet_id"], session_id=new.fields["session_id"],
                seat=d["seat"], player=d["player"], bet_type=d["bet"]["type"], bet=d["bet"],
                amount=_dec(d["amount"]), stage=d.get("stage", "carried"), base=d.get("base"),
                hand_key=d.get("hand_key"), carried_from=d.get("from_round_id"),
                withdrawn=False, status="")
            return
        # One statement: bump the round's version, insert the bet.
        self.queue(
            "WITH r AS (UPDATE games_round SET version = %s WHERE round_id = %s "
            "RETURNING session_id) "
            "INSERT INTO games_bet (round_id, bet_id, session_id, seat, player, bet_type, bet, "
            "amount, stage, base, hand_key, carried_from, withdrawn, status) "
            "SELECT %s, %s, r.session_id, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s, false, '' "
            "FROM r",
            [recorded.version, d["round_id"], d["round_id"], d["bet_id"], d["seat"],
             d["player"], d["bet"]["type"], json.dumps(d["bet"]), _dec(d["amount"]),
             d.get("stage", "carried"), d.get("base"), d.get("hand_key"),
             d.get("from_round_id")])

    @handles("JackpotBetPlaced")
    def jackpot_bet(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        session_id = self._round(recorded).values_list("session_id", flat=True).get()
        JackpotBet.objects.create(
            round_id=d["round_id"], bet_id=d["bet_id"], session_id=session_id, seat=d["seat"],
            player=d["player"], amount=_dec(d["amount"]), pool_id=d["pool_id"])
        self._round(recorded).update(version=recorded.version,
                                     jackpot_amount=F("jackpot_amount") + _dec(d["amount"]))

    @handles("JackpotCoupSettled")
    def jackpot_coup(self, recorded: RecordedEvent) -> None:
        """The pool's coup of a round (on the pool's stream) decides the round's jackpot chips:
        won or lost, or, for a void round, in the pool and decided by nothing."""
        d = recorded.data
        try:
            round_id = uuid.UUID(str(d["round_id"]))
        except ValueError:
            return  # a coup recorded for a round the pit does not keep
        void = bool(d["request"].get("void"))
        prizes = ZERO
        for line in d["result"]["bets"]:
            prize = _dec(line["prize"])
            prizes += prize
            status = (JackpotBetStatus.VOID if void else JackpotBetStatus.WON
                      if line["combination"] else JackpotBetStatus.LOST)
            JackpotBet.objects.filter(round_id=round_id, bet_id=line["id"]).update(
                status=status, combination=line["combination"] or "", prize=prize)
        Round.objects.filter(round_id=round_id).update(jackpot_prizes=prizes)

    @handles("BetWithdrawn")
    def withdrawn(self, recorded: RecordedEvent) -> None:
        Bet.objects.filter(round_id=recorded.data["round_id"],
                           bet_id=recorded.data["bet_id"]).update(withdrawn=True)
        self._round(recorded).update(version=recorded.version)

    @handles("BettingClosed")
    def betting_closed(self, recorded: RecordedEvent) -> None:
        new = self._new_round(recorded)
        if new is not None:
            new.fields.update(status=RoundStatus.CLOSED, version=recorded.version)
            return
        self.queue("UPDATE games_round SET status = %s, version = %s WHERE round_id = %s",
                   [RoundStatus.CLOSED, recorded.version, recorded.data["round_id"]])

    @handles("CardsDealt")
    def dealt(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        self._round(recorded).update(play=play.deal(d["upcard"], d["seats"]),
                                     version=recorded.version)

    @handles("DecisionRecorded")
    def decision(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        the_round = Round.objects.get(round_id=d["round_id"])
        the_round.play = play.apply_decision(the_round.play, d["seat"], d["hand"], d["decision"],
                                             d.get("cards", []))
        the_round.version = recorded.version
        the_round.save(update_fields=["play", "version"])
        if d["decision"] == "even_money" and d.get("bet_id"):
            bet = Bet.objects.get(round_id=d["round_id"], bet_id=d["bet_id"])
            bet.bet = {**bet.bet, "even_money": True}
            bet.save(update_fields=["bet"])

    @handles("OutcomeRecorded", "RoundCorrected")
    def outcome(self, recorded: RecordedEvent) -> None:
        new = self._new_round(recorded) if recorded.event_type == "OutcomeRecorded" else None
        if new is not None:
            new.fields.update(outcome=recorded.data["outcome"], outcome_version=recorded.version,
                               outcome_by=recorded.metadata.get("actor", ""),
                               version=recorded.version, status=RoundStatus.OUTCOME)
            return
        # A correction keeps the status (settled): its RoundSettled re-settles the round.
        correction = recorded.event_type == "RoundCorrected"
        self.queue(
            "UPDATE games_round SET outcome = %s::jsonb, outcome_version = %s, outcome_by = %s, "
            "version = %s, status = coalesce(%s, status), "
            "corrections = corrections + %s WHERE round_id = %s",
            [json.dumps(recorded.data["outcome"]), recorded.version,
             recorded.metadata.get("actor", ""), recorded.version,
             None if correction else RoundStatus.OUTCOME, 1 if correction else 0,
             recorded.data["round_id"]])

    @handles("BetSettled")
    def bet_settled(self, recorded: RecordedEvent) -> None:
        """Kept until the ``RoundSettled`` that closes the same append, then written in one
        statement. The services always append a round's ``BetSettled`` events followed by its
        ``RoundSettled``, in one append (so also in one replay): anything else in the buffer is
        left from a rolled-back transaction and is dropped."""
        d = recorded.data
        pending = self._settlements()
        if pending and (pending[0][0] != d["round_id"] or pending[-1][7] >= recorded.version):
            pending.clear()
        pending.append((d["round_id"], d["bet_id"], d["status"], _dec(d["win"]),
                        _dec(d["returned"]), d.get("point"), d.get("capped_win"),
                        recorded.version))

    @handles("RoundSettled")
    def settled(self, recorded: RecordedEvent) -> None:
        d = recorded.data
        pending = [row for row in self._settlements()
                   if row[0] == d["round_id"] and row[7] < recorded.version]
        self._settlements().clear()
        new = None if d.get("correction") else self._new_round(recorded)
        if new is not None:
            for _, bet_id, status, win, returned, point, capped_win, version in pending:
                new.bets[bet_id].update(
                    status=status, win=win, returned=returned, point=point,
                    capped_win=None if capped_win is None else Decimal(capped_win),
                    settled_version=version)
            new.fields.update(
                status=RoundStatus.SETTLED, result=_dec(d["result"]), prizes=_dec(d["prizes"]),
                version=recorded.version, settled_outcome=new.fields.get("outcome"),
                handle=_dec(d["handle"]), stakes=d.get("stakes", {}))
            return
        if pending:
            columns = list(zip(*pending, strict=True))
            self.queue(
                "UPDATE games_bet AS b SET status = v.status, win = v.win, "
                "returned = v.returned, point = v.point, capped_win = v.capped_win, "
                "settled_version = v.version "
                "FROM unnest(%s::text[], %s::text[], %s::numeric[], %s::numeric[], "
                "%s::smallint[], %s::numeric[], %s::integer[]) "
                "AS v(bet_id, status, win, returned, point, capped_win, version) "
                "WHERE b.round_id = %s AND b.bet_id = v.bet_id",
                [list(columns[1]), list(columns[2]), list(columns[3]), list(columns[4]),
                 list(columns[5]), [None if c is None else Decimal(c) for c in columns[6]],
                 list(columns[7]), d["round_id"]])
        if d.get("correction"):
            self.queue(
                "UPDATE games_round SET status = %s, result = %s, prizes = %s, version = %s, "
                "settled_outcome = outcome WHERE round_id = %s",
                [RoundStatus.SETTLED, _dec(d["result"]), _dec(d["prizes"]), recorded.version,
                 d["round_id"]])
        else:
            self.queue(
                "UPDATE games_round SET status = %s, result = %s, prizes = %s, version = %s, "
                "settled_outcome = outcome, handle = %s, stakes = %s::jsonb "
                "WHERE round_id = %s",
                [RoundStatus.SETTLED, _dec(d["result"]), _dec(d["prizes"]), recorded.version,
                 _dec(d["handle"]), json.dumps(d.get("stakes", {})), d["round_id"]])

    @handles("RoundVoided")
    def voided(self, recorded: RecordedEvent) -> None:
        changes: dict[str, Any] = {"status": RoundStatus.VOIDED,
                                   "void_reason": recorded.data["reason"],
                                   "version": recorded.version}
        # Jackpot chips still on the layout (no "nada mais" yet) go back to their players; once
        # collected they are in the pool (BJ n.º 48, SP n.º 16: docs/jackpots.md § Void rounds).
        if self._round(recorded).filter(status=RoundStatus.BETTING, jackpot_amount__gt=0).exists():
            JackpotBet.objects.filter(round_id=recorded.data["round_id"]).update(
                status=JackpotBetStatus.RETURNED)
            changes["jackpot_amount"] = ZERO
        self._round(recorded).update(**changes)


@register
class GamingDayProjection(Projection):
    """Results by table and gaming day, summed over the table's closed sessions that day."""

    name = "gaming_days"
    models = (GamingDayResult,)

    @handles("TableSessionClosed")
    def closed(self, recorded: RecordedEvent) -> None:
        self._recompute(str(recorded.data["session_id"]))

    @handles("FillIssued")
    def late_fill(self, recorded: RecordedEvent) -> None:
        slip = Slip.objects.filter(casino_id=_casino(recorded), kind=SlipKind.FILL,
                                   number=str(recorded.data["slip"])).first()
        if slip is not None and TableSession.objects.filter(
                session_id=slip.session_id, status=SessionStatus.CLOSED).exists():
            self._recompute(str(slip.session_id))

    @handles("SlipVoided")
    def late_void(self, recorded: RecordedEvent) -> None:
        session_id = str(recorded.data["session_id"])
        if TableSession.objects.filter(session_id=session_id,
                                       status=SessionStatus.CLOSED).exists():
            self._recompute(session_id)

    def _recompute(self, session_id: str) -> None:
        s = TableSession.objects.get(session_id=session_id)
        sessions = TableSession.objects.filter(casino_id=s.casino_id, gaming_day=s.gaming_day,
                                               table=s.table, status=SessionStatus.CLOSED)
        sums = sessions.aggregate(
            opening=Sum("opening_amount"), closing=Sum("closing_amount"),
            fills=Sum("fills_amount"), credits=Sum("credits_amount"), drop=Sum("drop"),
            handle=Sum("handle"), result=Sum("round_result"), win=Sum("table_win"),
            rounds=Sum(F("rounds") - F("rounds_voided")))
        GamingDayResult.objects.update_or_create(
            casino_id=s.casino_id, gaming_day=s.gaming_day, table=s.table,
            defaults={"game": s.game, "sessions": sessions.count(), "rounds": sums["rounds"] or 0,
                      "opening_amount": sums["opening"] or ZERO,
                      "closing_amount": sums["closing"] or ZERO, "fills": sums["fills"] or ZERO,
                      "credits": sums["credits"] or ZERO, "drop": sums["drop"] or ZERO,
                      "handle": sums["handle"] or ZERO, "round_result": sums["result"] or ZERO,
                      "table_win": sums["win"] or ZERO})
