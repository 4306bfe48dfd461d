"""Static files in production (issue 35, finding 7): under gunicorn with DEBUG off, htmx (the
floor, the close's progress) and cage/grid.js (totals, change due, the double-click guard)
were 404s. WhiteNoise serves them from STATIC_ROOT after ``collectstatic``."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.template import engines
from django.test import Client, override_settings


@pytest.mark.django_db
def test_htmx_and_the_cage_grid_are_served_with_debug_off(settings: Any,
                                                           tmp_path: Path) -> None:
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", "--noinput", stdout=StringIO())
    htmx = re.search(r'src="([^"]+)"', engines["django"].from_string(
        "{% load django_htmx %}{% htmx_script %}").render({}))
    assert htmx is not None
    # a new middleware chain (WhiteNoise reads STATIC_ROOT when it starts), as gunicorn's
    with override_settings(STATIC_ROOT=tmp_path / "static"):
        client = Client()
        for path in (htmx.group(1), "/static/cage/grid.js"):
            answer = client.get(path)
            assert answer.status_code == 200, path
            body = b"".join(answer.streaming_content)  # type: ignore[attr-defined]
            assert len(body) > 1000, path
            assert answer["Content-Type"].startswith(("text/javascript",
                                                      "application/javascript")), path
