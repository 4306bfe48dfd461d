"""Words the pit's screens show for the codes the projections hold (games, statuses, bet types),
in the language of the request. The codes stay what the events and the API say."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

Label = Promise | str

GAMES: dict[str, Label] = {
    "american_roulette": _("American roulette"),
    "french_roulette": _("French roulette"),
    "banca_francesa": _("Banca francesa"),
    "craps": _("Craps"),
    "cussec": _("Cussec"),
    "blackjack": _("Blackjack"),
    "stud_poker": _("Stud poker"),
    "punto_banco": _("Punto banco"),
    "punto_banco_macau": _("Punto banco (Macau)"),
    "football_poker": _("Football poker"),
}

SESSION_STATUS: dict[str, Label] = {
    "open": pgettext_lazy("session status", "open"),
    "closed": pgettext_lazy("session status", "closed"),
}

ROUND_STATUS: dict[str, Label] = {
    "betting": _("taking bets"),
    "closed": _("no more bets"),
    "outcome": _("outcome recorded"),
    "settled": pgettext_lazy("round status", "settled"),
    "voided": _("void (golpe nulo)"),
}

BET_STATUS: dict[str, Label] = {
    "won": pgettext_lazy("bet status", "won"),
    "lost": pgettext_lazy("bet status", "lost"),
    "push": pgettext_lazy("bet status", "push (stands)"),
    "half_lost": pgettext_lazy("bet status", "half lost"),
    "pending": pgettext_lazy("bet status", "working (pending)"),
}

JACKPOT_BET_STATUS: dict[str, Label] = {
    "placed": pgettext_lazy("jackpot chip", "placed"),
    "returned": pgettext_lazy("jackpot chip", "returned (void before the chips were collected)"),
    "void": pgettext_lazy("jackpot chip", "in the pool, decided nothing (void round)"),
    "won": pgettext_lazy("jackpot chip", "won a combination"),
    "lost": pgettext_lazy("jackpot chip", "no combination"),
}

SLIP_KIND: dict[str, Label] = {
    "fill": pgettext_lazy("slip", "fill"),
    "credit": pgettext_lazy("slip", "credit"),
}

SLIP_STATUS: dict[str, Label] = {
    "requested": pgettext_lazy("slip status", "requested"),
    "issued": pgettext_lazy("slip status", "issued by the cage"),
    "received": pgettext_lazy("slip status", "received by the cage"),
    "voided": pgettext_lazy("slip status", "voided"),
    "refused": pgettext_lazy("slip status", "refused by the cage"),
}

COLOURS: dict[str, Label] = {
    "red": pgettext_lazy("roulette colour", "red"),
    "black": pgettext_lazy("roulette colour", "black"),
    "green": pgettext_lazy("roulette colour", "green"),
}

BET_TYPES: dict[str, Label] = {
    # roulette
    "straight": pgettext_lazy("bet type", "Straight up"),
    "split": pgettext_lazy("bet type", "Split"),
    "street": pgettext_lazy("bet type", "Street"),
    "corner": pgettext_lazy("bet type", "Corner"),
    "line": pgettext_lazy("bet type", "Line (six numbers)"),
    "dozen": pgettext_lazy("bet type", "Dozen"),
    "column": pgettext_lazy("bet type", "Column"),
    "double_dozen": pgettext_lazy("bet type", "Double dozen"),
    "double_column": pgettext_lazy("bet type", "Double column"),
    "red": pgettext_lazy("bet type", "Red"),
    "black": pgettext_lazy("bet type", "Black"),
    "even": pgettext_lazy("bet type", "Even"),
    "odd": pgettext_lazy("bet type", "Odd"),
    "low": pgettext_lazy("bet type", "Low (1–18)"),
    "high": pgettext_lazy("bet type", "High (19–36)"),
    "series": pgettext_lazy("bet type", "Series"),
    "neighbours": pgettext_lazy("bet type", "Number and neighbours"),
    # banca francesa, cussec
    "aces": pgettext_lazy("bet type", "Aces"),
    "small": pgettext_lazy("bet type", "Small"),
    "big": pgettext_lazy("bet type", "Big"),
    "small_line": pgettext_lazy("bet type", "Small, on the line"),
    "big_line": pgettext_lazy("bet type", "Big, on the line"),
    "single": pgettext_lazy("bet type", "Single number"),
    "combination": pgettext_lazy("bet type", "Combination"),
    "triple": pgettext_lazy("bet type", "Triple"),
    "any_triple": pgettext_lazy("bet type", "Any triple"),
    "total": pgettext_lazy("bet type", "Total"),
    # craps
    "pass": pgettext_lazy("bet type", "Pass line"),
    "dont_pass": pgettext_lazy("bet type", "Don't pass"),
    "come": pgettext_lazy("bet type", "Come"),
    "dont_come": pgettext_lazy("bet type", "Don't come"),
    "odds": pgettext_lazy("bet type", "Odds"),
    "big_6": pgettext_lazy("bet type", "Big 6"),
    "big_8": pgettext_lazy("bet type", "Big 8"),
    "under_7": pgettext_lazy("bet type", "Under 7"),
    "over_7": pgettext_lazy("bet type", "Over 7"),
    "field": pgettext_lazy("bet type", "Field"),
    "craps": pgettext_lazy("bet type", "Any craps"),
    "hardway": pgettext_lazy("bet type", "Hardway"),
    "place": pgettext_lazy("bet type", "Place"),
    "lay": pgettext_lazy("bet type", "Lay"),
    # card games
    "main": pgettext_lazy("bet type", "Main bet"),
    "back": pgettext_lazy("bet type", "Back bet"),
    "insurance": pgettext_lazy("bet type", "Insurance"),
    "ante": pgettext_lazy("bet type", "Ante"),
    "call": pgettext_lazy("bet type", "Call"),
    "player": pgettext_lazy("bet type", "Player"),
    "banker": pgettext_lazy("bet type", "Banker"),
    "tie": pgettext_lazy("bet type", "Tie"),
    "player_pair": pgettext_lazy("bet type", "Player pair"),
    "banker_pair": pgettext_lazy("bet type", "Banker pair"),
    "upper": pgettext_lazy("bet type", "Upper range"),
    "lower": pgettext_lazy("bet type", "Lower range"),
    "post": pgettext_lazy("bet type", "Post (draw)"),
}

# The same code, another bet, in another game.
BET_TYPES_BY_GAME: dict[str, dict[str, Label]] = {
    "cussec": {"double": pgettext_lazy("bet type", "Double (a given pair)"), "small": pgettext_lazy("bet type", "Small (4–10)"),
               "big": pgettext_lazy("bet type", "Big (11–17)")},
    "blackjack": {"double": pgettext_lazy("bet type", "Double down"), "split": pgettext_lazy("bet type", "Split hand")},
    "banca_francesa": {"small": pgettext_lazy("bet type", "Small (5–7)"), "big": pgettext_lazy("bet type", "Big (14–16)")},
}


# The tables' limit groups that are not one bet type (games.limits): the rest are said as the
# bet type they limit.
LIMIT_GROUPS: dict[str, Label] = {
    "even_chances": pgettext_lazy("limit group", "Even chances"),
    "small_big": pgettext_lazy("limit group", "Small and big, on the line or not"),
    "player_banker": pgettext_lazy("limit group", "Player and banker"),
    "pairs": pgettext_lazy("limit group", "Pairs"),
    "series_big": pgettext_lazy("limit group", "Series: big"),
    "series_small": pgettext_lazy("limit group", "Series: small"),
    "series_orphans": pgettext_lazy("limit group", "Series: orphans"),
    "place_4_10": pgettext_lazy("limit group", "Place 4 and 10"),
    "place_5_9": pgettext_lazy("limit group", "Place 5 and 9"),
    "place_6_8": pgettext_lazy("limit group", "Place 6 and 8"),
    "lay_4_10": pgettext_lazy("limit group", "Lay 4 and 10"),
    "lay_5_9": pgettext_lazy("limit group", "Lay 5 and 9"),
    "lay_6_8": pgettext_lazy("limit group", "Lay 6 and 8"),
}


def limit_group_label(game: str, group: str) -> Label:
    return LIMIT_GROUPS.get(group) or bet_type_label(game, group)


def game_label(game: str) -> Label:
    return GAMES.get(game, game)


def bet_type_label(game: str, bet_type: str) -> Label:
    return BET_TYPES_BY_GAME.get(game, {}).get(bet_type) or BET_TYPES.get(bet_type, bet_type)


def label(mapping: dict[str, Label], code: str | None) -> Label:
    if not code:
        return ""
    return mapping.get(code, code)
