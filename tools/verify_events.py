#!/usr/bin/env python3
"""Standalone verifier of an event export or a gaming day's archive (standard library only).

Usage:  python3 verify_events.py DAY-ARCHIVE.zip --public-key CASINO.pem | --key-id ID | --trusted-keys DIR
        python3 verify_events.py EXPORT.jsonl [--anchor [CASINO=]HASH ...]
        python3 verify_events.py EXPORT.jsonl --public-key CASINO.pem [--casino C] [--seal SEAL.json]
        python3 verify_events.py EXPORT.jsonl --global     (a database made before one chain per casino)

An export (``manage.py export_events``, with ``--casino`` for one casino's chain) is JSON Lines.
Each casino's events chain among themselves (docs/event-hash.md): event by event, its
``sequence`` follows the casino's event before it, its ``prev_hash`` is that event's ``hash``
(64 zeros for the casino's first event), and its ``hash`` is the SHA-256 of its canonical JSON.
Global positions increase; in an export of every casino from position 1 they follow one another
with no gap. An event carried from another cell with its casino is hashed over the position it
was appended at (``position``) and placed by its position in the exporting cell
(``cell_position``). A chain that starts later than its first event is anchored at ``--anchor`` (the
hash of the casino's event before it: from a seal, a day's archive or a previous export).

A day's archive (``manage.py export_day``, a zip) holds the casino's events that the day's seal
covers, the hash before the first of them, the seal, the casino's public key, the day's results
and a manifest: it verifies alone, without the casino's earlier days. The seal's signature is
checked only with a key the regulator trusts: ``--public-key`` (its own copy), the casino's key
pinned once in a folder (``--trusted-keys FOLDER`` or $CASINO_TRUSTED_KEYS, ``<casino>.pem``
each), or the archive's own key when its id is pinned (``--key-id``). Without one, the run fails:
the seal is "not verified against a trusted key" (a forger re-signs with their own key and swaps
the archive's). With ``--public-key``, an export's seals are checked too (each
``GamingDaySealed`` of the export, of ``--casino`` only if given, or those in ``--seal``).

Ed25519 (RFC 8032) signatures are checked by the few lines of ``ed25519_verify`` below, so that
nothing beyond the standard library is needed. Exit status 0 when everything verifies, 1 naming
the first event, file or seal that does not.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import sys
import zipfile
from collections.abc import Iterable

GENESIS = "0" * 64
HASHED = ("position", "stream", "version", "type", "schema_version", "data", "metadata",
          "recorded_at", "prev_hash")
SEAL_TYPE = "GamingDaySealed"
CLOSE_TYPE = "GamingDayClosed"
ARCHIVE_FORMAT = "casino-day-archive/1"
RESULT_COLUMNS = ("table", "game", "sessions", "rounds", "handle", "drop", "win")
# Every file a day's archive holds: each must be in the manifest and in the zip (issue 34: an
# archive that leaves one out fails, whatever else verifies).
ARCHIVE_FILES = ("events.jsonl", "seal.json", "public-key.pem", "results.csv",
                 "close-report.json", "regulator.xml")
REGULATOR_NS = "{urn:casino-backoffice:regulator-day:1}"


def canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def no_floats(text: str) -> float:
    raise ValueError(f"floating-point number {text} in an event: not allowed")


def event_hash(event: dict[str, object]) -> str:
    return hashlib.sha256(canonical({k: event[k] for k in HASHED})).hexdigest()


def casino_of(event: dict[str, object]) -> str:
    metadata = event.get("metadata")
    return str(metadata.get("casino", "")) if isinstance(metadata, dict) else ""


# --- Ed25519 signature check (RFC 8032, section 5.1.7), public data only --------------------

_P = 2**255 - 19
_Q = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)
Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T)


def _add(a: Point, b: Point) -> Point:
    e = (a[1] - a[0]) * (b[1] - b[0]) % _P
    f = (a[1] + a[0]) * (b[1] + b[0]) % _P
    g = 2 * a[3] * b[3] * _D % _P
    h = 2 * a[2] * b[2] % _P
    e, f, g, h = f - e, h - g, h + g, f + e
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _multiply(scalar: int, point: Point) -> Point:
    result: Point = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _recover_x(y: int, sign: int) -> int | None:
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P:
        return None
    return _P - x if (x & 1) != sign else x


def _decompress(raw: bytes) -> Point | None:
    if len(raw) != 32:
        return None
    y = int.from_bytes(raw, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _P)


_GY = 4 * pow(5, _P - 2, _P) % _P
_GX = _recover_x(_GY, 0)
assert _GX is not None
_BASE: Point = (_GX, _GY, 1, _GX * _GY % _P)


def _same(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


def ed25519_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the Ed25519 signature of ``message`` by ``public_key`` (raw)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a = _decompress(public_key)
    r = _decompress(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= _Q:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(),
                       "little") % _Q
    return _same(_multiply(s, _BASE), _add(r, _multiply(h, a)))


# An Ed25519 SubjectPublicKeyInfo is this DER prefix and the 32-byte key (RFC 8410).
_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


def load_public_key(pem: bytes) -> bytes:
    """The raw 32-byte key of an Ed25519 public key in PEM (``-----BEGIN PUBLIC KEY-----``)."""
    text = pem.decode("ascii", "replace")
    if "-----BEGIN PUBLIC KEY-----" not in text or "-----END PUBLIC KEY-----" not in text:
        raise ValueError("not a public key in PEM")
    body = text.split("-----BEGIN PUBLIC KEY-----", 1)[1].split("-----END PUBLIC KEY-----")[0]
    der = base64.b64decode("".join(body.split()), validate=True)
    if len(der) != 44 or not der.startswith(_SPKI_PREFIX):
        raise ValueError("the public key is not an Ed25519 key")
    return der[len(_SPKI_PREFIX):]


def key_id(raw_public_key: bytes) -> str:
    """``ed25519:`` and the first 16 hex digits of the SHA-256 of the raw 32-byte public key."""
    return "ed25519:" + hashlib.sha256(raw_public_key).hexdigest()[:16]


# --- the chains -------------------------------------------------------------------------------


class Seen:
    """What the chain check keeps for the seal check: each casino's events by sequence
    (position, hash, prev_hash), each position's hash and casino, and the seals met."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.events: dict[int, tuple[str, str]] = {}
        self.chains: dict[str, dict[int, tuple[int, str, str]]] = {}
        self.seals: list[dict[str, object]] = []
        self.closes: list[dict[str, object]] = []

    def add(self, event: dict[str, object]) -> None:
        position = int(event["position"])  # type: ignore[call-overload]
        if self.first is None:
            self.first = position
        casino = casino_of(event)
        self.events[position] = (str(event["hash"]), casino)
        if "sequence" in event:
            self.chains.setdefault(casino, {})[int(event["sequence"])] = (  # type: ignore[call-overload]
                position, str(event["hash"]), str(event["prev_hash"]))
        if isinstance(event.get("data"), dict):
            if event.get("type") == SEAL_TYPE:
                self.seals.append(dict(event["data"]))  # type: ignore[call-overload]
            elif event.get("type") == CLOSE_TYPE:
                self.closes.append(dict(event["data"]))  # type: ignore[call-overload]


