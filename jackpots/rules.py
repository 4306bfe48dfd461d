"""Pure jackpot rules: the payment of one coup (golpe) of a progressive jackpot.

Rules: ``docs/jackpots.md`` (Portaria 217/2007, blackjack Subsecção II n.os 38-50; póquer sem
descarte n.os 3, 4, 8-12 and 16). No Django, no clock, no I/O: the platform pays with this code
and anyone can recompute a recorded coup with it (``pay_coup``, ``manage.py settle_jackpot``).

The card knowledge is the rules engine's: the configuration check
(:func:`games.engine.cards.check_jackpot_option`), the poker ranking
(:func:`games.engine.cards.rank_poker_hand`) and each game's combination vocabulary
(``JACKPOT_COMBINATIONS``). Errors are the settlement contract's (:class:`RoundError`).

Paying a coup (``docs/jackpots.md`` § Paying a coup):

1. every jackpot bet adds ``bet`` x ``increment_percent`` / 100, rounded down to the cent, to the
   pool before anything is paid (JP-2);
2. winning combinations are paid from the lowest-ranked to the highest (JP-3);
3. a non-top prize is n x bet or p % of the pool at its turn, rounded down, never more than the
   pool (JP-4); several stud poker winners of one combination divide it (n.º 12 c), several
   blackjack winners each get it, or an equal share of the pool when it cannot pay them all (JP-5);
4. the top combination takes what is left, divided equally among its winners (BJ n.º 50 b,
   SP n.º 12 b);
5. after a top prize the pool restarts at ``start`` plus the cents left by rounding (JP-7).

Two optional extensions, off unless the request carries them; without them requests and results
are exactly those of ``docs/jackpots.md`` § Paying a coup as data:

- ``cap``, the most the meter may show. An increment that would take the pool above the cap is
  *diverted* (to the pool's reserve, by the platform) instead of entering the pool; the result
  then also gives ``diverted``.
- ``void: true``, a void coup (golpe nulo) whose jackpot chips were already collected: the chips
  went into the pool before the deal (BJ n.os 41, 48; SP n.os 4, 16) and stay there, but no card
  of an annulled coup decides anything. The bets carry no ``cards``; every bet wins nothing; the
  result then also gives ``"void": true``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from typing import Any

from games.engine import blackjack, stud_poker
from games.engine.cards import CARDS, SUIT, check_jackpot_option, rank_poker_hand
from games.engine.errors import (
    RoundError,
    invalid_bet,
    invalid_option,
    invalid_outcome,
    malformed,
    show,
    unknown_game,
)
from games.engine.money import MONEY_CONTEXT, ZERO, floor_cents, fmt, parse_amount, ratio_floor

__all__ = [
    "COMBINATIONS",
    "Config",
    "Coup",
    "CoupBet",
    "Payment",
    "RoundError",
    "combination_of",
    "coup",
    "number_text",
    "parse_config",
    "pay_coup",
    "reserve_share",
    "settle_coup",
]

#: Each game's combinations, lowest to highest (``docs/jackpots.md`` § Combinations; JP-6).
COMBINATIONS: dict[str, tuple[str, ...]] = {
    "blackjack": tuple(blackjack.JACKPOT_COMBINATIONS),
    "stud_poker": tuple(stud_poker.JACKPOT_COMBINATIONS),
}

#: How many cards count: blackjack the first two to four dealt to the seat (BJ n.os 42, 46),
#: stud poker the player's five (SP n.º 16).
CARD_COUNT: dict[str, tuple[int, int]] = {"blackjack": (2, 4), "stud_poker": (5, 5)}

#: The most copies of one card a coup can hold: blackjack is dealt from a shoe of four or six
#: decks (BJ n.º 3), stud poker from one deck (SP n.º 1).
SHOE_COPIES: dict[str, int] = {"blackjack": 6, "stud_poker": 1}

#: The start value is at least 10,000 times the jackpot bet (BJ n.º 44, SP n.º 10).
START_MULTIPLE = Decimal(10000)

_HUNDRED = Decimal(100)
_BET_FIELDS = frozenset({"id", "amount", "cards", "folded"})
_DIGITS = frozenset("0123456789")
_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


# --- configuration ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prize:
    """One paytable line: ``kind`` is ``jackpot`` (the remainder), ``times`` (n x bet) or
    ``percent`` (p % of the pool when it is paid)."""

    combination: str
    rank: int
    kind: str
    value: Decimal
    pays: str


@dataclass(frozen=True)
class Config:
    """A checked ``options.jackpot`` of a game (``docs/jackpots.md`` § Configuration)."""

    game: str
    bet: Decimal
    increment_percent: Decimal
    start: Decimal
    paytable: tuple[Prize, ...]  # lowest-ranked first; the last one pays "jackpot"

    @property
    def top(self) -> str:
        return self.paytable[-1].combination

    def prize(self, combination: str) -> Prize:
        for line in self.paytable:
            if line.combination == combination:
                return line
        raise KeyError(combination)

    def listed(self) -> frozenset[str]:
        return frozenset(line.combination for line in self.paytable)

    def as_option(self) -> dict[str, Any]:
        """The configuration as ``options.jackpot`` writes it (paytable lowest-ranked last)."""
        return {
            "bet": fmt(self.bet),
            "increment_percent": number_text(self.increment_percent),
            "start": fmt(self.start),
            "paytable": [
                {"combination": line.combination, "pays": line.pays}
                for line in reversed(self.paytable)
            ],
        }


def number_text(value: Decimal) -> str:
    """A decimal string without exponent or trailing zeros past the point ("70", "12.5")."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def parse_config(game: str, value: object) -> Config:
    """Check ``value`` as the jackpot configuration of ``game``; ``invalid_option`` if it is not.

    The check itself is the engine's (the same one that validates a table's ``options.jackpot``);
    ``None`` (no jackpot) is refused here because a coup needs one.
    """
    if game not in COMBINATIONS:
        raise unknown_game("no jackpot at {game}: only blackjack and stud poker have one",
                           params={"game": show(game)})
    if value is None:
        raise invalid_option("jackpot: the configuration is missing (null)")
    with localcontext(MONEY_CONTEXT):
        checked = check_jackpot_option(value, COMBINATIONS[game])
    assert checked is not None
    rank = {name: index for index, name in enumerate(COMBINATIONS[game])}
    lines: list[Prize] = []
    for entry in checked["paytable"]:
        pays: str = entry["pays"]
        if pays == "jackpot":
            kind, number = "jackpot", ZERO
        elif pays.endswith("x"):
            kind, number = "times", Decimal(pays[:-1])
        else:
            kind, number = "percent", Decimal(pays[:-1])
        lines.append(Prize(entry["combination"], rank[entry["combination"]], kind, number, pays))
    lines.sort(key=lambda line: line.rank)
    return Config(
        game=game,
        bet=parse_amount(checked["bet"], None),
        increment_percent=Decimal(checked["increment_percent"]),
        start=parse_amount(checked["start"], None),
        paytable=tuple(lines),
    )


