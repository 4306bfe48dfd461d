"""``python manage.py settle`` (docs/settlement.md § The command).

Every golden case file goes through the command in ONE subprocess and must give, line by line,
what the golden case expects; then the command's own rules: blank lines, lines that are not JSON,
exit status, nothing else on stdout.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
CASES_DIR = Path(__file__).parent / "cases"
CASE_FILES = sorted(CASES_DIR.glob("*.jsonl"))


def run(stdin: bytes) -> tuple[int, list[bytes], bytes]:
    """Run the command; return (exit status, stdout lines, stderr)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "settle"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.stdout == b"" or done.stdout.endswith(b"\n"), done.stdout[-200:]
    return done.returncode, done.stdout.splitlines(), done.stderr


def check_result(result: dict[str, Any], expected: dict[str, Any]) -> None:
    if "error" in expected:
        assert set(result) == {"error"}, result
        assert result["error"]["code"] == expected["error"]["code"], result
        assert result["error"]["message"]
        if "bet" in expected["error"]:
            assert result["error"].get("bet") == expected["error"]["bet"], result
    else:
        assert result == expected


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_every_golden_case_through_the_command(path: Path) -> None:
    cases = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    stdin = "".join(json.dumps(case["round"]) + "\n" for case in cases).encode()
    status, lines, stderr = run(stdin)
    assert len(lines) == len(cases), stderr.decode()
    for case, line in zip(cases, lines, strict=True):
        try:
            check_result(json.loads(line), case["expected"])
        except AssertionError as failure:
            raise AssertionError(f"{path.stem}:{case['name']}: {failure}") from None
    any_rejected = any("error" in case["expected"] for case in cases)
    assert status == (2 if any_rejected else 0), stderr.decode()


GOOD = b'{"game":"cussec","outcome":{"dice":[2,2,5]},"bets":[{"id":"a","type":"double","number":2,"amount":"1.5"}]}'
GOOD_RESULT = {
    "game": "cussec",
    "outcome": {"dice": [2, 2, 5], "total": 9, "triple": False},
    "bets": [{"id": "a", "status": "won", "stake": "1.50", "win": "15.00", "returned": "16.50"}],
}


def test_all_settled_exits_0_and_prints_only_results() -> None:
    status, lines, _ = run(GOOD + b"\n" + GOOD + b"\n")
    assert status == 0
    assert [json.loads(line) for line in lines] == [GOOD_RESULT, GOOD_RESULT]


def test_blank_lines_are_skipped_without_output() -> None:
    stdin = b"\n" + GOOD + b"\n\n   \n\t\n\r\n" + GOOD + b"\r\n\n"
    status, lines, _ = run(stdin)
    assert status == 0
    assert [json.loads(line) for line in lines] == [GOOD_RESULT, GOOD_RESULT]


def test_empty_input_prints_nothing() -> None:
    status, lines, _ = run(b"")
    assert (status, lines) == (0, [])
    status, lines, _ = run(b"\n\n  \n")
    assert (status, lines) == (0, [])


def test_last_line_without_newline() -> None:
    status, lines, _ = run(GOOD)
    assert status == 0
    assert [json.loads(line) for line in lines] == [GOOD_RESULT]


@pytest.mark.parametrize(
    "bad",
    [
        b"nope",
        b"{",
        b'{"game": "cussec",}',
        b"NaN",
        b"Infinity",
        b"-Infinity",
        b'{"game":"cussec","outcome":{"dice":[1,2,NaN]},"bets":[]}',
        b'{"game":"cussec","outcome":{"dice":[1,2,3]},"bets":[{"id":"a","type":"small","amount":Infinity}]}',
        b"\xff\xfe{}",
        b'{"game":"cussec"} trailing',
        b"'single quotes'",
        b"null",
        b"[]",
        b'"a string"',
        b"17",
    ],
)
def test_a_line_that_is_not_a_round_is_malformed_and_the_run_goes_on(bad: bytes) -> None:
    status, lines, _ = run(GOOD + b"\n" + bad + b"\n" + GOOD + b"\n")
    assert status == 2
    assert len(lines) == 3
    first, error, last = (json.loads(line) for line in lines)
    assert first == last == GOOD_RESULT
    assert error["error"]["code"] == "malformed"
    assert set(error) == {"error"}


def test_numbers_with_a_fraction_are_never_integers_nor_money() -> None:
    stdin = b"\n".join(
        [
            b'{"game":"french_roulette","outcome":{"number":17.0},"bets":[]}',
            b'{"game":"french_roulette","outcome":{"number":1.7e1},"bets":[]}',
            b'{"game":"french_roulette","outcome":{"number":17},"bets":[{"id":"a","type":"red","amount":10.5}]}',
            b'{"game":"craps","options":{"bar":12.0},"outcome":{"dice":[1,2]},"bets":[]}',
            b'{"game":"cussec","outcome":{"dice":[1,2,3]},"bets":[{"id":"a","type":"total","total":6.0,"amount":"1"}]}',
        ]
    )
    status, lines, _ = run(stdin + b"\n")
    assert status == 2
    codes = [json.loads(line)["error"]["code"] for line in lines]
    assert codes == [
        "invalid_outcome",
        "invalid_outcome",
        "malformed",
        "invalid_option",
        "invalid_bet",
    ]


def test_one_rejected_line_among_many_exits_2_and_keeps_order() -> None:
    rounds = [
        {
            "game": "french_roulette",
            "outcome": {"number": n % 37},
            "bets": [{"id": str(n), "type": "red", "amount": "1"}],
        }
        for n in range(2000)
    ]
    rounds[1234]["outcome"]["number"] = 99
    stdin = "".join(json.dumps(r) + "\n" for r in rounds).encode()
    status, lines, _ = run(stdin)
    assert status == 2
    results = [json.loads(line) for line in lines]
    assert len(results) == 2000
    assert results[1234]["error"]["code"] == "invalid_outcome"
    for n, result in enumerate(results):
        if n != 1234:
            assert result["bets"][0]["id"] == str(n)
            assert result["outcome"]["number"] == n % 37


def test_non_ascii_ids_round_trip() -> None:
    stdin = '{"game":"cussec","outcome":{"dice":[1,1,1]},"bets":[{"id":"aposta é 😀","type":"any_triple","amount":"1"}]}\n'
    status, lines, _ = run(stdin.encode("utf-8"))
    assert status == 0
    assert json.loads(lines[0])["bets"][0]["id"] == "aposta é 😀"