def verify(lines: Iterable[str], anchors: dict[str, str] | None = None,
           seen: Seen | None = None) -> tuple[int, str | None]:
    """Check each casino's chain through ``lines`` (JSON Lines). ``anchors``: casino → the hash
    of its event before the first one given ("" for any casino)."""
    anchors = anchors or {}
    chains: dict[str, tuple[int, str]] = {}  # casino -> (last sequence, last hash)
    first_position = last_position = None
    count = 0
    gapless = True
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line, parse_float=no_floats)
            position, sequence = event["position"], event["sequence"]
            # an event carried from another cell with its casino: its hash covers the position
            # it was appended at; its place in this export is the cell's (docs/event-hash.md)
            place = int(event.get("cell_position", position))
        except (ValueError, KeyError, TypeError) as exc:
            return count, f"line {number}: not a valid event ({exc})"
        casino = casino_of(event)
        if last_position is not None and place <= last_position:
            return count, f"position {place}: after position {last_position}"
        if last_position is not None and place != last_position + 1:
            gapless = False
        if casino in chains:
            before, previous = chains[casino]
            if sequence != before + 1:
                return count, (f"position {position}: event {sequence} of casino {casino!r} "
                               f"where {before + 1} was expected (an event is missing)")
        elif sequence == 1:
            previous = GENESIS
        elif casino in anchors or "" in anchors:
            previous = anchors.get(casino, anchors.get("", ""))
        else:
            return count, (f"position {position}: casino {casino!r}'s chain starts at its event "
                           f"{sequence}: give --anchor {casino}=HASH, the hash of its event "
                           "before it")
        if event.get("prev_hash") != previous:
            return count, (f"position {position}: prev_hash does not match the hash of casino "
                           f"{casino!r}'s event before it")
        if event_hash(event) != event.get("hash"):
            return count, f"position {position}: content does not match its hash (altered)"
        chains[casino] = (sequence, event["hash"])
        if first_position is None:
            first_position = place
        last_position = place
        if seen is not None:
            seen.add(event)
        count += 1
    if first_position == 1 and len(chains) > 1 and not gapless:
        return count, "the export starts at position 1 and holds every casino, yet a position " \
                      "is missing"
    return count, None


