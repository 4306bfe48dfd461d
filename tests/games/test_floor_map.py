"""The floor map (issue 36, item 9): every table a tile, one pit per game, each with its game,
open or closed, and its running result on the hold check's band, red outside it; drawn on the
server as SVG, and polled with the floor."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from casino.models import Role
from games.services import round_record, table_session_open
from games.web.floor_map import BAR_W, BAR_X, floor_map

from .conftest import CASINO, pit
from .test_web import person

pytestmark = pytest.mark.django_db


def test_the_map_draws_every_table_its_game_status_and_result_against_its_band(
        make_table: Any) -> None:
    lucky = make_table("american_roulette", "r2", minimum="5")
    make_table("american_roulette", "r1", minimum="5")  # configured, never opened: closed
    make_table("blackjack", "bj1", minimum="5")
    session = table_session_open(casino=CASINO, table=lucky, opening={"100.00": 10},
                                 metadata=pit()).session_id
    # a straight 10 on 17 and 17 comes: the house pays 350, outside the band -114.15 … 114.69
    # (tests/games/test_floor.py works the band out)
    round_record(session_id=session, bets=[{"seat": 1, "type": "straight", "numbers": [17],
                                            "amount": "10"}],
                 outcome={"number": 17}, metadata=pit())
    drawn = floor_map(CASINO)
    tiles = {t.table: t for t in drawn.tiles}
    assert [p.game for p in drawn.pits] == ["American roulette", "Blackjack"]
    # the pits side by side: roulette's r1 above r2, blackjack's bj1 in the next column
    assert tiles["r1"].x == tiles["r2"].x < tiles["bj1"].x
    assert tiles["r1"].y < tiles["r2"].y
    assert (tiles["r1"].open, tiles["bj1"].open) == (False, False)
    r2 = tiles["r2"]
    assert (r2.open, r2.result, r2.flag) == (True, Decimal("-350.00"), True)
    assert (r2.low, r2.high) == (Decimal("-114.15"), Decimal("114.69"))
    assert r2.marker == r2.x + BAR_X  # below the band: held at its low end
    assert r2.bar_to - r2.bar_from == BAR_W

    page = person("fiscal", Role.PIT_BOSS).get(f"/pit/{CASINO}/floor/").content.decode()
    assert '<svg class="floor-map" role="img" aria-label="The floor map"' in page
    assert f'hx-get="/pit/{CASINO}/floor/map/"' in page
    assert "-€350.00" in page
    polled = person("chefe", Role.PIT_BOSS).get(f"/pit/{CASINO}/floor/map/").content.decode()
    assert "<svg" in polled[:400]
