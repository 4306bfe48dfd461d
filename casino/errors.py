"""One error family for every refusal, mapped to HTTP by one exception handler.

``code`` is what a program acts on; ``message`` says what was wrong in words a cashier or a pit
boss understands; ``extra`` carries the details (the field, the article of the regulation...).
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "invalid"
    http_status = 400

    def __init__(self, message: str, *, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "extra": self.extra}


class InvalidCommand(DomainError):
    """The request itself is wrong (bad amount, unknown denomination, impossible outcome)."""

    code = "invalid"
    http_status = 400


class NotFound(DomainError):
    code = "not_found"
    http_status = 404


class NotAllowed(DomainError):
    """The person may not do this (role, four eyes)."""

    code = "not_allowed"
    http_status = 403


class Conflict(DomainError):
    """The state does not allow it now (closed session, settled round, someone else was first)."""

    code = "conflict"
    http_status = 409
