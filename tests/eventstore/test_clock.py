"""The one clock (``eventstore.clock``, issue 36): the wall clock, unless the demo sets one, and
only the demo may (DEBUG)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from eventstore import clock

ROOT = Path(__file__).resolve().parents[2]
AT = dt.datetime(2026, 3, 1, 15, 30, tzinfo=dt.UTC)


def test_only_the_demo_sets_the_clock(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(RuntimeError, match="only by the demo"), clock.clock_set(lambda: AT):
        pass
    assert clock.now() != AT


def test_a_set_clock_is_now_within_its_block_and_the_wall_clock_after(settings: Any) -> None:
    settings.DEBUG = True
    with clock.clock_set(lambda: AT):
        assert clock.now() == AT
    assert abs(clock.now() - dt.datetime.now(dt.UTC)) < dt.timedelta(minutes=1)


def test_manage_py_without_a_key_says_what_to_do_not_a_traceback() -> None:
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "SECRET_KEY must be set when DEBUG is off" in done.stderr
    assert "python3 dev.py manage check ..." in done.stderr
