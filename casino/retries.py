"""What a Celery task retries, and how: every task of every app takes ``**RETRY``.

A task retries only what passes by itself: the database out of reach or restarting
(``OperationalError``, ``InterfaceError``; its connection is checked before the next use,
``CONN_HEALTH_CHECKS``), a lost race PostgreSQL reported (``ConcurrentChange``,
``ConcurrencyError``), the broker or the network gone (kombu's ``OperationalError``, Redis's
``ConnectionError`` and ``TimeoutError``, ``OSError``). It waits 2, 4, 8 … seconds (at most five
minutes, jittered, ten times: about twenty minutes of outage). A refusal of the books (something
still open, a difference) is no such error: it is the task's result, for a person to act on.

Every task is idempotent (the closes by state under the append lock, the commands by key), so a
retry, or a redelivery after a worker died (``acks_late``), records nothing twice.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from casino.errors import ConcurrentChange
from eventstore.store import ConcurrencyError

TRANSIENT: tuple[type[BaseException], ...] = (
    OperationalError, InterfaceError, ConcurrentChange, ConcurrencyError, BrokerError,
    RedisConnectionError, RedisTimeoutError, OSError)

RETRY: dict[str, Any] = {
    "autoretry_for": TRANSIENT,
    "retry_backoff": 2,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 10,
}


def is_transient(error: BaseException) -> bool:
    """Whether a refusal a task caught is one to retry (a lost race), not one to report."""
    return isinstance(error, TRANSIENT) or bool(getattr(error, "extra", {}).get("retryable"))
