"""Celery routing by the casino's cell (``CELERY_TASK_ROUTES``): a task for a casino goes to its
cell's queue, ``cell.<name>``, so a group's workers serve many cells and a slow cell (its closes,
seals, rebuilds, exports) delays no other. A task that names no casino goes to this deployment's
own cell. Without cells configured, Celery's default queue, as before."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from .config import cell_of, parse_cells, queue_of


def _casino(args: Any, kwargs: Any) -> str:
    """The casino a task is for: its ``casino`` argument (by name, or first), or the casino of
    its ``metadata``."""
    kwargs = kwargs or {}
    if isinstance(kwargs.get("casino"), str):
        return str(kwargs["casino"])
    meta = kwargs.get("metadata")
    if isinstance(meta, dict) and isinstance(meta.get("casino"), str):
        return str(meta["casino"])
    for value in args or ():
        if isinstance(value, dict) and isinstance(value.get("casino"), str):
            return str(value["casino"])
    return ""


def route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None,
          **extra: Any) -> dict[str, str] | None:
    own = getattr(settings, "CASINO_CELL", "")
    cells = parse_cells(getattr(settings, "CASINO_CELLS", ""))
    casino = _casino(args, kwargs)
    if not casino and args and isinstance(args[0], str) and task is not None:
        params = getattr(getattr(task, "__wrapped__", None) or task.run, "__code__", None)
        if params is not None and params.co_varnames[:1] == ("casino",):
            casino = args[0]
    queue = queue_of(cell_of(casino, cells, own) if casino else own)
    return {"queue": queue} if queue else None
