"""In a cell (not a regulator's store), the follower refuses to run and the lag page is empty:
a cell's projections are live, applying its events again would count them twice."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cells.follower import NotAStore, follow
from cells.lag import store_lag

pytestmark = pytest.mark.django_db


def test_the_follower_refuses_a_cells_database() -> None:
    with pytest.raises(CommandError, match="not a regulator's store"):
        call_command("cells_follow", "--once")
    with pytest.raises(NotAStore):
        follow()
    assert store_lag() == []
