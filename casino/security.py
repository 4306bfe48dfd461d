"""Security events worth a line in the log: a login locked out (django-axes' signal)."""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("casino.security")


def log_lockout(sender: Any, *, request: Any = None, username: str | None = None,
                ip_address: str | None = None, **_: Any) -> None:
    """After too many wrong passwords: who, from where, and for how long (the settings)."""
    from django.conf import settings

    log.warning("login locked out: user %r from %s after %d wrong passwords, for %s",
                username, ip_address, settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME)