# --- combinations -------------------------------------------------------------------------------


def _blackjack_combination(cards: Sequence[str], listed: frozenset[str]) -> str | None:
    """The highest listed aces combination the seat's first cards make (BJ n.os 42, 46).

    ``two_aces``: the first two cards are aces; ``three_aces`` the first three; ``four_aces`` the
    first four; each ``_suited`` when those aces are of one suit too. Higher ones imply lower ones.
    """
    best: str | None = None
    for count in (2, 3, 4):
        if len(cards) < count:
            break
        first = cards[:count]
        if any(card[0] != "A" for card in first):
            break
        name = f"{_COUNT_WORDS[count]}_aces"
        if name in listed:
            best = name
        if len({SUIT[card] for card in first}) == 1 and f"{name}_suited" in listed:
            best = f"{name}_suited"
    return best


def _stud_combination(cards: Sequence[str], listed: frozenset[str]) -> str | None:
    """The hand's own category if listed; a royal flush also satisfies ``straight_flush``."""
    category = rank_poker_hand(cards)[0]
    if category in listed:
        return category
    if category == "royal_flush" and "straight_flush" in listed:
        return "straight_flush"
    return None


def combination_of(config: Config, cards: Sequence[str], *, folded: bool = False) -> str | None:
    """The highest-ranked listed combination ``cards`` satisfy, or None. A folded stud poker hand
    wins nothing (JP-1). ``cards`` must be valid (see :func:`coup`)."""
    if folded:
        return None
    if config.game == "blackjack":
        return _blackjack_combination(cards, config.listed())
    return _stud_combination(cards, config.listed())


# --- the coup -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoupBet:
    """One jackpot bet of a coup: one chip of exactly ``bet`` (BJ n.º 47)."""

    id: str
    amount: Decimal
    cards: tuple[str, ...]
    folded: bool = False


