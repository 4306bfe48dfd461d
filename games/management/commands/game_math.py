"""``python manage.py game_math``: house edge, RTP and variance of every bet of every game.

The figures come from :mod:`games.engine.math`, which settles every round it weights through the
engine's ``settle()``. Exact wherever the outcome space can be enumerated; a seeded simulation with
a 95 % confidence interval for blackjack and stud poker. ``docs/game-math.md`` is this command's
``--format table`` output with the methods and strategies written around it.

    python manage.py game_math                       # every game, a table (takes minutes)
    python manage.py game_math --fast --format json  # seconds: short simulations
    python manage.py game_math --game craps --format csv
    python manage.py game_math --rounds 5000000 --seed 7 --game blackjack
    python manage.py game_math --format python > games/engine/math/figures.py  # the lookup table
"""

from __future__ import annotations

import csv
import io
import json
import time
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine.math import (
    DEFAULT_ROUNDS,
    DEFAULT_SEED,
    FAST_ROUNDS,
    GAME_ORDER,
    Figure,
    render_python,
    report,
)
from games.engine.math.core import EXACT, decimal_text, to_decimal

_PERCENT = 100


def _selection(fig: Figure) -> str:
    fields = [f"{k}={v}" for k, v in fig.bet.items() if k != "type"]
    kind = str(fig.bet["type"])
    return kind + (f" ({', '.join(fields)})" if fields else "")


def _options(fig: Figure) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in fig.options.items()) or "any"


_FOUR = Decimal("0.0001")


def _pct(value: Fraction | Decimal) -> str:
    return decimal_text(to_decimal(value) * _PERCENT, places=_FOUR)


def _method(fig: Figure) -> str:
    element = fig.as_json()
    if fig.method == EXACT:
        return f"exact {element['fraction']}"
    assert fig.ci95 is not None
    lo, hi = (_pct(bound) for bound in fig.ci95)
    return f"simulation, {fig.rounds:,} rounds, seed {fig.seed}, 95 % CI [{lo} %, {hi} %]"


def render_table(figures: list[Figure]) -> str:
    """A Markdown table per game (the tables of ``docs/game-math.md``)."""
    out: list[str] = []
    game = None
    for fig in figures:
        if fig.game != game:
            game = fig.game
            if out:
                out.append("")
            out.append(f"### {game}")
            out.append("")
            out.append("| bet | options | house edge | RTP | variance | method |")
            out.append("| --- | --- | ---: | ---: | ---: | --- |")
        out.append(
            f"| {_selection(fig)} | {_options(fig)} | {_pct(fig.house_edge)} % | "
            f"{_pct(fig.rtp)} % | {decimal_text(fig.variance, places=_FOUR)} | {_method(fig)} |"
        )
    return "\n".join(out) + "\n"


def render_csv(figures: list[Figure]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["game", "options", "bet", "house_edge", "rtp", "variance", "method", "fraction",
         "ci95_low", "ci95_high", "rounds", "seed"]
    )  # fmt: skip
    for fig in figures:
        element = fig.as_json()
        lo, hi = element.get("ci95", ("", ""))
        writer.writerow(
            [
                fig.game,
                json.dumps(fig.options, sort_keys=True),
                json.dumps(fig.bet, sort_keys=True),
                element["house_edge"],
                element["rtp"],
                element["variance"],
                fig.method,
                element.get("fraction", ""),
                lo,
                hi,
                element.get("rounds", ""),
                "" if fig.seed is None else fig.seed,
            ]
        )
    return buffer.getvalue()


class Command(BaseCommand):
    help = "House edge, RTP and variance of every bet of every game, from the rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game", choices=GAME_ORDER, action="append", help="only this game (repeatable)"
        )
        parser.add_argument(
            "--format", choices=("table", "csv", "json", "python"), default="table",
            help="table (Markdown), csv, json (one array), python (the house_edge_of lookup module)",
        )  # fmt: skip
        parser.add_argument(
            "--fast", action="store_true",
            help=f"seconds, not minutes: {FAST_ROUNDS:,} simulated rounds; exact figures unchanged",
        )  # fmt: skip
        parser.add_argument(
            "--rounds", type=int, default=None,
            help=f"simulated rounds per figure (default {DEFAULT_ROUNDS:,}; {FAST_ROUNDS:,} with --fast)",
        )  # fmt: skip
        parser.add_argument(
            "--seed", type=int, default=DEFAULT_SEED, help="seed of the simulations"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            figures = report(
                options["game"],
                fast=options["fast"],
                rounds=options["rounds"],
                seed=options["seed"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        kind = options["format"]
        if kind == "json":
            text = (
                json.dumps([fig.as_json() for fig in figures], ensure_ascii=False, indent=1) + "\n"
            )
        elif kind == "csv":
            text = render_csv(figures)
        elif kind == "python":
            text = render_python(figures)
        else:
            text = render_table(figures)
        self.stdout.write(text, ending="")
        self.stderr.write(
            f"game_math: {len(figures)} figures in {time.monotonic() - started:.1f} s"
        )