def verify_global(lines: Iterable[str], anchor: str | None, seen: Seen | None = None
                  ) -> tuple[int, str | None]:
    """The one global chain of a database made before one chain per casino: each event's
    ``prev_hash`` is the hash of the event at the position before it."""
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
        if event_hash(event) != event.get("hash"):
            return count, f"position {position}: content does not match its hash (altered)"
        prev = event["hash"]
        if seen is not None:
            seen.add(event)
        expected_position += 1
        count += 1
    return count, None


# --- the seals --------------------------------------------------------------------------------


def check_seal(seal: dict[str, object], signature: str, public_key: bytes, seen: Seen
               ) -> str | None:
    """Why ``seal`` (its payload, without the signature) does not verify; None when it does."""
    payload = {k: v for k, v in seal.items() if k != "signature"}
    if payload.get("key_id") != key_id(public_key):
        return (f"signed with key {payload.get('key_id')}, not with the public key given "
                f"({key_id(public_key)})")
    try:
        signed = bytes.fromhex(signature)
    except ValueError:
        signed = b""
    if not ed25519_verify(public_key, canonical(payload), signed):
        return "the signature does not match its payload and the public key (forged or altered)"
    casino = str(payload.get("casino"))
    first, last = payload.get("first_sequence"), payload.get("last_sequence")
    if isinstance(first, int) and isinstance(last, int) and first >= 1:
        return _check_chain_seal(payload, casino, first, last, seen)
    return _check_global_seal(payload, casino, seen)


def _check_chain_seal(payload: dict[str, object], casino: str, first: int, last: int,
                      seen: Seen) -> str | None:
    chain = seen.chains.get(casino, {})
    if first > last:
        return f"covers no events ({first}-{last})"
    missing = next((n for n in range(first, last + 1) if n not in chain), None)
    if missing is not None:
        return (f"the export does not hold every event of casino {casino} it covers "
                f"({first}-{last}; {missing} is missing)")
    if chain[first][2] != payload.get("prev_hash"):
        return (f"casino {casino}'s event {first} does not follow the hash the seal signed "
                "before it")
    if chain[last][1] != payload.get("last_hash"):
        return (f"casino {casino}'s event {last} (position {chain[last][0]}) does not have the "
                "hash it signed: an event it covers was altered")
    if (chain[first][0], chain[last][0]) != (payload.get("first_position"),
                                            payload.get("last_position")):
        return "the positions it signed are not those of the events it covers"
    return None


