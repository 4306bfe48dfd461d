"""Who is acting: the metadata every event carries."""

from __future__ import annotations

import uuid

from eventstore.store import Metadata

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
