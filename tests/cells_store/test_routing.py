"""Celery queues per cell: a task for a casino goes to its cell's queue (docs/cells.md)."""

from __future__ import annotations

from typing import Any

import pytest

from cells.config import cell_of, parse_cells
from cells.routing import route
from reporting.tasks import gaming_day_close_task

CELLS = "pt=lisboa,estoril;mo=macau"


def test_the_cells_are_read_and_a_casino_in_two_is_refused() -> None:
    assert parse_cells(CELLS) == {"pt": ("lisboa", "estoril"), "mo": ("macau",)}
    assert cell_of("estoril", parse_cells(CELLS)) == "pt"
    assert cell_of("porto", parse_cells(CELLS), "pt") == "pt"  # unlisted: this cell's
    with pytest.raises(ValueError, match="'macau' is in cells 'mo' and 'pt'"):
        parse_cells("mo=macau;pt=lisboa,macau")
    with pytest.raises(ValueError, match="cell=casino"):
        parse_cells("lisboa")


def test_a_task_goes_to_its_casinos_cell_and_one_of_no_casino_to_this_cell(
        settings: Any) -> None:
    settings.CASINO_CELL, settings.CASINO_CELLS = "pt", CELLS
    task = gaming_day_close_task
    # by the task's casino argument, named or first; by its metadata's casino
    assert route(task.name, ["macau", "2026-12-06"], {}, {}, task=task) == {"queue": "cell.mo"}
    assert route(task.name, [], {"casino": "estoril", "day": "2026-12-06"}, {}) == {
        "queue": "cell.pt"}
    assert route("cage.shift_close", ["s1", {"casino": "macau", "actor": "a"}], {}, {}) == {
        "queue": "cell.mo"}
    assert route("ledger.results_export", ["e1"], {}, {}) == {"queue": "cell.pt"}
    settings.CASINO_CELL, settings.CASINO_CELLS = "", ""
    assert route(task.name, ["macau", "2026-12-06"], {}, {}, task=task) is None  # no cells
