"""``python manage.py settle_jackpot``: JSON Lines in, JSON Lines out, with ``settle``'s
conventions (blank lines skipped, errors on their own line, exit status 2 when any line was
rejected, nothing else on stdout). Run as a real subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from jackpots.rules import pay_coup

from .conftest import EXAMPLES, example_request

ROOT = Path(__file__).resolve().parents[2]


def run(stdin: bytes) -> tuple[int, list[bytes], bytes]:
    done = subprocess.run([sys.executable, "manage.py", "settle_jackpot"], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=300, check=False)
    assert done.stdout == b"" or done.stdout.endswith(b"\n"), done.stdout[-200:]
    return done.returncode, done.stdout.splitlines(), done.stderr


def lines(*requests: Any) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in requests)


def test_every_worked_example_through_the_command() -> None:
    names = sorted(EXAMPLES)
    status, out, stderr = run(lines(*(example_request(n) for n in names)))
    assert status == 0, stderr.decode()
    assert [json.loads(line) for line in out] == [EXAMPLES[n]["result"] for n in names]


def test_the_command_and_pay_coup_give_the_same_answer_errors_included() -> None:
    requests: list[Any] = [example_request("A"), {"game": "craps"}, example_request("D"),
                           dict(example_request("B"), pool=30000)]
    status, out, _ = run(lines(*requests))
    assert [json.loads(line) for line in out] == [pay_coup(r) for r in requests]
    assert status == 2


def test_blank_lines_are_skipped_and_errors_take_their_own_line() -> None:
    good = json.dumps(example_request("B")).encode()
    stdin = b"\n" + good + b"\n\n   \n\t\nnot json\n" + good + b"\r\n\n"
    status, out, _ = run(stdin)
    assert len(out) == 3
    first, error, last = (json.loads(line) for line in out)
    assert first == last == EXAMPLES["B"]["result"]
    assert set(error) == {"error"}
    assert error["error"]["code"] == "malformed"
    assert status == 2


def test_nan_and_numbers_are_not_amounts() -> None:
    request = example_request("A")
    nan_line = json.dumps(request).replace('"52345.67"', "NaN").encode()
    number_line = json.dumps(request).replace('"52345.67"', "52345.67").encode()
    status, out, _ = run(nan_line + b"\n" + number_line + b"\n")
    assert [json.loads(line)["error"]["code"] for line in out] == ["malformed", "malformed"]
    assert status == 2


def test_all_paid_exits_0_and_an_empty_input_prints_nothing() -> None:
    status, out, _ = run(lines(example_request("C")))
    assert (status, len(out)) == (0, 1)
    status, out, _ = run(b"\n\n")
    assert (status, out) == (0, [])


def test_a_void_coup_through_the_command() -> None:
    request = dict(example_request("B"), void=True,
                   bets=[{"id": b["id"], "amount": b["amount"]}
                         for b in example_request("B")["bets"]])
    status, out, _ = run(lines(request))
    assert status == 0
    assert json.loads(out[0]) == pay_coup(request)
    assert json.loads(out[0])["pool_after"] == "30002.10"  # 30,000.00 + 3 x 0.70, nothing paid
