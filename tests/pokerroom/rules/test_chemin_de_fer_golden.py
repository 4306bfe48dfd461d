"""Golden cases of chemin de fer (``cases/chemin_de_fer.jsonl``), written from the rules as
``docs/poker-room.md`` states them (CF-1..CF-6), the figures worked by hand in each case's name,
never produced by the module. Each line is settled through ``settle_coup``."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from pokerroom.rules.chemin_de_fer import Coup, settle_coup
from pokerroom.rules.errors import RuleError

CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "cases" / "chemin_de_fer.jsonl").read_text().splitlines()
    if line.strip()
]


def _coup(data: dict[str, Any]) -> Coup:
    return Coup(
        punter_cards=data["punter_cards"],
        banker_cards=data["banker_cards"],
        bank=Decimal(data["bank"]),
        stakes={int(seat): Decimal(amount) for seat, amount in data["stakes"].items()},
        commission_percent=Decimal(data["commission_percent"]),
        punter_option=data.get("punter_option"),
    )


@pytest.mark.parametrize("case", CASES, ids=[case["name"][:60] for case in CASES])
def test_golden_coup(case: dict[str, Any]) -> None:
    assert case["article"]
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(RuleError) as refused:
            settle_coup(_coup(case["coup"]))
        assert refused.value.code == expected["error"]["code"]
        assert "CF-" in refused.value.message  # the refusal names its rule
        return
    result = settle_coup(_coup(case["coup"]))
    assert result.punter_total == expected["punter_total"]
    assert result.banker_total == expected["banker_total"]
    assert result.winner == expected["winner"]
    assert {str(seat): str(amount) for seat, amount in result.returned.items()} == expected["returned"]
    assert str(result.banker_result) == expected["banker_result"]
    assert str(result.commission) == expected["commission"]
    assert str(result.bank_after) == expected["bank_after"]


def test_every_rule_has_a_case() -> None:
    cited = " ".join(case["article"] for case in CASES)
    for rule in ("CF-1", "CF-2", "CF-3", "CF-4", "CF-5", "CF-6"):
        assert rule in cited
