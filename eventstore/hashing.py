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


# One encoder for all calls: json.dumps() with options builds a new one every time.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                            allow_nan=False)
_STRING = json.JSONEncoder(ensure_ascii=False).encode


def _c_canonical() -> Any:
    """The standard library's C encoder with the options above, built once.

    ``JSONEncoder.encode`` builds it anew on every call, which cost more than the encoding of an
    event's data. Same output (the tests compare with ``json.dumps``); no check for circular
    structures, which events never hold. None where the C encoder is missing or differs.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        encoder = make(None, _ENCODER.default, json.encoder.encode_basestring, None,
                       _ENCODER.key_separator, _ENCODER.item_separator, True, False, False)
        if "".join(encoder({"b": [1, "é"], "a": None}, 0)) != '{"a":null,"b":[1,"é"]}':
            return None
    except TypeError:
        return None
    return encoder


_C_CANONICAL = _c_canonical()


def _canonical(value: Any) -> str:
    if _C_CANONICAL is None or type(value) is str:
        return _ENCODER.encode(value)
    return "".join(_C_CANONICAL(value, 0))


_CANONICAL = _canonical


def canonical_json(value: Any) -> bytes:
    """RFC 8785-style canonical JSON for the values events hold (no floats).

    Keys sorted, no insignificant white space, UTF-8, non-ASCII characters unescaped.
    """
    return _CANONICAL(value).encode("utf-8")


def canonical_text(value: Any) -> str:
    """``canonical_json`` as text, before its UTF-8 encoding."""
    return _CANONICAL(value)


def format_time(moment: datetime) -> str:
    """UTC time as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always six fractional digits)."""
    # isoformat() is several times faster than strftime() and writes the same digits.
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


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
    return event_hash_from_json(
        position=position,
        stream=stream,
        version=version,
        event_type=event_type,
        schema_version=schema_version,
        data_json=canonical_text(data),
        metadata_json=canonical_text(metadata),
        recorded_at=recorded_at,
        prev_hash=prev_hash,
    )


def event_hash_from_json(
    *,
    position: int,
    stream: str,
    version: int,
    event_type: str,
    schema_version: int,
    data_json: str,
    metadata_json: str,
    recorded_at: str,
    prev_hash: str,
) -> str:
    """The same hash, from data and metadata already in canonical JSON: ``ChainHasher`` for
    one event."""
    hasher = ChainHasher(stream=stream, recorded_at=recorded_at, metadata_json=metadata_json)
    return hasher(position=position, version=version, event_type=event_type,
                  schema_version=schema_version, data_json=data_json, prev_hash=prev_hash)


def _string(value: str) -> str:
    return _STRING(value)


class ChainHasher:
    """The hash of each event of one append, from its data in canonical JSON. The events share
    their stream, time and metadata, so the envelope's constant parts are written once.

    The envelope's keys in sorted order are: data, metadata, position, prev_hash, recorded_at,
    schema_version, stream, type, version; each value canonical; so the concatenation below is
    exactly ``canonical_json(envelope)`` (the tests check it against a plain ``json.dumps``). A
    hash is hexadecimal: letters and digits, which JSON writes as they are."""

    def __init__(self, *, stream: str, recorded_at: str, metadata_json: str) -> None:
        self._metadata = ',"metadata":' + metadata_json + ',"position":'
        self._middle = ',"recorded_at":' + _string(recorded_at) + ',"schema_version":'
        self._stream = ',"stream":' + _string(stream) + ',"type":'
        self._types: dict[str, str] = {}

    def __call__(self, *, position: int, version: int, event_type: str, schema_version: int,
                 data_json: str, prev_hash: str) -> str:
        quoted_type = self._types.get(event_type)
        if quoted_type is None:
            quoted_type = self._types[event_type] = _string(event_type)
        text = ('{"data":' + data_json + self._metadata + str(int(position))
                + ',"prev_hash":' + (f'"{prev_hash}"' if prev_hash.isalnum() else _string(prev_hash))
                + self._middle + str(int(schema_version))
                + self._stream + quoted_type + ',"version":' + str(int(version)) + "}")
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
