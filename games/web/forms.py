"""What the pit's forms ask for, and how their text becomes a service's arguments.

Parsing only: shape and types (a number is a whole number, cards are two characters, a count
is pieces per denomination). Whether a split is on the layout, a die shows 7, an outcome breaks
the drawing rules or a stake passes the table's limits is for the services and the rules engine
to say, and their refusal is shown as it is.

* ``BET_FORMS``: per game, one small form per bet type (types with the same fields share one
  form, chosen from a list), each field named as the rules engine reads it
  (``games/engine/<game>.py``, ``docs/settlement.md``). A game the catalogue does not know (or a new
  bet type, such as a jackpot side bet) still has the "other bet" form: the type and its fields as
  JSON.
* ``OUTCOME_FORMS``: per game, the outcome in the game's own form.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.errors import InvalidCommand
from edge.web.money import money_input

from .labels import Label, bet_type_label

Posted = Mapping[str, str]

# --- the small parsers -------------------------------------------------------------------------


def _whole(raw: str, what: Label) -> int:
    text = raw.strip()
    if not re.fullmatch(r"\d{1,6}", text):
        raise InvalidCommand(gettext("%(field)s: write a whole number (not “%(value)s”)")
                             % {"field": what, "value": text})
    return int(text)


def _numbers(raw: str, what: Label) -> list[int]:
    parts = [p for p in re.split(r"[\s,;/\-–]+", raw.strip()) if p]
    if not parts:
        raise InvalidCommand(gettext("%(field)s: write the numbers, such as 17, 20") % {"field": what})
    return [_whole(p, what) for p in parts]


_CARD_TEXT = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


def parse_cards(raw: str, what: Label) -> list[str]:
    """``"9s 5d kh"`` or ``"10H, AS"`` -> ``["9S", "5D", "KH"]``, ``["TH", "AS"]``."""
    cards = []
    for part in re.split(r"[\s,;]+", raw.strip().upper()):
        if not part:
            continue
        found = _CARD_TEXT.match(part)
        if not found:
            raise InvalidCommand(gettext("%(field)s: “%(card)s” is not a card; write rank and suit, "
                                    "such as AS, TD, 9H (T or 10 for a ten)")
                                 % {"field": what, "card": part})
        rank = "T" if found.group(1) == "10" else found.group(1)
        cards.append(rank + found.group(2))
    if not cards:
        raise InvalidCommand(gettext("%(field)s: write the cards, such as AS KD") % {"field": what})
    return cards


def parse_pieces(posted: Posted, prefix: str, denominations: Sequence[str]) -> dict[str, int]:
    """One box per denomination (``<prefix>-<denomination>``), empty meaning none."""
    counts: dict[str, int] = {}
    for denomination in denominations:
        raw = (posted.get(f"{prefix}-{denomination}") or "").strip()
        if not raw:
            continue
        if not raw.isdigit():
            raise InvalidCommand(gettext("%(denomination)s: “%(value)s” is not a number of pieces")
                                 % {"denomination": denomination, "value": raw})
        if int(raw):
            counts[denomination] = int(raw)
    return counts


def amount_text(raw: str | None) -> str:
    """An amount as typed, for the service to parse, read as every amount box of the web admin
    reads it (``edge.web.money.money_input``): ``10,50`` and ``1.234,50`` in pt-PT,
    ``1,234.50`` in English; anything else goes as it is, and the service says what is wrong."""
    return str(money_input(raw or ""))


def parse_seat(raw: str) -> int:
    return _whole(raw or "", _("Seat"))


def _json_object(raw: str, what: Label) -> dict[str, Any]:
    def no_float(text: str) -> Decimal:
        raise InvalidCommand(gettext("%(field)s: write amounts as strings such as \"10.50\" and "
                                "numbers as whole numbers") % {"field": what})

    try:
        value = json.loads(raw or "{}", parse_float=no_float)
    except ValueError:
        raise InvalidCommand(gettext("%(field)s: this is not JSON, such as {\"numbers\": [17]}")
                             % {"field": what}) from None
    if not isinstance(value, dict):
        raise InvalidCommand(gettext("%(field)s: write a JSON object, such as {\"numbers\": [17]}")
                             % {"field": what})
    return value


# --- bets --------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a bet as the rules engine reads it."""

    name: str
    label: Label
    kind: str = "int"  # int | ints | choice | text | json
    choices: tuple[tuple[str, Label], ...] = ()
    hint: Label = ""
    required: bool = True

    def parse(self, raw: str) -> Any:
        raw = (raw or "").strip()
        if not raw:
            if self.required:
                raise InvalidCommand(gettext("%(field)s: this is needed") % {"field": self.label})
            return None
        if self.kind == "int":
            return _whole(raw, self.label)
        if self.kind == "ints":
            return _numbers(raw, self.label)
        if self.kind == "choice":
            allowed = {value for value, _label in self.choices}
            if raw not in allowed:
                raise InvalidCommand(gettext("%(field)s: choose one of the list") % {"field": self.label})
            if re.fullmatch(r"\d+", raw):
                return int(raw)
            if re.fullmatch(r"\d+(,\d+)+", raw):
                return [int(p) for p in raw.split(",")]
            return raw
        if self.kind == "json":
            return _json_object(raw, self.label)
        return raw


