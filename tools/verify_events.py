#!/usr/bin/env python3
"""Standalone verifier of an event export (standard library only).

Usage:  python3 verify_events.py EXPORT.jsonl [--anchor HASH]

Reads the JSON Lines written by ``manage.py export_events`` and checks, event by event, that
positions follow one another, that each event's ``prev_hash`` is the previous event's ``hash``,
and that each ``hash`` is the SHA-256 of the event's canonical JSON as docs/event-hash.md defines
it. An export that starts at position 1 is anchored at the genesis hash (64 zeros); one that
starts later is anchored at ``--anchor`` (the hash of the event before it, e.g. from a seal).
Exit status 0 when everything verifies, 1 naming the first position that does not.
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


def verify(lines: Iterable[str], anchor: str | None) -> tuple[int, str | None]:
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
        expected_position += 1
        count += 1
    return count, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="JSON Lines file from export_events ('-' for stdin)")
    parser.add_argument("--anchor", help="hash of the event before the first one exported")
    args = parser.parse_args(argv)
    stream = sys.stdin if args.export == "-" else open(args.export, encoding="utf-8")  # noqa: SIM115
    with stream:
        count, problem = verify(stream, args.anchor)
    if problem:
        print(f"FAILED after {count} good events: {problem}")
        return 1
    print(f"OK: {count} events verified")
    return 0


if __name__ == "__main__":
    sys.exit(main())
