"""The settings mypy's Django plugin loads (``[tool.django-stubs]`` in pyproject.toml): the
production settings, with a placeholder ``SECRET_KEY`` when none is set, so that type checking
needs no secret (it never serves a request)."""

import os

os.environ.setdefault("SECRET_KEY", "type-checking-only-not-a-secret-" + "x" * 32)

from config.settings import *  # noqa: F403