@dataclasses.dataclass(frozen=True)
class BetForm:
    """A small form for one bet type, or for several that share their fields."""

    key: str
    types: tuple[str, ...]
    fields: tuple[Field, ...] = ()
    title: Label = ""


def _n(values: Sequence[int]) -> tuple[tuple[str, Label], ...]:
    return tuple((str(v), str(v)) for v in values)


_NUMBERS_HINT = {"straight": "17", "split": "17, 20", "street": "16, 17, 18",
                 "corner": "16, 17, 19, 20", "line": "1, 2, 3, 4, 5, 6"}
_NUMBERS = _("Numbers")
_NUMBER = _("Number")
_POINTS = _n((4, 5, 6, 8, 9, 10))
_FACES = _n(range(1, 7))


def _roulette(series: bool) -> list[BetForm]:
    forms = [BetForm(t, (t,), (Field("numbers", _NUMBER if t == "straight" else _NUMBERS,
                                     "ints", hint=_NUMBERS_HINT[t]),))
             for t in ("straight", "split", "street", "corner", "line")]
    forms += [
        BetForm("dozen", ("dozen",), (Field("dozen", _("Dozen"), "choice", _n((1, 2, 3))),)),
        BetForm("column", ("column",), (Field("column", _("Column"), "choice", _n((1, 2, 3))),)),
        BetForm("double_dozen", ("double_dozen",),
                (Field("dozens", _("Dozens"), "choice", (("1,2", "1–2"), ("2,3", "2–3"))),)),
        BetForm("double_column", ("double_column",),
                (Field("columns", _("Columns"), "choice", (("1,2", "1–2"), ("2,3", "2–3"))),)),
        BetForm("even_chances", ("red", "black", "even", "odd", "low", "high"),
                title=_("Even chances")),
    ]
    if series:
        forms += [
            BetForm("series", ("series",), (Field("series", _("Series"), "choice", (
                ("big", _("big (0-2-3, 9 chips)")), ("small", _("small (5-8, 6 chips)")),
                ("orphans", _("orphans (5 chips)")))),)),
            BetForm("neighbours", ("neighbours",), (
                Field("number", _NUMBER, hint="17"),
                Field("neighbours", _("Neighbours"), "choice", _n((2, 4, 6))))),
        ]
    return forms


BET_FORMS: dict[str, list[BetForm]] = {
    "american_roulette": _roulette(series=True),
    "french_roulette": _roulette(series=False),
    "banca_francesa": [
        BetForm("chances", ("aces", "small", "big"), title=_("Chances")),
        BetForm("lines", ("small_line", "big_line"), title=_("Line bets (half in play)")),
    ],
    "craps": [
        BetForm("line", ("pass", "dont_pass"), title=_("Line bets")),
        BetForm("come", ("come", "dont_come"), (
            Field("point", _("Point (once moved)"), "choice", _POINTS, required=False),),
            title=_("Come bets")),
        BetForm("odds", ("odds",), (
            Field("on", _("On"), "choice", (("pass", _("Pass line")), ("dont_pass", _("Don't pass")),
                                            ("come", _("Come")), ("dont_come", _("Don't come")))),
            Field("point", _("Point (come odds)"), "choice", _POINTS, required=False),
            Field("base", _("Bet backed"), "text", hint="b1", required=False))),
        BetForm("numbers", ("place", "lay"), (Field("number", _NUMBER, "choice", _POINTS),),
                title=_("Place and lay")),
        BetForm("hardway", ("hardway",), (Field("number", _NUMBER, "choice", _n((4, 6, 8, 10))),)),
        BetForm("total", ("total",), (Field("total", _("Total"), "choice", _n((2, 3, 7, 11, 12))),)),
        BetForm("one_roll", ("field", "craps", "under_7", "over_7", "big_6", "big_8"),
                title=_("Field, any craps, under and over 7, big 6 and 8")),
    ],
    "cussec": [
        BetForm("chances", ("small", "big", "any_triple"), title=_("Small, big, any triple")),
        BetForm("faces", ("single", "double", "triple"), (
            Field("number", _("Face"), "choice", _FACES),), title=_("A face")),
        BetForm("combination", ("combination",),
                (Field("numbers", _("Two faces"), "ints", hint="2, 5"),)),
        BetForm("total", ("total",), (Field("total", _("Total"), "choice", _n(range(4, 18))),)),
    ],
    "blackjack": [BetForm("seat", ("main", "back"), title=_("Main and back bets"))],
    "stud_poker": [BetForm("ante", ("ante",))],
    "punto_banco": [BetForm("baccarat", ("player", "banker", "tie", "player_pair",
                                         "banker_pair"), title=_("Bets"))],
    "punto_banco_macau": [BetForm("baccarat", ("player", "banker", "tie", "player_pair",
                                               "banker_pair"), title=_("Bets"))],
    "football_poker": [BetForm("hand", ("upper", "lower", "even", "odd", "post"),
                               title=_("Bets on a hand"))],
}

