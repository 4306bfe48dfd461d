"""The access area's events (issue 35, finding 10): who holds which role in which casino is
history, recorded as the roles are granted and removed (``access.roles``). A person is named by
their user id, never their name (the name is in the configuration, ``auth.User``)."""

from __future__ import annotations

from dataclasses import dataclass

from eventstore.events import Event


@dataclass(frozen=True, kw_only=True)
class CasinoRoleGranted(Event):
    """``user_id`` holds ``role`` in ``casino`` from now. ``approval_id``: the four-eyes
    approval that granted an administrator's or a cage supervisor's role ("" for another)."""

    event_type = "CasinoRoleGranted"
    schema_version = 1

    casino: str
    user_id: int
    role: str
    approval_id: str = ""


@dataclass(frozen=True, kw_only=True)
class CasinoRoleRemoved(Event):
    """``user_id`` no longer holds ``role`` in ``casino``."""

    event_type = "CasinoRoleRemoved"
    schema_version = 1

    casino: str
    user_id: int
    role: str
