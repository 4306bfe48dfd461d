#!/usr/bin/env python3
"""Standalone verifier of an event export (standard library only; seals need ``cryptography``).

Usage:  python3 verify_events.py EXPORT.jsonl [--anchor HASH]
        python3 verify_events.py EXPORT.jsonl --public-key CASINO.pem [--casino C] [--seal SEAL.json]

Reads the JSON Lines written by ``manage.py export_events`` and checks, event by event, that
positions follow one another, that each event's ``prev_hash`` is the previous event's ``hash``,
and that each ``hash`` is the SHA-256 of the event's canonical JSON as docs/event-hash.md defines
it. An export that starts at position 1 is anchored at the genesis hash (64 zeros); one that
starts later is anchored at ``--anchor`` (the hash of the event before it, e.g. from a seal).

With ``--public-key`` (the casino's Ed25519 public key, ``manage.py export_seal_key``) it also
checks seals: each ``GamingDaySealed`` event of the export (of ``--casino`` only, if given), or
the seal(s) in ``--seal`` (one seal, or a list of them, as ``/api/v1/seals/`` gives them). A seal verifies when its signature is
the key's over its payload's canonical JSON, the export holds every position it covers, the
event at its last position has the hash it signed, and its first and last events are the
casino's (docs/event-hash.md, § The seal of a gaming day). Only this part imports
``cryptography``; the chain check needs nothing beyond the standard library.
Exit status 0 when everything verifies, 1 naming the first position (or seal) that does not.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable

GENESIS = "0" * 64
HASHED = ("position", "stream", "version", "type", "schema_version", "data", "metadata",
          "recorded_at", "prev_hash")


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def no_floats(text: str) -> float:
    raise ValueError(f"floating-point number {text} in an event: not allowed")


SEAL_TYPE = "GamingDaySealed"


class Seen:
    """What the chain check keeps for the seal check: each position's hash and casino, and the
    seal events met."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.events: dict[int, tuple[str, str]] = {}
        self.seals: list[dict[str, object]] = []

    def add(self, event: dict[str, object]) -> None:
        position = int(event["position"])  # type: ignore[call-overload]
        if self.first is None:
            self.first = position
        metadata = event.get("metadata")
        casino = metadata.get("casino", "") if isinstance(metadata, dict) else ""
        self.events[position] = (str(event["hash"]), str(casino))
        if event.get("type") == SEAL_TYPE and isinstance(event.get("data"), dict):
            self.seals.append(dict(event["data"]))  # type: ignore[call-overload]


def verify(lines: Iterable[str], anchor: str | None, seen: Seen | None = None
           ) -> tuple[int, str | None]:
    expected_position = None
    prev = anchor
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line, parse_float=no_floats)
        except ValueError as exc:
            return count, f"line {number}: not a valid event ({exc})"
        position = event.get("position")
        if expected_position is None:
            expected_position = position
            if prev is None:
                if position != 1:
                    return count, (f"the export starts at position {position}: "
                                   "give --anchor with the hash of the event before it")
                prev = GENESIS
        if position != expected_position:
            return count, f"position {position}: expected position {expected_position}"
        if event.get("prev_hash") != prev:
            return count, f"position {position}: prev_hash does not match the previous hash"
        digest = hashlib.sha256(canonical({k: event[k] for k in HASHED})).hexdigest()
        if digest != event.get("hash"):
            return count, f"position {position}: content does not match its hash (altered)"
        prev = event["hash"]
        if seen is not None:
            seen.add(event)
        expected_position += 1
        count += 1
    return count, None


def key_id(raw_public_key: bytes) -> str:
    """``ed25519:`` and the first 16 hex digits of the SHA-256 of the raw 32-byte public key."""
    return "ed25519:" + hashlib.sha256(raw_public_key).hexdigest()[:16]


def load_public_key(pem: bytes) -> object:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = serialization.load_pem_public_key(pem)
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("the public key is not an Ed25519 key")
    return key