@dataclass(frozen=True)
class Payment:
    """One combination's turn (JP-3): the winners, each one's prize, the pool before and after."""

    combination: str
    top: bool
    winners: tuple[str, ...]
    nominal: Decimal  # the prize before sharing (n x bet, p % of the pool, or the remainder)
    each: Decimal
    pool_before: Decimal
    pool_after: Decimal


@dataclass(frozen=True)
class Coup:
    """Everything about one coup's payment; :meth:`result` is the result object of
    ``docs/jackpots.md``."""

    config: Config
    pool_before: Decimal
    bets: tuple[CoupBet, ...]
    increments: tuple[Decimal, ...]  # each bet's increment, rounded down (JP-2)
    diverted: tuple[Decimal, ...]  # the part of each increment kept out of a capped pool
    combinations: tuple[str | None, ...]
    prizes: tuple[Decimal, ...]
    payments: tuple[Payment, ...]
    jackpot_won: bool
    leftover: Decimal  # the pool once every prize is paid, before a restart
    pool_after: Decimal
    cap: Decimal | None = None
    void: bool = False

    @property
    def contributions(self) -> Decimal:
        return sum(self.increments, ZERO)

    @property
    def diverted_total(self) -> Decimal:
        return sum(self.diverted, ZERO)

    @property
    def to_pool(self) -> Decimal:
        """What the coup's increments added to the pool (all of them unless a cap diverted some)."""
        return self.contributions - self.diverted_total

    @property
    def pool_at_payment(self) -> Decimal:
        return self.pool_before + self.to_pool

    @property
    def paid(self) -> Decimal:
        return sum(self.prizes, ZERO)

    @property
    def restart(self) -> Decimal:
        """The start value put back in the pool after a top prize (0 when none was won)."""
        return self.config.start if self.jackpot_won else ZERO

    def result(self) -> dict[str, Any]:
        """The result object of ``docs/jackpots.md`` § Paying a coup as data."""
        out: dict[str, Any] = {
            "game": self.config.game,
            "pool_before": fmt(self.pool_before),
            "contributions": fmt(self.contributions),
            "pool_at_payment": fmt(self.pool_at_payment),
            "bets": [
                {"id": bet.id, "combination": combination, "prize": fmt(prize)}
                for bet, combination, prize in zip(
                    self.bets, self.combinations, self.prizes, strict=True
                )
            ],
            "paid": fmt(self.paid),
            "jackpot_won": self.jackpot_won,
            "pool_after": fmt(self.pool_after),
        }
        if self.cap is not None:
            out["diverted"] = fmt(self.diverted_total)
        if self.void:
            out["void"] = True
        return out


def _share(amount: Decimal, winners: int) -> Decimal:
    """``amount`` divided among ``winners``, each share rounded down to the cent (exactly)."""
    return ratio_floor(amount, 1, winners)


