"""Benchmark of the rules engine: bets per second through ``settle()`` and ``manage.py settle``.

    python bench/bench_settle.py [--bets N] [--seed S] [--keep]

1. ``settle()`` on roulette and dice rounds only (50-500 bets a round);
2. ``settle()`` on a mixed file: every game of the engine (roulette and dice rounds generated,
   card-game rounds drawn from the valid golden cases of ``tests/games/engine/cases``);
3. ``python manage.py settle`` on that mixed file (wall time, process start included).

Everything is generated from a seeded ``random.Random``: the same arguments give the same file.
Targets: 200,000 bets/s per core for (1); a one-million-bet mixed file in under 20 s for (3).
No database is used.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import GAMES, settle  # noqa: E402 - after the path set-up
from games.engine.roulette import NUMBER_BETS, SERIES_CHIPS  # noqa: E402

CASES_DIR = ROOT / "tests" / "games" / "engine" / "cases"
MINE = ("american_roulette", "french_roulette", "banca_francesa", "craps", "cussec")
SELECTIONS = {name: [sorted(sel) for sel in table] for name, (_, table) in NUMBER_BETS.items()}
POINTS = (4, 5, 6, 8, 9, 10)


def _amount(rng: random.Random, cents_multiple: int = 1) -> str:
    cents = rng.randint(1, 50_000) * cents_multiple
    if cents % 100 == 0 and rng.random() < 0.5:
        return str(cents // 100)
    return f"{cents // 100}.{cents % 100:02d}"


def _roulette_bet(rng: random.Random, series: bool) -> dict[str, Any]:
    roll = rng.random()
    if roll < 0.45:
        t = rng.choice(list(SELECTIONS))
        return {"type": t, "numbers": rng.choice(SELECTIONS[t]), "amount": _amount(rng)}
    if roll < 0.75:
        return {
            "type": rng.choice(["red", "black", "even", "odd", "low", "high"]),
            "amount": _amount(rng),
        }
    if roll < 0.85:
        t = rng.choice(["dozen", "column"])
        return {"type": t, t: rng.randint(1, 3), "amount": _amount(rng)}
    if roll < 0.9 or not series:
        t = rng.choice(["double_dozen", "double_column"])
        field = "dozens" if t == "double_dozen" else "columns"
        return {"type": t, field: rng.choice([[1, 2], [2, 3]]), "amount": _amount(rng)}
    if roll < 0.95:
        name = rng.choice(sorted(SERIES_CHIPS))
        return {"type": "series", "series": name, "amount": _amount(rng, SERIES_CHIPS[name])}
    k = rng.choice([2, 4, 6])
    return {
        "type": "neighbours",
        "number": rng.randint(0, 36),
        "neighbours": k,
        "amount": _amount(rng, k + 1),
    }


def _craps_bet(rng: random.Random, point: int | None) -> dict[str, Any]:
    t = rng.choice(["pass", "dont_pass", "come", "dont_come", "odds", "big_6", "big_8", "under_7", "over_7",
                    "field", "craps", "hardway", "total", "place", "lay"])  # fmt: skip
    bet: dict[str, Any] = {"type": t}
    if t in ("come", "dont_come") and (point is None or rng.random() < 0.5):
        bet["point"] = rng.choice(POINTS)
    elif t == "odds":
        bet["on"] = rng.choice(["come", "dont_come"] + (["pass", "dont_pass"] if point else []))
        if bet["on"] in ("come", "dont_come"):
            bet["point"] = rng.choice(POINTS)
    elif t == "hardway":
        bet["number"] = rng.choice([4, 6, 8, 10])
    elif t in ("place", "lay"):
        bet["number"] = rng.choice(POINTS)
    elif t == "total":
        bet["total"] = rng.choice([2, 3, 7, 11, 12])
    bet["amount"] = _amount(rng)
    return bet


def _cussec_bet(rng: random.Random) -> dict[str, Any]:
    t = rng.choice(
        ["small", "big", "single", "combination", "double", "triple", "any_triple", "total"]
    )
    bet: dict[str, Any] = {"type": t}
    if t in ("single", "double", "triple"):
        bet["number"] = rng.randint(1, 6)
    elif t == "combination":
        bet["numbers"] = rng.sample(range(1, 7), 2)
    elif t == "total":
        bet["total"] = rng.randint(4, 17)
    bet["amount"] = _amount(rng)
    return bet


def _banca_bet(rng: random.Random) -> dict[str, Any]:
    t = rng.choice(["aces", "small", "big", "small_line", "big_line"])
    return {"type": t, "amount": _amount(rng, 1000) if t.endswith("_line") else _amount(rng)}


def my_round(rng: random.Random, game: str, bets: int) -> dict[str, Any]:
    """A valid round of one of the roulette and dice games, with ``bets`` bets."""
    r: dict[str, Any] = {"game": game}
    if game in ("american_roulette", "french_roulette"):
        r["outcome"] = {"number": rng.randint(0, 36)}
        series = game == "american_roulette"
        made = [_roulette_bet(rng, series) for _ in range(bets)]
    elif game == "craps":
        point = rng.choice([None, *POINTS])
        r["options"] = {"bar": rng.choice([12, 2])}
        r["outcome"] = {"dice": [rng.randint(1, 6), rng.randint(1, 6)], "point": point}
        made = [_craps_bet(rng, point) for _ in range(bets)]
    elif game == "cussec":
        r["outcome"] = {"dice": [rng.randint(1, 6) for _ in range(3)]}
        made = [_cussec_bet(rng) for _ in range(bets)]
    else:
        r["outcome"] = {
            "dice": [rng.randint(1, 6) for _ in range(3)],
            "touched": rng.random() < 0.05,
        }
        made = [_banca_bet(rng) for _ in range(bets)]
    r["bets"] = [{"id": f"b{i}", **bet} for i, bet in enumerate(made)]
    return r


def card_templates() -> dict[str, list[dict[str, Any]]]:
    """Valid rounds of the games that are not mine, from their golden cases."""
    templates: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(CASES_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            round_ = case["round"]
            if "error" in case["expected"] or not isinstance(round_, dict):
                continue
            game = round_.get("game")
            if game in GAMES and game not in MINE and round_.get("bets"):
                templates.setdefault(game, []).append(round_)
    return templates


def roulette_and_dice(rng: random.Random, total_bets: int) -> list[dict[str, Any]]:
    rounds, made = [], 0
    while made < total_bets:
        n = min(rng.randint(50, 500), total_bets - made)
        rounds.append(my_round(rng, rng.choice(MINE), n))
        made += n
    return rounds


def mixed(
    rng: random.Random, total_bets: int, templates: dict[str, list[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Rounds of every game, drawn game by game with equal odds, until ``total_bets`` bets."""
    games = sorted(set(MINE) | set(templates))
    rounds, made = [], 0
    while made < total_bets:
        game = rng.choice(games)
        if game in MINE:
            round_ = my_round(rng, game, min(rng.randint(50, 500), total_bets - made))
        else:
            round_ = rng.choice(templates[game])
        rounds.append(round_)
        made += len(round_["bets"])
    return rounds


