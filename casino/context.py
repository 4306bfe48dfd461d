"""Who is acting: the metadata every event carries."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from casino.approvals import role_words, roles_words
from casino.errors import NotAllowed, Words
from eventstore.records import Metadata

SYSTEM_ACTOR = "system"


def new_request_id() -> str:
    return uuid.uuid4().hex


def system_metadata(casino: str, *, job: str, idempotency_key: str = "") -> Metadata:
    """Metadata for a job acting on its own (a scheduled close, the demo): a named system actor."""
    request_id = new_request_id()
    return Metadata(
        actor=f"{SYSTEM_ACTOR}:{job}",
        role="system",
        casino=casino,
        request_id=request_id,
        correlation_id=request_id,
        idempotency_key=idempotency_key,
    )


def person_metadata(
    *,
    username: str,
    role: str,
    casino: str,
    request_id: str = "",
    idempotency_key: str = "",
    correlation_id: str = "",
    causation_id: str = "",
) -> Metadata:
    request_id = request_id or new_request_id()
    return Metadata(
        actor=username,
        role=role,
        casino=casino,
        request_id=request_id,
        correlation_id=correlation_id or request_id,
        causation_id=causation_id,
        idempotency_key=idempotency_key,
    )


def require_role(metadata: Metadata, roles: Sequence[str], action: str) -> None:
    """Refuse ``action`` unless the command acts in one of ``roles``: the one role check of the
    services (a door checks the role before; the service checks it again, whoever calls it)."""
    if metadata.role not in roles:
        raise NotAllowed("{action} needs one of these roles: {roles} "
                         "(you act as {value})",
                         params={"action": Words(action), "roles": roles_words(roles),
                                 "value": role_words(metadata.role or "")})
