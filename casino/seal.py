"""The seal of a gaming day: its canonical payload, its Ed25519 signature, its check. Pure.

A seal (event ``GamingDaySealed``, ``docs/event-hash.md`` § The seal of a gaming day) says,
signed with the casino's private key: these are the casino's events from ``first_position`` to
``last_position`` of the event store, the last of them hashes to ``last_hash``, and these are the
day's totals and the digest of its close report. Whoever holds the public key and an export of
the events checks it without our code (``tools/verify_events.py`` re-implements this module).

The signed bytes are the canonical JSON (``eventstore.hashing``, the events' own) of the
seal's data without its ``signature``: the payload is stored as it is signed, and the seal event
in an export carries everything a verifier needs. No Django here (import-linter contract in
``pyproject.toml``); the key comes from the service, which reads the environment.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from casino.money import MONEY_MAX
from eventstore.hashing import canonical_json

ALGORITHM = "Ed25519"
# The figures a gaming-day close passes (the caller may pass more; these are the ones it must).
TOTALS = ("drop", "win", "gaming_tax_base", "chips_in_circulation", "jackpot_liability")
_TOTAL_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_HEX = re.compile(r"^[0-9a-f]{32,128}$")
CENT = Decimal("0.01")


class SealKeyError(ValueError):
    """A key that is not an Ed25519 key in PEM."""


def key_id(public_key: Ed25519PublicKey) -> str:
    """``ed25519:`` and the first 16 hexadecimal digits of the SHA-256 of the raw 32-byte key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return "ed25519:" + hashlib.sha256(raw).hexdigest()[:16]


def private_key_from_pem(pem: bytes) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError) as error:
        raise SealKeyError(f"not a private key in PEM without a password ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SealKeyError(f"the seal key must be Ed25519, not {type(key).__name__}")
    return key


def public_key_from_pem(pem: bytes) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(pem)
    except (ValueError, TypeError) as error:
        raise SealKeyError(f"not a public key in PEM ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise SealKeyError(f"the seal key must be Ed25519, not {type(key).__name__}")
    return key


def public_pem(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.PEM,
                               serialization.PublicFormat.SubjectPublicKeyInfo).decode("ascii")


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def new_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def total_problem(name: str, value: object) -> str | None:
    """Why ``name: value`` is not a figure a seal holds (None when it is): a lower-case name and
    a Decimal (or its string) with at most two decimals that the money columns hold."""
    if not _TOTAL_NAME.match(name):
        return f"{name!r} is not a figure's name (lower-case letters, digits and _)"
    if isinstance(value, bool | float) or not isinstance(value, Decimal | str | int):
        return f"{name} must be a decimal amount such as \"10.50\", not {value!r}"
    try:
        figure = Decimal(str(value).strip())
    except ArithmeticError:
        return f"{name} {value!r} is not an amount"
    if not figure.is_finite():
        return f"{name} {value!r} is not an amount"
    if abs(figure) > MONEY_MAX:  # the books' columns hold no more (casino.money)
        return f"{name} {figure:,} is more than the largest amount the books hold ({MONEY_MAX:,})"
    if figure != figure.quantize(CENT):
        return f"{name} {value!r} is not an amount with at most two decimals"
    return None


def figures(totals: Mapping[str, object]) -> dict[str, Decimal]:
    """The totals as the seal holds them: Decimals to the cent (checked by ``total_problem``)."""
    return {name: Decimal(str(value).strip()).quantize(CENT) for name, value in totals.items()}


def is_digest(text: str) -> bool:
    """A report digest: lower-case hexadecimal, 32 to 128 digits (SHA-256 gives 64)."""
    return bool(_HEX.match(text)) and len(text) % 2 == 0


def signed_bytes(payload: Mapping[str, Any]) -> bytes:
    """What is signed: the canonical JSON of the seal's data without ``signature``."""
    return canonical_json({k: v for k, v in payload.items() if k != "signature"})


def sign(payload: Mapping[str, Any], key: Ed25519PrivateKey) -> str:
    """The signature of ``payload`` (JSON values), as 128 lower-case hexadecimal digits."""
    return key.sign(signed_bytes(payload)).hex()


def verify(payload: Mapping[str, Any], signature: str, key: Ed25519PublicKey) -> bool:
    """Whether ``signature`` is ``key``'s signature of ``payload`` (and names that key)."""
    if payload.get("key_id") != key_id(key):
        return False
    try:
        key.verify(bytes.fromhex(signature), signed_bytes(payload))
    except (InvalidSignature, ValueError):
        return False
    return True
