"""Every range a request can ask for is bounded (issue 35, finding 5): gross-gaming-revenue
walked every month of ``from..to`` (a request held a worker's core for two minutes) and
``to=9999-12-31`` was a 500. At most 366 gaming days, of days 2000-01-01 to 2199-12-31."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.models import Role

from .conftest import CASINO
from .test_api import person

pytestmark = pytest.mark.django_db
API = f"/api/v1/ledger/{CASINO}"


@pytest.fixture
def accountant(floor: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(person("alice", Role.ACCOUNTANT))
    return client


@pytest.mark.parametrize("report", ["gross-gaming-revenue", "trial-balance", "results"])
@pytest.mark.parametrize(("period", "field"), [
    ("from=2026-01-01&to=9999-12-31", "to"),
    ("from=0001-01-01&to=2026-01-01", "from"),
    # 2025-01-01 to 2026-01-01 is 366 days, 2025-01-01 to 2026-01-02 is 367
    ("from=2025-01-01&to=2026-01-02", "to"),
])
def test_a_period_beyond_the_bounds_is_a_400_naming_it(accountant: APIClient, report: str,
                                                        period: str, field: str) -> None:
    answer = accountant.get(f"{API}/{report}/?{period}")
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["error"]["extra"]["field"] == field


def test_a_year_is_the_longest_period(accountant: APIClient) -> None:
    answer = accountant.get(f"{API}/gross-gaming-revenue/?from=2025-01-01&to=2026-01-01")
    assert answer.status_code == 200
    # 2025-01 .. 2026-01: thirteen months, nothing played
    assert len(answer.json()["months"]) == 13