def settle_coup(
    config: Config,
    pool: Decimal,
    bets: Sequence[CoupBet],
    *,
    cap: Decimal | None = None,
    void: bool = False,
) -> Coup:
    """Pay one coup from checked inputs (``docs/jackpots.md`` § Paying a coup, rules 1-5). A
    ``void`` coup takes its increments (rule 1) and pays nothing: no card of it decides a
    combination."""
    with localcontext(MONEY_CONTEXT):
        # 1. Increment (JP-2), bet by bet in the order given; a cap diverts what would exceed it.
        increments: list[Decimal] = []
        diverted: list[Decimal] = []
        current = pool
        for bet in bets:
            increment = floor_cents(bet.amount * config.increment_percent / _HUNDRED)
            kept = increment if cap is None else min(increment, max(cap - current, ZERO))
            current += kept
            increments.append(increment)
            diverted.append(increment - kept)

        combinations = [
            None if void else combination_of(config, bet.cards, folded=bet.folded) for bet in bets
        ]
        winners: dict[str, list[int]] = {}
        for index, combination in enumerate(combinations):
            if combination is not None:
                winners.setdefault(combination, []).append(index)

        # 2. Lowest-ranked combination first (JP-3).
        prizes = [ZERO] * len(bets)
        payments: list[Payment] = []
        for line in config.paytable:
            indexes = winners.get(line.combination)
            if not indexes:
                continue
            count = len(indexes)
            before = current
            if line.kind == "jackpot":  # 4. the remainder, divided (n.º 50 b, n.º 12 b)
                nominal = current
                each = _share(current, count)
            else:  # 3. never more than the pool holds (JP-4)
                if line.kind == "times":
                    nominal = floor_cents(line.value * config.bet)
                else:
                    nominal = floor_cents(current * line.value / _HUNDRED)
                nominal = min(nominal, current)
                if config.game == "stud_poker":  # n.º 12 c: divided among its winners
                    each = _share(nominal, count)
                elif nominal * count <= current:  # JP-5: each winner is paid in full
                    each = nominal
                else:  # ... or shares the pool equally when it cannot pay them all
                    each = _share(current, count)
            for index in indexes:
                prizes[index] = each
            current -= each * count
            payments.append(
                Payment(
                    combination=line.combination,
                    top=line.kind == "jackpot",
                    winners=tuple(bets[i].id for i in indexes),
                    nominal=nominal,
                    each=each,
                    pool_before=before,
                    pool_after=current,
                )
            )

        # 5. After a top prize the pool restarts at start, keeping the rounding cents (JP-7).
        jackpot_won = config.top in winners
        pool_after = config.start + current if jackpot_won else current
        return Coup(
            config=config,
            pool_before=pool,
            bets=tuple(bets),
            increments=tuple(increments),
            diverted=tuple(diverted),
            combinations=tuple(combinations),
            prizes=tuple(prizes),
            payments=tuple(payments),
            jackpot_won=jackpot_won,
            leftover=current,
            pool_after=pool_after,
            cap=cap,
            void=void,
        )


def reserve_share(amount: Decimal, percent: Decimal) -> Decimal:
    """The part of one jackpot bet set aside for the pool's hidden reserve, rounded down."""
    with localcontext(MONEY_CONTEXT):
        return floor_cents(amount * percent / _HUNDRED)


# --- the request as data ------------------------------------------------------------------------


def _meter(value: object) -> Decimal:
    """The pool: an amount string (zero allowed), else ``malformed`` (``docs/jackpots.md``)."""
    if type(value) is not str:
        raise malformed("pool must be an amount string such as \"52345.67\"")
    whole, dot, frac = value.partition(".")
    if (
        not whole
        or not _DIGITS.issuperset(whole)
        or (dot and (not 0 < len(frac) < 3 or not _DIGITS.issuperset(frac)))
        or len(value) > 1000
    ):
        raise malformed("pool {value} is not an amount (digits, at most two decimals)",
                        params={"value": show(value)})
    return Decimal(f"{whole}.{frac:0<2}")


def _frame(request: object) -> tuple[str, Decimal, list[dict[str, Any]]]:
    """The request's own frame (``malformed``): an object with a game, a pool and a bets list of
    objects whose ``id`` and ``amount`` are strings."""
    if not isinstance(request, dict):
        raise malformed("the request is not an object")
    game = request.get("game")
    if type(game) is not str:
        raise malformed("the request has no game code" if game is None else "game is not a string")
    pool = _meter(request.get("pool"))
    bets = request.get("bets")
    if not isinstance(bets, list):
        raise malformed("the request has no bets list" if bets is None else "bets is not a list")
    for index, bet in enumerate(bets):
        if not isinstance(bet, dict):
            raise malformed("bet #{index} is not an object", params={"index": index + 1})
        for key in ("id", "amount"):
            if key not in bet:
                raise malformed("bet #{index} has no {key}",
                                params={"index": index + 1, "key": key})
            if type(bet[key]) is not str:
                raise malformed("bet #{index}: {key} must be a string",
                                params={"index": index + 1, "key": key})
    return game, pool, bets


def _cap(request: Mapping[str, Any], config: Config) -> Decimal | None:
    if "cap" not in request or request["cap"] is None:
        return None
    value = request["cap"]
    if type(value) is not str:
        raise invalid_option('cap must be an amount string such as "250000.00"')
    try:
        cap = parse_amount(value, None)
    except RoundError:
        raise invalid_option("cap {value} is not an amount above zero",
                             params={"value": show(value)}) from None
    if cap < config.start:
        raise invalid_option("cap {cap} is below the start value {start}",
                             params={"cap": fmt(cap), "start": fmt(config.start)})
    return cap


