"""Cards shared by the five card games: parsing, shoe counts, point values, poker hands.

A card is two characters, rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``S H D C``
(``docs/settlement.md`` § Cards and dice). Everything a card
is worth is looked up in tables built once at import: no per-card parsing at settlement time.

Also here, because two card games share it: the check of a table's jackpot configuration
(``options.jackpot``, ``docs/jackpots.md`` § Configuration), blackjack Subsecção II n.os 38-44 and
póquer sem descarte n.os 3, 8-10.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from games.engine.errors import RoundError, invalid_option, invalid_outcome
from games.engine.money import parse_amount

RANKS = "A23456789TJQK"
SUITS = "SHDC"
CARDS: frozenset[str] = frozenset(rank + suit for rank in RANKS for suit in SUITS)

# Portaria 217/2007 Cap. III Secç. III n.º 9 and Secç. IV n.º 9 (bacará: ás 1, figuras e 10 zero,
# as outras o valor facial) = Poker de Futebol, valores das cartas n.os 1-3 (same table).
_POINT_BY_RANK = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0} | {str(pip): pip for pip in range(2, 10)}
POINT_VALUE: dict[str, int] = {card: _POINT_BY_RANK[card[0]] for card in CARDS}

# Blackjack Secç. I n.º 6: ás 1 (or 11, decided per hand), figuras 10, as outras o valor indicado.
# Stored with the ace at 1; the hand totals decide when it counts 11.
_BLACKJACK_BY_RANK = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {
    str(pip): pip for pip in range(2, 10)
}
BLACKJACK_VALUE: dict[str, int] = {card: _BLACKJACK_BY_RANK[card[0]] for card in CARDS}

# Póquer sem descarte Secç. II n.º 1: ás, rei, dama, valete, 10, 9, ..., 2 (ace high, 14).
_POKER_BY_RANK = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10} | {
    str(pip): pip for pip in range(2, 10)
}
POKER_RANK: dict[str, int] = {card: _POKER_BY_RANK[card[0]] for card in CARDS}

SUIT: dict[str, str] = {card: card[1] for card in CARDS}
RANK: dict[str, str] = {card: card[0] for card in CARDS}


# --- parsing -------------------------------------------------------------------------------------


def check_cards(value: object, where: str, low: int, high: int | None) -> list[str]:
    """``value`` as a list of ``low``..``high`` cards (``high`` None: no upper bound), else
    ``invalid_outcome`` naming ``where``. Returns a new list in the same (dealing) order.
    """
    if type(value) is not list:
        raise invalid_outcome("{where}: cards must be a list of cards", params={"where": where})
    for card in value:
        if type(card) is not str or card not in CARDS:
            raise invalid_outcome(
                "{where}: {card!r} is not a card (rank A23456789TJQK, suit SHDC)",
                params={"where": where, "card": card}
            )
    count = len(value)
    if count < low or (high is not None and count > high):
        if high is None:
            wanted = f"at least {low}"
        elif low == high:
            wanted = str(low)
        else:
            wanted = f"{low} or {high}" if high == low + 1 else f"{low} to {high}"
        raise invalid_outcome("{where}: {count} card{value}, must be {wanted}",
                              params={"where": where, "count": count, "value": '' if count == 1 else 's', "wanted": wanted})
    return list(value)


def check_copies(cards: Sequence[str], copies: int) -> None:
    """No card more often than the shoe holds (``docs/settlement.md`` § Cards and dice)."""
    if len(cards) <= copies:
        return  # cannot exceed: the common case (a baccarat coup has at most six cards)
    card, seen = Counter(cards).most_common(1)[0]
    if seen > copies:
        shoe = "the deck" if copies == 1 else f"a {copies}-deck shoe"
        raise invalid_outcome("{card} appears {seen} times; {shoe} holds only {copies}",
                              params={"card": card, "seen": seen, "shoe": shoe, "copies": copies})


def check_fields(
    obj: Mapping[str, object], allowed: frozenset[str], required: frozenset[str], where: str
) -> None:
    """Exactly the fields a part of an outcome may have (``invalid_outcome``)."""
    keys = obj.keys()
    if not keys <= allowed:
        unknown = sorted(keys - allowed)
        raise invalid_outcome("{where}: unknown field {unknown!r}",
                              params={"where": where, "unknown": unknown[0]})
    if not required <= keys:
        missing = sorted(required - keys)
        raise invalid_outcome("{where}: field {missing!r} is missing",
                              params={"where": where, "missing": missing[0]})


def is_int(value: object) -> bool:
    """A JSON integer (``True`` is not 1 here)."""
    return type(value) is int


# --- point games (baccarat, football poker) -------------------------------------------------------


def point_total(cards: Sequence[str]) -> int:
    """The last digit of the sum of the point values.

    Bacará Secç. III/IV n.º 9 and Poker de Futebol (valores das cartas n.º 4): above 10 or 20
    only the excess counts; a sum of exactly 10 or 20 counts 0 (FP-5: every total is a last digit).
    """
    total = 0
    for card in cards:
        total += POINT_VALUE[card]
    return total % 10


# --- poker hands (póquer sem descarte n.os 6, 7; reused by the stud poker jackpot) ----------------

# Lowest to highest: póquer sem descarte n.º 6 a-j in reverse.
POKER_CATEGORIES: tuple[str, ...] = (
    "high_card",  # n.º 6 j  cartas maiores
    "one_pair",  # n.º 6 i  um par
    "two_pair",  # n.º 6 h  dois pares
    "three_of_a_kind",  # n.º 6 g  trio
    "straight",  # n.º 6 f  sequência
    "flush",  # n.º 6 e  cor
    "full_house",  # n.º 6 d  full
    "four_of_a_kind",  # n.º 6 c  póquer
    "straight_flush",  # n.º 6 b  sequência de cor
    "royal_flush",  # n.º 6 a  sequência real de cor
)
POKER_CATEGORY_INDEX: dict[str, int] = {name: index for index, name in enumerate(POKER_CATEGORIES)}

_WHEEL = (14, 5, 4, 3, 2)  # n.º 7 c: in 5-4-3-2-A the ace counts 1, the straight tops at 5


def rank_poker_hand(cards: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """Category name and tie-break of five cards (póquer sem descarte n.os 6 and 7).

    Two hands of the same category compare by their tie-break tuples (higher wins, equal ties):

    - royal flush: ``()``, always equal (n.º 6 a);
    - straight flush, straight: the top card, 5 for 5-4-3-2-A (n.º 7 c);
    - four of a kind: the rank of the four (n.º 7 a); full house: the rank of the three (n.º 7 b);
      three of a kind: the rank of the three (n.º 7 e);
    - flush: every card from the highest down (n.º 7 d, and SP-2 past the first);
    - two pair: higher pair, lower pair, the odd card (n.º 7 f);
    - one pair: the pair, then the other cards from the highest down (n.º 7 g, SP-2);
    - high card: every card from the highest down, then 1 if at least three cards share a suit
      (n.º 6 j "três delas da mesma cor", read as suit: SP-1), else 0.

    Ranks are 2..14 (ace high, n.º 1). ``cards`` must be five valid, distinct cards.
    """
    ranks = sorted((POKER_RANK[card] for card in cards), reverse=True)
    suits = {SUIT[card] for card in cards}
    flush = len(suits) == 1
    r0, r1, r2, r3, r4 = ranks
    if r0 != r1 and r1 != r2 and r2 != r3 and r3 != r4:  # five different ranks
        if r0 - r4 == 4:
            top = r0
        elif (r0, r1, r2, r3, r4) == _WHEEL:
            top = 5
        else:
            top = 0
        if top:
            if flush:
                return ("royal_flush", ()) if top == 14 else ("straight_flush", (top,))
            return "straight", (top,)
        if flush:
            return "flush", tuple(ranks)
        three_suited = (
            1 if len(suits) == 2 or max(Counter(SUIT[card] for card in cards).values()) >= 3 else 0
        )
        return "high_card", (r0, r1, r2, r3, r4, three_suited)
    counts = Counter(ranks)
    # groups: (count, rank) from the biggest group down, ties by rank
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    if shape == (4, 1):
        return "four_of_a_kind", (groups[0][1],)
    if shape == (3, 2):
        return "full_house", (groups[0][1],)
    if flush:  # cannot happen with one deck and a pair, but five cards of one suit are a flush
        return "flush", tuple(ranks)
    if shape == (3, 1, 1):
        return "three_of_a_kind", (groups[0][1],)
    if shape == (2, 2, 1):
        return "two_pair", (groups[0][1], groups[1][1], groups[2][1])
    return "one_pair", (groups[0][1], groups[1][1], groups[2][1], groups[3][1])


def poker_hand_key(cards: Sequence[str]) -> tuple[int, tuple[int, ...]]:
    """A key that orders five-card hands as n.os 6 and 7 do (compare two keys with < == >)."""
    category, tiebreak = rank_poker_hand(cards)
    return POKER_CATEGORY_INDEX[category], tiebreak


# --- jackpot configuration (docs/jackpots.md § Configuration) ------------------------------------

_JACKPOT_FIELDS = frozenset({"bet", "increment_percent", "start", "paytable"})
_PAYTABLE_FIELDS = frozenset({"combination", "pays"})
_DIGITS = frozenset("0123456789")
_HUNDRED = Decimal(100)
_START_MULTIPLE = Decimal(10000)  # BJ n.º 44, SP n.º 10: "no mínimo, de 10 mil vezes"


def _option_amount(value: object, name: str) -> Decimal:
    """An amount string (the contract's money grammar), as an option: ``invalid_option``."""
    if type(value) is not str:
        raise invalid_option('jackpot {name} must be an amount string such as "1.00"',
                             params={"name": name})
    try:
        return parse_amount(value, None)
    except RoundError:
        raise invalid_option("jackpot {name} {value!r} is not an amount above zero",
                             params={"name": name, "value": value}) from None


def _positive_number(text: str) -> Decimal | None:
    """A plain decimal string ``^[0-9]+(\\.[0-9]+)?$`` above zero, else None."""
    whole, dot, frac = text.partition(".")
    if (
        not whole
        or not _DIGITS.issuperset(whole)
        or (dot and (not frac or not _DIGITS.issuperset(frac)))
    ):
        return None
    number = Decimal(text)
    return number if number > 0 else None


def check_jackpot_option(value: object, combinations: Sequence[str]) -> dict[str, Any] | None:
    """Validate ``options.jackpot`` (``None`` = no jackpot at the table); ``invalid_option``.

    ``combinations`` is the game's vocabulary from lowest to highest (``docs/jackpots.md``
    § Combinations). The jackpot itself is settled by the jackpot subsystem, never by ``settle``.
    Returns the configuration as given.
    """
    if value is None:
        return None
    if not isinstance(value, dict):
        raise invalid_option("jackpot must be null or a jackpot configuration object")
    keys = value.keys()
    if not keys <= _JACKPOT_FIELDS:
        raise invalid_option("jackpot: unknown field {keys!r}",
                             params={"keys": sorted(keys - _JACKPOT_FIELDS)[0]})
    if not keys >= _JACKPOT_FIELDS:
        raise invalid_option("jackpot: field {jackpot_fields!r} is missing",
                             params={"jackpot_fields": sorted(_JACKPOT_FIELDS - keys)[0]})
    bet = _option_amount(value["bet"], "bet")  # BJ n.os 40, 47; SP n.º 8
    percent = value["increment_percent"]  # BJ n.º 40; SP n.os 3, 8
    number = _positive_number(percent) if type(percent) is str else None
    if number is None or number > _HUNDRED:
        raise invalid_option(
            "jackpot increment_percent must be a decimal string above 0 and at most 100"
        )
    start = _option_amount(value["start"], "start")
    if start < bet * _START_MULTIPLE:  # BJ n.º 44; SP n.º 10
        raise invalid_option(
            "jackpot start must be at least 10,000 times the jackpot bet (BJ n.º 44, SP n.º 10)"
        )
    paytable = value["paytable"]  # BJ n.º 43; SP n.º 9
    if type(paytable) is not list or not paytable:
        raise invalid_option("jackpot paytable must be a non-empty list")
    rank = {name: index for index, name in enumerate(combinations)}
    seen: set[str] = set()
    top: list[str] = []
    for entry in paytable:
        if not isinstance(entry, dict) or entry.keys() != _PAYTABLE_FIELDS:
            raise invalid_option("jackpot paytable entries are {combination, pays} objects")
        combination, pays = entry["combination"], entry["pays"]
        if type(combination) is not str or combination not in rank:
            raise invalid_option(
                "jackpot combination {combination!r} is not one of {combinations}",
                params={"combination": combination, "combinations": ', '.join(combinations)}
            )
        if combination in seen:
            raise invalid_option("jackpot combination {combination!r} is listed twice",
                                 params={"combination": combination})
        seen.add(combination)
        if type(pays) is not str:
            raise invalid_option("jackpot pays for {combination} must be a string",
                                 params={"combination": combination})
        if pays == "jackpot":
            top.append(combination)
        elif pays.endswith("x"):
            if _positive_number(pays[:-1]) is None:
                raise invalid_option("jackpot pays {pays!r}: n times the bet needs n above zero",
                                     params={"pays": pays})
        elif pays.endswith("%"):
            share = _positive_number(pays[:-1])
            if share is None or share > _HUNDRED:
                raise invalid_option("jackpot pays {pays!r}: a percentage above 0 and at most 100",
                                     params={"pays": pays})
        else:
            raise invalid_option('jackpot pays {pays!r}: "jackpot", "<n>x" or "<p>%"',
                                 params={"pays": pays})
    if len(top) != 1:
        raise invalid_option('jackpot paytable must have exactly one entry paying "jackpot"')
    if rank[top[0]] != max(rank[name] for name in seen):  # BJ n.º 50 a; SP n.º 12 a
        raise invalid_option('the entry paying "jackpot" must be the highest combination listed')
    return value