def _check_global_seal(payload: dict[str, object], casino: str, seen: Seen) -> str | None:
    """A seal made before one chain per casino: a range of the global chain."""
    first, last = payload.get("first_position"), payload.get("last_position")
    if not isinstance(first, int) or not isinstance(last, int) or first > last:
        return f"covers no positions ({first}-{last})"
    if seen.first is None or seen.first > first or last not in seen.events:
        return (f"the export does not hold every position it covers ({first}-{last}): export "
                "from its first position, or earlier")
    last_hash, last_casino = seen.events[last]
    if last_hash != payload.get("last_hash"):
        return (f"the event at position {last} does not have the hash it signed: an event it "
                "covers was altered")
    if last_casino != casino or seen.events[first][1] != casino:
        return f"positions {first} and {last} are not both events of casino {casino}"
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


# --- a gaming day's archive -------------------------------------------------------------------


def results_csv(results: Iterable[dict[str, object]]) -> bytes:
    """The day's results as the archive writes them: one row a table, from the day's close."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RESULT_COLUMNS)
    for row in results:
        writer.writerow([row.get(column, "") for column in RESULT_COLUMNS])
    return out.getvalue().encode("utf-8")


# --- the keys trusted ---------------------------------------------------------------------------

UNTRUSTED = "not verified against a trusted key"
TRUST_VARIABLE = "CASINO_TRUSTED_KEYS"  # the folder of pinned keys, set once


def trusted_key(casino: str, public_key_path: str | None, folder: str | None
                ) -> tuple[bytes | None, str | None, str]:
    """The key the regulator trusts for ``casino``: the PEM given (``--public-key``), else the
    pinned one, ``<folder>/<casino>.pem`` (``--trusted-keys`` or $CASINO_TRUSTED_KEYS): its raw
    bytes (None: no trusted key), where it was read from, and a problem."""
    path = public_key_path
    if path is None and folder:
        candidate = os.path.join(folder, f"{casino}.pem")
        if os.path.exists(candidate):
            path = candidate
    if path is None:
        return None, None, ""
    try:
        with open(path, "rb") as handle:
            return load_public_key(handle.read()), path, ""
    except (OSError, ValueError) as error:
        return None, path, f"the public key cannot be read ({error})"


def verify_archive(path: str, public_key_path: str | None, key_ids: list[str] | None = None,
                   trusted_folder: str | None = None) -> tuple[list[str], str | None]:
    """What verified, and the first problem (None when the whole archive verifies).

    The seal is verified only against a key the regulator trusts (issue 34): the one given
    (``public_key_path``), the one pinned in ``trusted_folder``, or the archive's own key when
    its id is one of ``key_ids`` (pinned ids). The key inside the archive alone proves nothing:
    a forger swaps it with the history; the run then fails, saying the seal is not verified
    against a trusted key."""
    done: list[str] = []
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        if "manifest.json" not in names:
            return done, "the archive has no manifest.json"
        manifest = json.loads(archive.read("manifest.json"), parse_float=no_floats)
        if manifest.get("format") != ARCHIVE_FORMAT:
            return done, f"not a day's archive of format {ARCHIVE_FORMAT}"
        files: dict[str, str] = manifest.get("files", {})
        unnamed = [name for name in ARCHIVE_FILES if name not in files]
        if unnamed:
            return done, f"{unnamed[0]} is missing: the manifest does not name it"
        extra = sorted(names - {"manifest.json"} - set(files))
        if extra:
            return done, f"{extra[0]} is in the archive but not in its manifest"
        content: dict[str, bytes] = {}
        for name, digest in sorted(files.items()):
            if name not in names:
                return done, f"{name} is missing from the archive"
            content[name] = archive.read(name)
            if hashlib.sha256(content[name]).hexdigest() != digest:
                return done, f"{name} does not match its digest in the manifest (altered)"
    casino = str(manifest.get("casino"))
    name = f"{casino} {manifest.get('gaming_day')}"
    seen = Seen()
    lines = content["events.jsonl"].decode("utf-8").split("\n")
    count, problem = verify(lines, {casino: str(manifest.get("prev_hash"))}, seen)
    if problem:
        return done, f"events.jsonl: after {count} good events: {problem}"
    chain = seen.chains.get(casino, {})
    if set(seen.chains) - {casino}:
        return done, f"events.jsonl holds events of another casino than {casino}"
    first, last = manifest.get("first_sequence"), manifest.get("last_sequence")
    if not chain or (min(chain), max(chain)) != (first, last) or count != len(chain):
        return done, f"events.jsonl does not hold casino {casino}'s events {first}-{last}"
    done.append(f"{count} events of {casino} ({first}-{last}) chain from the hash before them")
    # The seal: the casino's event after the last one it covers.
    seal_event = json.loads(content["seal.json"], parse_float=no_floats)
    if seal_event.get("type") != SEAL_TYPE or casino_of(seal_event) != casino:
        return done, f"seal.json is not a seal of casino {casino}"
    if event_hash(seal_event) != seal_event.get("hash"):
        return done, "seal.json: the seal event's content does not match its hash (altered)"
    if seal_event.get("sequence") != last + 1 or seal_event.get("prev_hash") != chain[last][1]:
        return done, "seal.json: the seal event does not follow the day's last event"
    seal = dict(seal_event["data"])
    for field in ("casino", "gaming_day", "first_sequence", "last_sequence", "prev_hash"):
        if seal.get(field) != manifest.get(field):
            return done, f"the seal's {field} is not the manifest's"
    trusted, source, problem = trusted_key(casino, public_key_path, trusted_folder)
    if problem:
        return done, problem
    try:
        inside = load_public_key(content["public-key.pem"])
    except ValueError as error:
        return done, f"public-key.pem cannot be read ({error})"
    if trusted is None:
        if not key_ids:
            return done, (f"seal of {name}: {UNTRUSTED} (the archive's own public-key.pem "
                          f"proves nothing: give --public-key, --key-id or --trusted-keys; "
                          "docs/regulator.md)")
        if key_id(inside) not in key_ids:
            return done, (f"seal of {name}: public-key.pem is key {key_id(inside)}, not a "
                          f"pinned key ({', '.join(key_ids)}): {UNTRUSTED}")
        trusted, given = inside, f"the archive's key, pinned as {key_id(inside)}"
    else:
        given = ("the public key given" if source == public_key_path
                 else f"the key pinned in {source}")
        if key_ids and key_id(trusted) not in key_ids:
            return done, (f"seal of {name}: the key {key_id(trusted)} is not a pinned key "
                          f"({', '.join(key_ids)})")
    problem = check_seal(seal, str(seal.get("signature", "")), trusted, seen)
    if problem:
        return done, f"seal of {name}: {problem}"
    if key_id(inside) != key_id(trusted):
        return done, (f"public-key.pem is key {key_id(inside)}, not the trusted key "
                      f"{key_id(trusted)} (swapped)")
    done.append(f"seal of {name} signed by {seal['key_id']} ({given})")
    if hashlib.sha256(content["close-report.json"]).hexdigest() != seal.get("report_digest"):
        return done, "close-report.json is not the close report the seal signed"
    done.append("close-report.json is the report the seal signed")
    closes = [c for c in seen.closes if c.get("gaming_day") == manifest.get("gaming_day")]
    if len(closes) != 1:
        return done, "events.jsonl does not hold the day's close, which results.csv repeats"
    if results_csv(closes[0].get("results", [])) != content["results.csv"]:  # type: ignore[arg-type]
        return done, "results.csv differs from the results the day's close recorded"
    done.append("results.csv is the day's close's results")
    problem = _check_regulator_file(content["regulator.xml"], seal)
    if problem:
        return done, f"regulator.xml: {problem}"
    done.append("regulator.xml names the day's seal")
    return done, None


def _check_regulator_file(content: bytes, seal: dict[str, object]) -> str | None:
    """The regulator file is the day's: its seal element repeats the seal's signature, key,
    sequences, last hash and report digest."""
    from xml.etree import ElementTree

    try:
        root = ElementTree.fromstring(content)
    except ElementTree.ParseError as error:
        return f"not XML ({error})"
    found = root.find(f"{REGULATOR_NS}Seal")
    if root.tag != f"{REGULATOR_NS}RegulatorDay" or found is None:
        return "not a regulator file with the day's seal"
    wanted = {"keyId": seal.get("key_id"), "signature": seal.get("signature"),
              "firstSequence": seal.get("first_sequence"),
              "lastSequence": seal.get("last_sequence"), "lastHash": seal.get("last_hash"),
              "reportDigest": seal.get("report_digest")}
    for attribute, value in wanted.items():
        if found.get(attribute) != str(value):
            return f"its seal's {attribute} is not the seal's"
    if root.get("gamingDay") != seal.get("gaming_day") or root.get("casino") != seal.get("casino"):
        return "it is another casino's or another day's file"
    return None


# --- the command line -------------------------------------------------------------------------


def _anchors(given: list[str]) -> dict[str, str]:
    anchors = {}
    for item in given:
        casino, _, digest = item.rpartition("=")
        anchors[casino] = digest
    return anchors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export", help="a day's archive (.zip), or JSON Lines from export_events "
                                       "('-' for stdin)")
    parser.add_argument("--anchor", action="append", default=[], metavar="[CASINO=]HASH",
                        help="the hash of a casino's event before its first one exported")
    parser.add_argument("--public-key", metavar="PEM",
                        help="the casino's public seal key: check its seals too")
    parser.add_argument("--key-id", action="append", default=[], metavar="ID",
                        help="a pinned key id (ed25519:…): a day's archive whose own key has "
                             "this id is checked with it")
    parser.add_argument("--trusted-keys", metavar="FOLDER",
                        default=os.environ.get(TRUST_VARIABLE) or None,
                        help=f"the folder of pinned keys, <casino>.pem each (default: "
                             f"${TRUST_VARIABLE})")
    parser.add_argument("--seal", metavar="JSON",
                        help="the seal(s) to check (default: every seal event in the export)")
    parser.add_argument("--casino", help="check only this casino's seals (an export may hold "
                                         "every casino's events; the key is one casino's)")
    parser.add_argument("--global", dest="global_chain", action="store_true",
                        help="the one global chain of a database made before one chain per "
                             "casino (docs/event-hash.md)")
    args = parser.parse_args(argv)
    if args.seal and not args.public_key:
        parser.error("--seal needs --public-key")
    if args.export != "-" and zipfile.is_zipfile(args.export):
        try:
            done, problem = verify_archive(args.export, args.public_key, args.key_id,
                                           args.trusted_keys)
        except (KeyError, ValueError, zipfile.BadZipFile) as error:
            done, problem = [], f"the archive cannot be read ({error})"
        for line in done:
            print(f"OK: {line}")
        if problem:
            print(f"FAILED: {problem}")
            return 1
        return 0
    seen = Seen() if args.public_key else None
    stream = sys.stdin if args.export == "-" else open(args.export, encoding="utf-8")  # noqa: SIM115
    with stream:
        if args.global_chain:
            count, problem = verify_global(stream, args.anchor[-1] if args.anchor else None, seen)
        else:
            count, problem = verify(stream, _anchors(args.anchor), seen)
    if problem:
        print(f"FAILED after {count} good events: {problem}")
        return 1
    print(f"OK: {count} events verified")
    if seen is None:
        print(f"NOTE: seals not checked ({UNTRUSTED}: give --public-key to check them)",
              file=sys.stderr)
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