def check_seal(seal: dict[str, object], signature: str, public_key: object, seen: Seen
               ) -> str | None:
    """Why ``seal`` (its payload, without the signature) does not verify; None when it does."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import serialization

    payload = {k: v for k, v in seal.items() if k != "signature"}
    raw = public_key.public_bytes(serialization.Encoding.Raw,  # type: ignore[attr-defined]
                                  serialization.PublicFormat.Raw)
    if payload.get("key_id") != key_id(raw):
        return (f"signed with key {payload.get('key_id')}, not with the public key given "
                f"({key_id(raw)})")
    try:
        public_key.verify(bytes.fromhex(signature), canonical(payload))  # type: ignore[attr-defined]
    except (InvalidSignature, ValueError):
        return "the signature does not match its payload and the public key (forged or altered)"
    first, last = payload.get("first_position"), payload.get("last_position")
    if not isinstance(first, int) or not isinstance(last, int) or first > last:
        return f"covers no positions ({first}-{last})"
    if seen.first is None or seen.first > first or last not in seen.events:
        return (f"the export does not hold every position it covers ({first}-{last}): export "
                "from its first position, or earlier")
    last_hash, casino = seen.events[last]
    if last_hash != payload.get("last_hash"):
        return (f"the event at position {last} does not have the hash it signed: an event it "
                "covers was altered")
    if casino != payload.get("casino") or seen.events[first][1] != payload.get("casino"):
        return f"positions {first} and {last} are not both events of casino {payload.get('casino')}"
    return None


def read_seals(path: str) -> list[tuple[dict[str, object], str]]:
    """The seals of ``path``: one seal object or a list, each with ``payload`` and
    ``signature`` (as /api/v1/seals/ lists them), or a seal event's ``data``."""
    with open(path, encoding="utf-8") as handle:
        found = json.load(handle, parse_float=no_floats)
    items = found if isinstance(found, list) else [found]
    seals = []
    for item in items:
        payload = item.get("payload", item)
        seals.append((dict(payload), str(item.get("signature", payload.get("signature", "")))))
    return seals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="JSON Lines file from export_events ('-' for stdin)")
    parser.add_argument("--anchor", help="hash of the event before the first one exported")
    parser.add_argument("--public-key", metavar="PEM",
                        help="the casino's public seal key: check its seals too")
    parser.add_argument("--seal", metavar="JSON",
                        help="the seal(s) to check (default: every seal event in the export)")
    parser.add_argument("--casino", help="check only this casino's seals (an export holds "
                                         "every casino's events; the key is one casino's)")
    args = parser.parse_args(argv)
    if args.seal and not args.public_key:
        parser.error("--seal needs --public-key")
    seen = Seen() if args.public_key else None
    stream = sys.stdin if args.export == "-" else open(args.export, encoding="utf-8")  # noqa: SIM115
    with stream:
        count, problem = verify(stream, args.anchor, seen)
    if problem:
        print(f"FAILED after {count} good events: {problem}")
        return 1
    print(f"OK: {count} events verified")
    if seen is None:
        return 0
    try:
        with open(args.public_key, "rb") as handle:
            public_key = load_public_key(handle.read())
    except (OSError, ValueError) as error:
        print(f"FAILED: the public key cannot be read ({error})")
        return 1
    seals = (read_seals(args.seal) if args.seal
             else [(seal, str(seal.get("signature", ""))) for seal in seen.seals])
    if args.casino:
        seals = [(seal, signature) for seal, signature in seals if seal.get("casino") == args.casino]
    if not seals:
        print("FAILED: no seal to check")
        return 1
    for seal, signature in seals:
        name = f"seal of {seal.get('casino')} {seal.get('gaming_day')}"
        problem = check_seal(seal, signature, public_key, seen)
        if problem:
            print(f"FAILED: {name}: {problem}")
            return 1
        print(f"OK: {name} (positions {seal['first_position']}-{seal['last_position']}, "
              f"key {seal['key_id']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
