"""Tournaments (Portaria 401/2015; PR-3, PR-4 of ``docs/poker-room.md``): the structure, the
registrations (late ones within the late registration levels), re-buys and add-ons,
eliminations, the results with the prizes by the payout table, and the prizes paid at the cage
against the results, the patron identified above the anti-money-laundering threshold."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotFound, kind_words
from casino.money import Money, fmt
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata
from pokerroom.events import (
    TournamentAnnounced,
    TournamentChipsBought,
    TournamentEntered,
    TournamentFinished,
    TournamentPlayerEliminated,
    TournamentPrizePaid,
    TournamentStarted,
)
from pokerroom.models import Tournament, TournamentEntry
from pokerroom.rules import payout
from pokerroom.rules.errors import RuleError

from ..answers import EntryAnswer, PrizeAnswer, ResultsAnswer, TournamentAnswer
from ._common import (
    CAGE_ROLES,
    CASH_GAMES,
    FLOOR_ROLES,
    code,
    identification_threshold,
    patron_reference,
    percent,
    refused,
    same_casino,
    tournament_get,
)

ZERO = Money(Decimal("0.00"))


def stream(casino: str, tournament: str) -> str:
    return f"tournament/{casino}.{tournament}"


def structure_of(found: Tournament) -> payout.Structure:
    return payout.Structure(buy_in=found.buy_in, entry_fee=found.entry_fee, rebuy=found.rebuy,
                            rebuy_fee=found.rebuy_fee, addon=found.addon,
                            addon_fee=found.addon_fee, guarantee=found.guarantee)


@command("tournament_announce")
def tournament_announce(
    *, casino: str, tournament: str, game: str, buy_in: Money, entry_fee: Money,
    payout_percents: Sequence[object], approval_reference: str, rebuy: Money = ZERO,
    rebuy_fee: Money = ZERO, addon: Money = ZERO, addon_fee: Money = ZERO,
    guarantee: Money = ZERO, late_registration_levels: int = 0, level_minutes: int = 20,
    metadata: Metadata,
) -> TournamentAnswer:
    """Announce a tournament with its structure and payout table (the percentages by place must
    sum to 100: PR-4), approved under ``approval_reference``."""
    require_role(metadata, FLOOR_ROLES, "announcing a tournament")
    same_casino(metadata, casino)
    code(tournament, field="tournament")
    if game not in CASH_GAMES:
        raise InvalidCommand("a tournament plays hold'em, omaha or póquer sintético, not "
                             "{game!r}", params={"game": game}, field="game")
    if not isinstance(payout_percents, Sequence) or isinstance(payout_percents, str):
        raise InvalidCommand("payout_percents is a list of percentages by place",
                             field="payout_percents")
    percents = tuple(percent(p, field="payout_percents") for p in payout_percents)
    try:
        payout.split_pool(ZERO, percents)  # the table itself: places paid, sum 100
    except RuleError as error:
        raise refused(error, field="payout_percents") from None
    if not isinstance(approval_reference, str) or not approval_reference.strip():
        raise InvalidCommand("a tournament's structure needs its approval reference (PR-3)",
                             field="approval_reference")
    for name, value in (("late_registration_levels", late_registration_levels),
                        ("level_minutes", level_minutes)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 600:
            raise InvalidCommand("{name} is a whole number", params={"name": name}, field=name)
    if Tournament.objects.filter(casino_id=casino, code=tournament).exists():
        raise Conflict("tournament {tournament!r} already exists", code="tournament_exists",
                       params={"tournament": tournament})
    version = store.append(stream(casino, tournament), [TournamentAnnounced(
        casino=casino, tournament=tournament, game=game, buy_in=buy_in, entry_fee=entry_fee,
        rebuy=rebuy, rebuy_fee=rebuy_fee, addon=addon, addon_fee=addon_fee,
        guarantee=guarantee, payout_percents=percents,
        late_registration_levels=late_registration_levels, level_minutes=level_minutes,
        approval_reference=approval_reference.strip())], expected_version=0,
        metadata=metadata)[-1].version
    return TournamentAnswer(casino=casino, tournament=tournament, version=version)


def _late_until(found: Tournament) -> dt.datetime | None:
    if found.started_at is None:
        return None
    return found.started_at + dt.timedelta(
        minutes=found.late_registration_levels * found.level_minutes)


@command("tournament_register")
def tournament_register(*, casino: str, tournament: str, patron: str = "",
                        now: dt.datetime | None = None, metadata: Metadata) -> EntryAnswer:
    """An entry: the buy-in to the pool, the fee to the house. After the start only within the
    late registration levels (``now``: the moment, for tests and batches; default the clock)."""
    require_role(metadata, FLOOR_ROLES, "registering a player")
    same_casino(metadata, casino)
    found = tournament_get(casino, tournament, lock=True)
    reference = patron_reference(patron)
    late = found.status == "running"
    if found.status == "finished":
        raise Conflict("tournament {tournament} is finished", code="tournament_finished",
                       params={"tournament": tournament})
    if late:
        until = _late_until(found)
        moment = now or clock.now()
        if until is None or moment > until or found.remaining < 2:
            raise Conflict("late registration to {tournament} is closed", code="late_closed",
                           params={"tournament": tournament})
    entry = found.entries + 1
    version = store.append(stream(casino, tournament), [TournamentEntered(
        tournament=tournament, entry=entry, patron=reference, late=late, buy_in=found.buy_in,
        fee=found.entry_fee)], expected_version=found.version, metadata=metadata)[-1].version
    return EntryAnswer(casino=casino, tournament=tournament, entry=entry, late=late,
                       version=version)


@command("tournament_start")
def tournament_start(*, casino: str, tournament: str, metadata: Metadata) -> TournamentAnswer:
    require_role(metadata, FLOOR_ROLES, "starting a tournament")
    same_casino(metadata, casino)
    found = tournament_get(casino, tournament, lock=True)
    if found.status != "registering":
        raise Conflict("tournament {tournament} has started already", code="tournament_started",
                       params={"tournament": tournament})
    if found.entries < 2:
        raise Conflict("a tournament starts with two entries or more", code="too_few_entries")
    version = store.append(stream(casino, tournament), [TournamentStarted(tournament=tournament)],
                           expected_version=found.version, metadata=metadata)[-1].version
    return TournamentAnswer(casino=casino, tournament=tournament, version=version)


def _entry_in(found: Tournament, entry: object) -> TournamentEntry:
    if isinstance(entry, bool) or not isinstance(entry, int):
        raise InvalidCommand("entry is an entry number", field="entry")
    row = TournamentEntry.objects.filter(casino_id=found.casino_id, tournament=found.code,
                                         entry=entry).first()
    if row is None:
        raise NotFound("tournament {tournament} has no entry {entry}",
                       params={"tournament": found.code, "entry": entry}, field="entry")
    return row


@command("tournament_chips_buy")
def tournament_chips_buy(*, casino: str, tournament: str, entry: int, kind: str,
                         metadata: Metadata) -> TournamentAnswer:
    """A re-buy or an add-on of an entry still in, at the structure's price and fee."""
    require_role(metadata, FLOOR_ROLES, "a re-buy or an add-on")
    same_casino(metadata, casino)
    found = tournament_get(casino, tournament, lock=True)
    row = _entry_in(found, entry)
    if kind not in ("rebuy", "addon"):
        raise InvalidCommand("an entry after the start is a rebuy or an add-on", field="kind")
    amount, fee = (found.rebuy, found.rebuy_fee) if kind == "rebuy" else (found.addon,
                                                                          found.addon_fee)
    if amount <= 0:
        raise InvalidCommand("this tournament's structure has no {kind}",
                             params={"kind": kind_words(kind, "tournament entry")},
                             code="not_in_structure", field="kind")
    if found.status != "running" or row.place is not None:
        raise Conflict("re-buys and add-ons are for an entry still in a running tournament",
                       code="entry_not_in")
    version = store.append(stream(casino, tournament), [TournamentChipsBought(
        tournament=tournament, entry=row.entry, kind=kind, amount=amount, fee=fee)],
        expected_version=found.version, metadata=metadata)[-1].version
    return TournamentAnswer(casino=casino, tournament=tournament, version=version)