OTHER_BET = BetForm("other", (), (
    Field("type", _("Bet type"), "text", hint="straight"),
    Field("fields", _("Its fields, as JSON"), "json", hint='{"numbers": [17]}',
          required=False)), title=_("Another bet type"))


def bet_forms(game: str) -> list[BetForm]:
    return [*BET_FORMS.get(game, []), OTHER_BET]


def parse_bet(game: str, posted: Posted) -> dict[str, Any]:
    """The bet spec ``bet_place`` takes: seat, player, type, amount and the type's fields."""
    key = posted.get("form", "")
    form = next((f for f in bet_forms(game) if f.key == key), None)
    if form is None:
        raise InvalidCommand(gettext("This bet form is not one of this table's: reload the page."))
    spec: dict[str, Any] = {"seat": parse_seat(posted.get("seat", "")),
                            "amount": amount_text(posted.get("amount"))}
    player = (posted.get("player") or "").strip()
    if player:
        spec["player"] = player
    if form is OTHER_BET:
        spec["type"] = OTHER_BET.fields[0].parse(posted.get("type", ""))
        extra = OTHER_BET.fields[1].parse(posted.get("fields", "")) or {}
        spec |= {k: v for k, v in extra.items() if k not in spec}
        return spec
    bet_type = posted.get("type", "")
    if bet_type not in form.types:
        raise InvalidCommand(gettext("Choose the bet type from the list."))
    spec["type"] = bet_type
    for field in form.fields:
        value = field.parse(posted.get(field.name, ""))
        if value is not None:
            spec[field.name] = value
    return spec


def form_title(game: str, form: BetForm) -> Label:
    if form.title:
        return form.title
    return bet_type_label(game, form.types[0]) if form.types else ""


# --- outcomes ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class OutcomeForm:
    """The outcome's fields (``kind``: number, dice, cards, flag, lines) and how they make the
    outcome in the game's own form."""

    fields: tuple[Field, ...]
    build: Callable[[Posted, Any], dict[str, Any]]
    note: Label = ""


def _dice(posted: Posted, count: int) -> list[int]:
    return [_whole(posted.get(f"die{i}", ""), gettext("Die %(n)s") % {"n": i})
            for i in range(1, count + 1)]


def _lines(raw: str, what: Label) -> list[tuple[int, str]]:
    """``"3: 8S 3D"`` per line -> ``[(3, "8S 3D")]``."""
    out = []
    for line in (raw or "").splitlines():
        if not line.strip():
            continue
        seat, sep, rest = line.partition(":")
        if not sep:
            raise InvalidCommand(gettext("%(field)s: begin each line with the seat and a colon, such "
                                    "as 3: AS KD") % {"field": what})
        out.append((_whole(seat, _("Seat")), rest))
    if not out:
        raise InvalidCommand(gettext("%(field)s: one line per seat, such as 3: AS KD")
                             % {"field": what})
    return out


_WORDS = {"double": ("double", "dobrar", "dobrou", "dobro"),
          "surrender": ("surrender", "desistir", "desistiu", "desistência"),
          "call": ("call", "vou"), "fold": ("fold", "passo")}


def _words(text: str) -> tuple[set[str], str]:
    """The keywords (double, surrender, call, fold, in English or Portuguese) and the rest."""
    found: set[str] = set()
    rest = []
    for word in text.split():
        key = next((k for k, words in _WORDS.items() if word.lower() in words), None)
        if key:
            found.add(key)
        else:
            rest.append(word)
    return found, " ".join(rest)


