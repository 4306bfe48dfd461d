"""The clock the platform records by: the wall clock, unless a demo has set one.

Every ``recorded_at`` the store stamps and every "which gaming day is it" a service asks goes
through ``now()``. In production it is ``django.utils.timezone.now()``, always. The demo (DEBUG
only) plays past gaming days as they would have been lived: it sets a clock that stands at a
moment of that day (``clock_set``), so the events it appends are stamped inside the day, in
order, as a casino would have recorded them; nothing is ever backdated after the fact (events
are append-only). ``clock_set`` refuses outside DEBUG.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from django.conf import settings
from django.utils import timezone

_set: ContextVar[Callable[[], dt.datetime] | None] = ContextVar("eventstore_clock", default=None)


def now() -> dt.datetime:
    """The moment now: the wall clock, or the demo's clock while one is set."""
    clock = _set.get()
    return timezone.now() if clock is None else clock()


@contextlib.contextmanager
def clock_set(clock: Callable[[], dt.datetime]) -> Iterator[None]:
    """Within the block, ``now()`` asks ``clock`` (an aware datetime). DEBUG only: a demo's."""
    if not settings.DEBUG:
        raise RuntimeError("a clock is set only by the demo, with DEBUG on")
    token = _set.set(clock)
    try:
        yield
    finally:
        _set.reset(token)
