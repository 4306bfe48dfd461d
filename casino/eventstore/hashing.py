"""Canonical JSON and the hash chain, exactly as ``docs/event-hash.md`` specifies them.

Keep this module and ``tools/verify_events.py`` (the regulator's standalone verifier) in step:
the verifier re-implements these few lines with the standard library only.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> bytes:
    """RFC 8785-style canonical JSON for the values events hold (no floats).

    Keys sorted, no insignificant white space, UTF-8, non-ASCII characters unescaped.
    """
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def format_time(moment: datetime) -> str:
    """UTC time as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always six fractional digits)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(
    *,
    position: int,
    stream: str,
    version: int,
    event_type: str,
    schema_version: int,
    data: Any,
    metadata: Any,
    recorded_at: str,
    prev_hash: str,
) -> str:
    envelope = {
        "position": position,
        "stream": stream,
        "version": version,
        "type": event_type,
        "schema_version": schema_version,
        "data": data,
        "metadata": metadata,
        "recorded_at": recorded_at,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(envelope)).hexdigest()