def _roulette_outcome(posted: Posted, the_round: Any) -> dict[str, Any]:
    return {"number": _whole(posted.get("number", ""), _("Winning number"))}


def _blackjack_outcome(posted: Posted, the_round: Any) -> dict[str, Any]:
    outcome: dict[str, Any] = {"dealer": {"cards": parse_cards(posted.get("dealer", ""),
                                                               _("Bank's cards"))}}
    if (the_round.play or {}).get("seats"):
        return outcome  # the hands were recorded as they were played
    seats = []
    for seat, text in _lines(posted.get("hands", ""), _("Hands")):
        hands = []
        for part in text.split("/"):
            flags, cards = _words(part)
            hand: dict[str, Any] = {"cards": parse_cards(cards, gettext("Seat %(n)s") % {"n": seat})}
            if "double" in flags:
                hand["double"] = True
            if "surrender" in flags:
                hand["surrender"] = True
            hands.append(hand)
        seats.append({"seat": seat, "hands": hands})
    outcome["seats"] = seats
    return outcome


def stud_decisions(the_round: Any) -> dict[str, str]:
    """The boxes' call or fold as the buttons recorded them (``play.decisions``)."""
    return dict((getattr(the_round, "play", None) or {}).get("decisions") or {})


def _stud_outcome(posted: Posted, the_round: Any) -> dict[str, Any]:
    """Each box's five cards; its call or fold is the one the buttons recorded (asked once),
    typed only for a box decided without them."""
    decided = stud_decisions(the_round)
    seats = []
    for seat, text in _lines(posted.get("hands", ""), _("Boxes")):
        flags, cards = _words(text)
        entry: dict[str, Any] = {"seat": seat,
                                 "cards": parse_cards(cards, gettext("Box %(n)s") % {"n": seat})}
        if str(seat) in decided:
            entry["decision"] = decided[str(seat)]
        elif "call" in flags:
            entry["decision"] = "call"
        elif "fold" in flags:
            entry["decision"] = "fold"
        seats.append(entry)
    typed = {e["seat"] for e in seats}
    for box, decision in sorted(decided.items(), key=lambda kv: int(kv[0])):
        if int(box) not in typed:  # a folded box still shows its cards (n.º 17)
            said = gettext("folded") if decision == "fold" else gettext("called")
            message = gettext("Boxes: box %(box)s %(decision)s: type its five cards too")
            text = message % {"box": box, "decision": said}
            raise InvalidCommand(text)
    return {"dealer": {"cards": parse_cards(posted.get("dealer", ""), _("Bank's cards"))},
            "seats": seats}


def _football_outcome(posted: Posted, the_round: Any) -> dict[str, Any]:
    """Card by card per seat (``seat<n>-<card>``), a third card only when drawn; or, as before,
    one line per seat."""
    if (posted.get("hands") or "").strip():
        return {"hands": [
            {"seat": seat, "cards": parse_cards(text, gettext("Seat %(n)s") % {"n": seat})}
            for seat, text in _lines(posted.get("hands", ""), _("Hands"))]}
    seats = sorted({int(k[4:].split("-")[0]) for k in posted
                    if re.fullmatch(r"seat\d+-[123]", k)})
    hands = []
    for seat in seats:
        what = gettext("Seat %(n)s") % {"n": seat}
        cards = []
        for n in (1, 2, 3):
            raw = (posted.get(f"seat{seat}-{n}") or "").strip()
            if raw:
                cards += parse_cards(raw, what)
            elif n < 3:
                raise InvalidCommand(gettext("%(field)s: card %(n)s is needed")
                                     % {"field": what, "n": n})
        hands.append({"seat": seat, "cards": cards})
    if not hands:
        raise InvalidCommand(gettext("Write each seat's cards."))
    return {"hands": hands}


def _baccarat_outcome(posted: Posted, the_round: Any) -> dict[str, Any]:
    """Card by card, in dealing order: the first two of each side, then a third when drawn
    (the rules engine says when a third card was due or not)."""
    hands: dict[str, list[str]] = {}
    for side, what in (("player", _("Player's cards")), ("banker", _("Banker's cards"))):
        if posted.get(side, "").strip():  # the cards of a side in one box, as before
            hands[side] = parse_cards(posted[side], what)
            continue
        cards = []
        for n in (1, 2, 3):
            raw = posted.get(f"{side}{n}", "").strip()
            if raw:
                cards += parse_cards(raw, format_lazy("{} {}", what, n))
            elif n < 3:
                raise InvalidCommand(gettext("%(field)s: card %(n)s is needed")
                                     % {"field": what, "n": n})
        hands[side] = cards
    return hands