@command("tournament_eliminate")
def tournament_eliminate(*, casino: str, tournament: str, entry: int, metadata: Metadata
                         ) -> ResultsAnswer | TournamentAnswer:
    """An entry is out, in the place of the entries still in; when one is left it wins, and the
    results are fixed with the pool (PR-3) and the prizes by the payout table (PR-4)."""
    require_role(metadata, FLOOR_ROLES, "eliminating a player")
    same_casino(metadata, casino)
    found = tournament_get(casino, tournament, lock=True)
    row = _entry_in(found, entry)
    if found.status != "running" or row.place is not None:
        raise Conflict("entry {entry} is not in a running tournament", code="entry_not_in",
                       params={"entry": row.entry})
    place = found.remaining
    events: list[TournamentPlayerEliminated | TournamentFinished] = [
        TournamentPlayerEliminated(tournament=tournament, entry=row.entry, place=place)]
    finished = place == 2
    if finished:
        events.append(_results(found, out={row.entry: place}))
    version = store.append(stream(casino, tournament), events, expected_version=found.version,
                           metadata=metadata)[-1].version
    if finished:
        result = events[-1]
        assert isinstance(result, TournamentFinished)
        return ResultsAnswer(casino=casino, tournament=tournament, pool=fmt(result.pool),
                             overlay=fmt(result.overlay), prizes=list(result.results),
                             version=version)
    return TournamentAnswer(casino=casino, tournament=tournament, version=version)


