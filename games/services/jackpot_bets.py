"""The pit's side of the progressive jackpot (prémio acumulado): the round's options derived from
the pool, the jackpot chips placed before the deal, and the coup recorded with the round.

The pool is the one source of truth (``docs/jackpots.md``): a round of a blackjack or stud poker
table opens with the jackpot configuration in force in the pool the table feeds
(``options.jackpot``); a table's own options never carry one. A jackpot chip is not a bet of the
main game: the engine refuses the type, it adds nothing to the handle, and the pool's coup
(``jackpots.services.jackpot_round_settle``) decides it in the transaction that settles the round
(or voids it after the chips were collected).

Regulation: the chip is placed before the deal by a player who bet the main game there
(BJ n.º 45, SP n.º 16), one chip of exactly the pool's bet per player and coup (BJ n.º 47; at
stud poker one box per player, n.º 5), and collected at «jogo feito, nada mais», before any card
is dealt, the display incremented then (BJ n.os 41, 48; SP n.os 4, 16).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from casino.errors import Conflict, InvalidCommand
from casino.money import fmt, parse_amount
from eventstore.commands import in_command
from eventstore.records import Metadata
from games.answers import RoundJackpot, RoundJackpotPrize
from games.events import JackpotBetPlaced
from games.models import JackpotBet, JackpotBetStatus, Round, Table
from games.players import player_checked
from jackpots.models import JackpotTable
from jackpots.selectors import table_pool_at
from jackpots.services import jackpot_round_settle
from jackpots.services.rounds import hands_first_cards

#: Games whose tables may feed a jackpot pool (Portaria 217/2007, BJ n.º 38; SP n.º 3).
JACKPOT_GAMES = frozenset({"blackjack", "stud_poker"})
#: The main-game bets that let a player put a jackpot chip on their seat.
MAIN_BETS = {"blackjack": frozenset({"main", "back"}), "stud_poker": frozenset({"ante"})}

ARTICLE = {
    "main": {"blackjack": "Portaria 217/2007, blackjack/21, n.º 45",
             "stud_poker": "Portaria 217/2007, póquer sem descarte, n.º 16"},
    "one_chip": {"blackjack": "Portaria 217/2007, blackjack/21, n.º 47",
                 "stud_poker": "Portaria 217/2007, póquer sem descarte, n.os 5 and 16"},
    "amount": {"blackjack": "Portaria 217/2007, blackjack/21, n.os 40 and 47",
               "stud_poker": "Portaria 217/2007, póquer sem descarte, n.º 8"},
    "before_deal": {"blackjack": "Portaria 217/2007, blackjack/21, n.º 48",
                    "stud_poker": "Portaria 217/2007, póquer sem descarte, n.º 16"},
}
_FIELDS = frozenset({"seat", "player", "amount", "id", "type", "cards"})


@in_command
def round_options(table: Table) -> tuple[dict[str, Any], str | None]:
    """The options a round of ``table`` opens with, and the pool its jackpot chips feed.

    Blackjack and stud poker: the table's options with ``jackpot`` set to the configuration in
    force in the pool the table feeds, or without ``jackpot`` when it feeds none (a jackpot typed
    into a table's options is never used). A step of the command that opens the round.
    """
    if table.game not in JACKPOT_GAMES:
        return dict(table.options), None

    options = {k: v for k, v in table.options.items() if k != "jackpot"}
    if not JackpotTable.objects.filter(casino_id=table.casino_id, table=table.code).exists():
        return options, None
    # The trap: a pool's change takes effect at the moment it is recorded, a round's
    # configuration is the one in force when the round is recorded open. Reading the pool under
    # the store's append lock (which the opening command holds from its first round trip:
    # ``@in_command``) means no change can be recorded between this read and the round's
    # opening: the jackpot bets are checked, and the coup paid
    # (``jackpots.services.coups._config_for_round``), with this same configuration.
    found = table_pool_at(table.casino_id, table.code)
    if found is None:
        return options, None
    pool_id, version = found
    return options | {"jackpot": version.config["jackpot"]}, pool_id


def round_pool(the_round: Round) -> str:
    """The pool the round's table fed when the round opened; refused when there was none."""

    found = None
    if the_round.options.get("jackpot") is not None:
        found = table_pool_at(the_round.casino_id, the_round.table, the_round.opened_at)
    if found is None:
        raise Conflict("table {table} fed no jackpot pool when this round opened: "
                       "there is no jackpot to bet on",
                       params={"table": the_round.table}, code="no_jackpot",
                       table=the_round.table)
    return found[0]


def too_late(game: str, status: str) -> Conflict:
    """The refusal of a jackpot chip once betting is closed (or the round is over)."""
    article = ARTICLE["before_deal"].get(game, "Portaria 217/2007")
    return Conflict("jackpot chips are placed before the deal: at «jogo feito, nada mais» they "
                    "are collected and the cards dealt ({article})", params={"article": article},
                    code="betting_closed", article=article, status=status)


def new_jackpot_bets(*, game: str, seats: int, options: dict[str, Any], round_id: str,
                     pool_id: str, specs: Sequence[dict[str, Any]],
                     main_bets: Sequence[tuple[int, str, str]],
                     placed: Sequence[tuple[int, str]], used_ids: set[str],
                     allow_cards: bool = False) -> list[JackpotBetPlaced]:
    """Check jackpot chips ``specs`` (``{seat, player?, amount, id?}``) and make their events.

    ``main_bets``: the round's main-game bets as (seat, player, type); ``placed``: the jackpot
    chips already placed, (seat, player); ``used_ids``: the bet ids taken in the round.
    ``allow_cards``: a whole round may give a blackjack seat's first cards (the caller keeps them
    for the coup: ``jackpots.services.rounds``). The player defaults to the seat holder's."""
    if not isinstance(specs, list | tuple) or not specs:
        raise InvalidCommand("give one jackpot bet or more", field="jackpot_bets")
    chip = Decimal(options["jackpot"]["bet"])
    holders = {seat: player for seat, player, kind in main_bets
               if kind in ("main", "ante")}
    entitled = {(seat, player) for seat, player, kind in main_bets if kind in MAIN_BETS[game]}
    taken_players = {player for _, player in placed}
    taken_seats = {seat for seat, _ in placed}
    used = set(used_ids)
    fields = _FIELDS if allow_cards and game == "blackjack" else _FIELDS - {"cards"}
    events: list[JackpotBetPlaced] = []
    for index, spec in enumerate(specs):
        if not isinstance(spec, dict):
            raise InvalidCommand("jackpot bet {index} is not an object",
                                 params={"index": index + 1}, field="jackpot_bets")
        unknown = sorted(spec.keys() - fields)
        if unknown:
            raise InvalidCommand("a jackpot bet has no field {unknown!r}",
                                 params={"unknown": unknown[0]},
                                 field="jackpot_bets")
        if spec.get("type", "jackpot") != "jackpot":
            raise InvalidCommand("a jackpot bet's type is jackpot", field="type")
        seat = spec.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise InvalidCommand("each jackpot bet names the seat it is on (a number)",
                                 field="seat")
        if not 1 <= seat <= seats:
            raise InvalidCommand("this table has no seat {seat} (seats 1 to {seats})",
                                 params={"seat": seat, "seats": seats},
                                 code="no_such_seat", field="seat", seat=seat)
        player = player_checked(spec.get("player") or holders.get(seat) or f"seat-{seat}")
        amount = parse_amount(spec.get("amount"), field="amount")
        if amount != chip:
            raise InvalidCommand(
                "a jackpot bet is one chip of exactly {chip}, not {amount} "
                "({amount_2}: the amount fixed for the pool)",
                params={"chip": fmt(chip), "amount": fmt(amount), "amount_2": ARTICLE['amount'][game]},
                code="wrong_amount", field="amount", article=ARTICLE["amount"][game],
                amount=fmt(chip))
        if (seat, player) not in entitled:
            raise InvalidCommand(
                "{player} has no bet in the main game on seat {seat}: only a player who bet "
                "the main game may bet the jackpot ({main})",
                params={"player": player, "seat": seat, "main": ARTICLE['main'][game]},
                code="no_main_bet", field="seat", article=ARTICLE["main"][game], seat=seat)
        if player in taken_players or (game == "stud_poker" and seat in taken_seats):
            raise InvalidCommand(
                "{player} has a jackpot chip in this coup already: one chip per player and "
                "coup ({one_chip})",
                params={"player": player, "one_chip": ARTICLE['one_chip'][game]}, code="one_chip_per_player",
                field="jackpot_bets", article=ARTICLE["one_chip"][game], seat=seat)
        bet_id = spec.get("id") or _next_jackpot_id(used)
        if not isinstance(bet_id, str) or len(bet_id) > 64 or bet_id in used:
            raise InvalidCommand("jackpot bet id {bet_id!r} is not a new id of at most 64 "
                                 "characters in this round", params={"bet_id": bet_id}, field="id")
        used.add(bet_id)
        taken_players.add(player)
        taken_seats.add(seat)
        events.append(JackpotBetPlaced(round_id=round_id, bet_id=bet_id, seat=seat,
                                       player=player, amount=amount, pool_id=pool_id))
    return events


def _next_jackpot_id(used: set[str]) -> str:
    n = 1
    while f"j{n}" in used:
        n += 1
    return f"j{n}"


def round_jackpot_bets(the_round: Round) -> list[JackpotBet]:
    """The round's jackpot chips still at stake (placed, not returned, not yet decided)."""
    if the_round.options.get("jackpot") is None:
        return []  # no query on the tables without a pool (the pit's hot path)
    return list(JackpotBet.objects.filter(round_id=the_round.round_id,
                                          status=JackpotBetStatus.PLACED).order_by("id"))


@in_command
def coup_record(*, round_id: str, bets: Sequence[dict[str, Any]], pool_id: str,
                metadata: Metadata) -> RoundJackpot:
    """Record the round's coup in its pool, in the caller's transaction (right after the
    round's own append), and answer what the pit shows: the pool, the contributions and each
    prize awarded (the cage pays it by its ``prize_id``)."""

    answer = jackpot_round_settle(round_id=round_id, bets=bets, metadata=metadata,
                                  pool_id=pool_id)
    result = answer.result
    return RoundJackpot(
        pool_id=answer.pool_id, contributions=result["contributions"], paid=result["paid"],
        pool_after=result["pool_after"], void=bool(result.get("void", False)),
        prizes=[RoundJackpotPrize(prize_id=p.prize_id, seat=p.seat, player=p.player,
                                  combination=p.combination, amount=p.amount)
                for p in answer.prizes])


def chip_specs(bets: Sequence[JackpotBet]) -> list[dict[str, Any]]:
    """The round's chips as the jackpot subsystem takes them."""
    return [{"id": b.bet_id, "seat": b.seat, "player": b.player, "amount": fmt(b.amount)}
            for b in bets]


def jackpot_cards(game: str, outcome: dict[str, Any], seat: int) -> Any:
    """What decides a seat's jackpot chip in an outcome (for a correction's check): stud poker,
    the box's cards and whether it folded; blackjack, the seat's first cards as the outcome
    gives them (its hands after a resplit)."""

    for item in outcome.get("seats", []):
        if isinstance(item, dict) and item.get("seat") == seat:
            if game == "stud_poker":
                return (item.get("cards"), item.get("decision") == "fold")
            hands = item.get("hands") or []
            return hands_first_cards(hands) or hands
    return None