def time_settle(rounds: list[dict[str, Any]]) -> tuple[int, float]:
    bets = sum(len(r["bets"]) for r in rounds)
    start = time.perf_counter()
    for r in rounds:
        result = settle(r)
        if "error" in result:
            raise SystemExit(f"bench round rejected: {result} {json.dumps(r)[:300]}")
    return bets, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--bets", type=int, default=1_000_000, help="bets per measurement (default 1,000,000)"
    )
    parser.add_argument("--seed", type=int, default=217, help="random seed (default 217)")
    parser.add_argument("--keep", action="store_true", help="keep the mixed JSON Lines file")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"games registered: {', '.join(sorted(GAMES))}")
    rounds = roulette_and_dice(rng, args.bets)
    bets, seconds = time_settle(rounds)
    print(
        f"settle(), roulette + dice : {bets:>9,} bets in {len(rounds):>6,} rounds  {seconds:7.2f} s  {bets / seconds:>10,.0f} bets/s"
    )

    templates = card_templates()
    missing = sorted(set(GAMES) - set(MINE) - set(templates))
    if missing:
        print(f"(no valid golden round to draw from for: {', '.join(missing)})")
    rounds = mixed(rng, args.bets, templates)
    bets, seconds = time_settle(rounds)
    per_game: dict[str, int] = {}
    for r in rounds:
        per_game[r["game"]] = per_game.get(r["game"], 0) + 1
    print(
        f"settle(), mixed           : {bets:>9,} bets in {len(rounds):>6,} rounds  {seconds:7.2f} s  {bets / seconds:>10,.0f} bets/s"
    )
    print("  rounds per game: " + ", ".join(f"{g} {n:,}" for g, n in sorted(per_game.items())))

    out_dir = ROOT / "bench" / "out"
    out_dir.mkdir(exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="settle-mixed-", suffix=".jsonl", dir=out_dir)
    path = Path(name)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        for r in rounds:
            fh.write(json.dumps(r, separators=(",", ":")) + "\n")
    size = path.stat().st_size
    try:
        with path.open("rb") as stdin:
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), "settle"],
                cwd=ROOT,
                stdin=stdin,
                capture_output=True,
                check=False,
            )
            seconds = time.perf_counter() - start
        lines = done.stdout.count(b"\n")
        print(
            f"manage.py settle, mixed   : {bets:>9,} bets in {len(rounds):>6,} rounds  {seconds:7.2f} s  {bets / seconds:>10,.0f} bets/s"
            f"  (wall, {size / 1e6:.0f} MB in, {len(done.stdout) / 1e6:.0f} MB out, exit {done.returncode})"
        )
        if done.returncode != 0 or lines != len(rounds):
            raise SystemExit(
                f"settle command failed: exit {done.returncode}, {lines} lines\n{done.stderr.decode()[-2000:]}"
            )
    finally:
        if args.keep:
            print(f"mixed file kept: {path}")
        else:
            path.unlink()


if __name__ == "__main__":
    main()
