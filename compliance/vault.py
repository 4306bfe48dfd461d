"""Envelope encryption of a patron's personal data. Pure: ``cryptography`` only, no Django.

Each patron has a data key of their own (AES-256-GCM, random); it encrypts their identity (and
the narratives of reports about them) and is stored only wrapped by the master key (AES key
wrap, RFC 3394), which never touches the database. Destroying the wrapped data key
(crypto-shredding) leaves the ciphertext unreadable for ever, and touches no event.

A document's blind index (HMAC-SHA-256 under a key derived from the master key) lets the cage
find a patron by the document they show, without the number in clear.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.keywrap import InvalidUnwrap, aes_key_unwrap, aes_key_wrap

Bytes = bytes | memoryview  # what a BinaryField gives back

KEY_BYTES = 32
NONCE_BYTES = 12


class VaultError(Exception):
    """The data cannot be read: the key is gone (shredded), or is not the one it was sealed
    with."""


@dataclass(frozen=True)
class MasterKey:
    secret: bytes

    def __post_init__(self) -> None:
        if len(self.secret) != KEY_BYTES:
            raise ValueError(f"the master key must be {KEY_BYTES} bytes, not {len(self.secret)}")

    @property
    def key_id(self) -> str:
        """Names the master key (never reveals it): which one wrapped a data key."""
        return hashlib.sha256(b"patron-master-key-id" + self.secret).hexdigest()[:16]

    def _index_key(self) -> bytes:
        return hmac.new(self.secret, b"patron-document-index", hashlib.sha256).digest()

    def document_index(self, casino: str, document_type: str, number: str, country: str) -> str:
        normal = "\x1f".join([casino, document_type.strip().lower(),
                              "".join(number.split()).upper(), country.strip().upper()])
        return hmac.new(self._index_key(), normal.encode(), hashlib.sha256).hexdigest()


def new_data_key() -> bytes:
    return AESGCM.generate_key(bit_length=256)


def wrap(master: MasterKey, data_key: bytes) -> bytes:
    return aes_key_wrap(master.secret, data_key)


def unwrap(master: MasterKey, wrapped: Bytes | None) -> bytes:
    if wrapped is None:
        raise VaultError("the patron's data key was destroyed (crypto-shredded): "
                         "their personal data can no longer be read")
    try:
        return aes_key_unwrap(master.secret, bytes(wrapped))
    except InvalidUnwrap:
        raise VaultError("the patron's data key was not wrapped by this master key") from None


def seal(data_key: bytes, payload: dict[str, Any], *, context: str) -> tuple[bytes, bytes]:
    """``(nonce, ciphertext)`` of ``payload`` as JSON; ``context`` (the patron id, the report
    id) is authenticated with it, so a ciphertext moved to another row does not open."""
    nonce = os.urandom(NONCE_BYTES)
    plain = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
    return nonce, AESGCM(data_key).encrypt(nonce, plain, context.encode())


def open_sealed(data_key: bytes, nonce: Bytes, ciphertext: Bytes, *, context: str
                ) -> dict[str, Any]:
    try:
        plain = AESGCM(data_key).decrypt(bytes(nonce), bytes(ciphertext), context.encode())
    except InvalidTag:
        raise VaultError("the data does not open with this key (altered, or moved)") from None
    found: dict[str, Any] = json.loads(plain)
    return found
