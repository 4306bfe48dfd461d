"""Golden cases: every ``cases/<game>.jsonl`` line settled through ``games.engine.settle()``.

One JSON object per line: ``{"name", "article", "round", "expected"}``. ``expected`` is the full
result, or ``{"error": {"code": ..., ["bet": ...]}}``: for an error only ``error.code`` and, where
the case gives it, ``error.bet`` are compared (``message`` is free text). The expected figures are
derived by hand from the regulation and the interpretations of docs/settlement.md, never produced by
the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import settle

CASES_DIR = Path(__file__).parent / "cases"


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    """``(game:name, case)`` for every line of every case file, in file order."""
    cases = []
    for path in sorted(CASES_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                cases.append((f"{path.stem}:{case['name']}", case))
    return cases


CASES = load_cases()


def check_result(result: dict[str, Any], expected: dict[str, Any]) -> None:
    """Compare a settlement with a golden expectation (the rule above)."""
    if "error" in expected:
        assert set(result) == {"error"}, result
        error = result["error"]
        assert error["code"] == expected["error"]["code"], error
        assert isinstance(error.get("message"), str)
        assert error["message"]
        assert set(error) <= {"code", "message", "bet"}
        if "bet" in expected["error"]:
            assert error.get("bet") == expected["error"]["bet"], error
    else:
        assert result == expected


@pytest.mark.parametrize(("case_id", "case"), CASES, ids=[case_id for case_id, _ in CASES])
def test_golden_case(case_id: str, case: dict[str, Any]) -> None:
    check_result(settle(case["round"]), case["expected"])


def test_case_files_are_well_formed() -> None:
    assert CASES, "no golden cases found"
    names = [case_id for case_id, _ in CASES]
    assert len(names) == len(set(names)), "two cases share a game:name"
    for case_id, case in CASES:
        assert set(case) == {"name", "article", "round", "expected"}, case_id
        assert case["article"], case_id