def _bet(game: str, config: Config, raw: dict[str, Any], *, void: bool = False) -> CoupBet:
    bet_id: str = raw["id"]
    unknown = sorted(raw.keys() - _BET_FIELDS)
    if unknown:
        raise invalid_bet("a jackpot bet has no field {unknown}", bet_id,
                                                                            params={"unknown": show(unknown[0])})
    amount = parse_amount(raw["amount"], bet_id)
    if amount != config.bet:  # BJ n.º 47: one chip "no montante previamente definido"
        raise invalid_bet(
            "a jackpot bet is one chip of exactly {bet}, not {amount} "
            "(blackjack n.º 47; póquer sem descarte n.º 8)",
            bet_id, params={"bet": fmt(config.bet), "amount": fmt(amount)},
        )
    folded = raw.get("folded", False)
    if type(folded) is not bool:
        raise invalid_bet("folded is true or false", bet_id)
    if folded and game != "stud_poker":
        raise invalid_bet("only a stud poker hand can fold", bet_id)
    if void:  # an annulled coup: the chip is in the pool, no card decides it
        if raw.get("cards") not in (None, []):
            raise invalid_bet("a void coup decides nothing: its bets carry no cards", bet_id)
        return CoupBet(id=bet_id, amount=amount, cards=(), folded=folded)
    cards = raw.get("cards")
    if type(cards) is not list:
        raise invalid_bet("cards must be a list of cards", bet_id)
    for card in cards:
        if type(card) is not str or card not in CARDS:
            raise invalid_outcome(
                "bet {bet_id}: {card} is not a card (rank A23456789TJQK, suit SHDC)",
                params={"bet_id": bet_id, "card": show(card)}
            )
    low, high = CARD_COUNT[game]
    if not low <= len(cards) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        what = "the player's" if game == "stud_poker" else "the seat's first"
        raise invalid_bet("{n_cards} cards: a jackpot bet is decided by {what} {wanted} cards",
                          bet_id, params={"n_cards": len(cards), "what": what, "wanted": wanted})
    if game == "stud_poker" and len(set(cards)) != len(cards):
        raise invalid_outcome("bet {bet_id}: a card appears twice in one hand (one deck, n.º 1)",
                              params={"bet_id": bet_id})
    return CoupBet(id=bet_id, amount=amount, cards=tuple(cards), folded=folded)


def coup(request: object) -> Coup:
    """Check a request (``docs/jackpots.md`` § Paying a coup as data) and pay it; raises
    :class:`RoundError` with the contract's code when the request is invalid (nothing is paid).

    Check order: the frame (``malformed``), the game (``unknown_game``), the configuration and
    the optional cap (``invalid_option``), then each bet in order (``invalid_bet``,
    ``invalid_outcome``), then the cards of the coup together (``invalid_outcome``).
    """
    game, pool, raw_bets = _frame(request)
    assert isinstance(request, dict)
    void = request.get("void", False)
    if type(void) is not bool:  # the extension's own frame
        raise malformed("void is true or false")
    if game not in COMBINATIONS:
        raise unknown_game("no game {game} with a jackpot (blackjack, stud_poker)",
                           params={"game": show(game)})
    if "jackpot" not in request:
        raise invalid_option("jackpot: the configuration is missing")
    config = parse_config(game, request["jackpot"])
    cap = _cap(request, config)
    seen: set[str] = set()
    bets: list[CoupBet] = []
    with localcontext(MONEY_CONTEXT):
        for raw in raw_bets:
            bet_id = raw["id"]
            if bet_id in seen:
                raise invalid_bet("bet id {bet_id} is used twice in the coup", bet_id,
                                                                                      params={"bet_id": show(bet_id)})
            seen.add(bet_id)
            bets.append(_bet(game, config, raw, void=void))
    copies = SHOE_COPIES[game]
    counted = Counter(card for bet in bets for card in bet.cards)
    if counted:
        card, times = counted.most_common(1)[0]
        if times > copies:
            shoe = "the deck" if copies == 1 else f"a {copies}-deck shoe"
            raise invalid_outcome("{card} appears {times} times in the coup; {shoe} holds {copies}",
                                  params={"card": card, "times": times, "shoe": shoe, "copies": copies})
    return settle_coup(config, pool, bets, cap=cap, void=void)


def pay_coup(request: dict[str, Any]) -> dict[str, Any]:
    """The coup's payment as data: the result object, or ``{"error": {"code", "message",
    ["bet"]}}`` for an invalid request (``docs/jackpots.md`` § Paying a coup as data)."""
    try:
        return coup(request).result()
    except RoundError as error:
        return error.as_dict()