def _results(found: Tournament, *, out: dict[int, int]) -> TournamentFinished:
    places = dict(TournamentEntry.objects.filter(
        casino_id=found.casino_id, tournament=found.code, place__isnull=False)
        .values_list("entry", "place"))
    places.update(out)
    winner = TournamentEntry.objects.filter(
        casino_id=found.casino_id, tournament=found.code, place__isnull=True).exclude(
        entry__in=list(out)).values_list("entry", flat=True)
    places[next(iter(winner))] = 1
    pool = payout.prize_pool(structure_of(found), entries=found.entries, rebuys=found.rebuys,
                             addons=found.addons)
    percents = [Decimal(p) for p in found.payout_percents][:len(places)]
    if sum(percents, ZERO) != 100:  # fewer finishers than places paid: the table scaled
        percents = [p * 100 / sum(percents, ZERO) for p in percents]
        percents[-1] = Decimal(100) - sum(percents[:-1], ZERO)
    prizes = payout.split_pool(pool.pool, percents)
    payout.check_prizes(pool.pool, prizes)
    by_place = {place: entry for entry, place in places.items()}
    return TournamentFinished(
        tournament=found.code, collected=pool.collected, pool=pool.pool, overlay=pool.overlay,
        fees=pool.fees, results=tuple(
            {"place": str(place), "entry": str(by_place[place]), "prize": fmt(prize)}
            for place, prize in enumerate(prizes, 1)))


@command("tournament_prize_pay")
def tournament_prize_pay(*, casino: str, tournament: str, entry: int, patron: str = "",
                         metadata: Metadata) -> PrizeAnswer:
    """Pay a prize at the cage against the results: only to an entry that finished in the
    money, once; at or above the anti-money-laundering threshold the patron must be identified
    (``compliance.thresholds``: Lei n.º 83/2017, art. 76.º; Macau, Instrução da DICJ 1/2016)."""
    require_role(metadata, CAGE_ROLES, "paying a tournament prize")
    same_casino(metadata, casino)
    found = tournament_get(casino, tournament, lock=True)
    row = _entry_in(found, entry)
    if found.status != "finished":
        raise Conflict("tournament {tournament} has no results yet", code="no_results",
                       params={"tournament": tournament})
    if row.prize <= 0:
        raise Conflict("entry {entry} finished {place}.º, out of the money: no prize to pay",
                       params={"entry": row.entry, "place": row.place}, code="no_prize")
    if row.paid:
        raise Conflict("the prize of entry {entry} is paid already", code="prize_paid",
                       params={"entry": row.entry})
    reference = patron_reference(patron) or row.patron
    threshold = identification_threshold(casino)
    if threshold is not None and row.prize >= threshold[0] and not reference:
        raise InvalidCommand(
            "a prize of {amount} is at or above {threshold}: identify the patron first "
            "({citation})",
            params={"amount": fmt(row.prize), "threshold": fmt(threshold[0]),
                    "citation": threshold[1]}, code="identification_required", field="patron")
    version = store.append(stream(casino, tournament), [TournamentPrizePaid(
        tournament=tournament, entry=row.entry, place=row.place or 0, amount=row.prize,
        patron=reference)], expected_version=found.version, metadata=metadata)[-1].version
    return PrizeAnswer(casino=casino, tournament=tournament, entry=row.entry,
                       place=row.place or 0, amount=fmt(row.prize), version=version)