def _die_fields(count: int) -> tuple[Field, ...]:
    return tuple(Field(f"die{i}", format_lazy("{} {}", _("Die"), i), "die")
                 for i in range(1, count + 1))


_ROULETTE = OutcomeForm((Field("number", _("Winning number"), "int"),),
                        _roulette_outcome)
def _card_fields(side: str, what: Label, hints: Sequence[str]) -> tuple[Field, ...]:
    return tuple(Field(f"{side}{n}", format_lazy("{} {}", what, n), "card", hint=hint,
                       required=n < 3) for n, hint in enumerate(hints, start=1))


_BACCARAT = OutcomeForm((*_card_fields("player", _("Player's card"), ("9S", "5D", "KH")),
                         *_card_fields("banker", _("Banker's card"), ("KC", "3C", ""))),
                        _baccarat_outcome,
                        _("Card by card in dealing order; the third only when drawn. "
                          "T or 10 for a ten."))

OUTCOME_FORMS: dict[str, OutcomeForm] = {
    "american_roulette": _ROULETTE,
    "french_roulette": _ROULETTE,
    "banca_francesa": OutcomeForm(
        (*_die_fields(3), Field("touched", _("The dealer touched the dice (n.º 7 d)"), "flag")),
        lambda p, r: {"dice": _dice(p, 3), "touched": p.get("touched") == "1"}),
    "craps": OutcomeForm(_die_fields(2), lambda p, r: {"dice": _dice(p, 2)},
                         _("The table point is added from the session.")),
    "cussec": OutcomeForm(_die_fields(3), lambda p, r: {"dice": _dice(p, 3)}),
    "punto_banco": _BACCARAT,
    "punto_banco_macau": _BACCARAT,
    "football_poker": OutcomeForm(
        (Field("hands", _("Hands"), "lines", hint="1: 4S KD\n2: 9H KC 5D"),),
        _football_outcome, _("Each seat's cards in dealing order; the third only when drawn "
                             "(a first two totalling 0 or 9).")),
    "blackjack": OutcomeForm(
        (Field("dealer", _("Bank's cards"), "cards", hint="TS 7H"),
         Field("hands", _("Hands"), "lines",
              hint=_("1: AS KD\n3: 8S 3D KH"))),
        _blackjack_outcome,
        _("Bank: up card, hole card, then the cards drawn. A double, a split, insurance or a "
          "surrender takes a stake: record the deal and play the hands above first (then only "
          "the bank's cards are asked here). Without a deal: one line per seat, its cards.")),
    "stud_poker": OutcomeForm(
        (Field("dealer", _("Bank's cards"), "cards", hint="AS KD 7C 5H 2D"),
         Field("hands", _("Boxes"), "lines",
               hint=_("1: AH KH QH JH TH call\n4: 9C 7D 5S 3H 2C fold"))),
        _stud_outcome, _("One line per box: its five cards, then call or fold.")),
}

RAW_OUTCOME = OutcomeForm((Field("outcome", _("Outcome (JSON)"), "json", hint='{"number": 17}'),),
                          lambda p, r: _json_object(p.get("outcome", ""), _("Outcome")))


def outcome_form(game: str) -> OutcomeForm:
    return OUTCOME_FORMS.get(game, RAW_OUTCOME)


def parse_outcome(game: str, posted: Posted, the_round: Any) -> dict[str, Any]:
    return outcome_form(game).build(posted, the_round)


def outcome_fields(game: str, the_round: Any, seats: Sequence[int] = ()) -> list[Field]:
    """The fields to show (blackjack hands recorded as played need only the bank's cards;
    football poker's hands card by card for the seats with a bet)."""
    if game == "football_poker" and seats:
        return [Field(f"seat{seat}-{n}", format_lazy("{} {} · {} {}", _("Seat"), seat,
                                                     _("card"), n), "card",
                      hint=("4S", "KD", "")[n - 1], required=n < 3)
                for seat in seats for n in (1, 2, 3)]
    fields = list(outcome_form(game).fields)
    if game == "blackjack" and (the_round.play or {}).get("seats"):
        fields = [f for f in fields if f.name != "hands"]
    if game == "stud_poker" and stud_decisions(the_round):
        # the call or fold came from the buttons: the cards only, never asked twice
        fields = [Field("hands", _("Boxes (cards only: call or fold is recorded)"), "lines",
                        hint=_("1: AH KH QH JH TH\n4: 9C 7D 5S 3H 2C")) if f.name == "hands"
                  else f for f in fields]
    return fields

