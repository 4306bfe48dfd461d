"""The master key that wraps every patron's data key: read from the environment, never stored
in the database or an event (like the seal keys, ``reporting.seals``).

Rotation (``python manage.py rotate_patron_master_key``, ``docs/patrons.md``): the new key is
set as ``CASINO_PATRON_MASTER_KEY`` and the old one as ``CASINO_PATRON_MASTER_KEY_PREVIOUS``
until every data key is wrapped by the new one; meanwhile each vault row is opened with the key
that wrapped it (``data_key_of``: its ``master_key_id``) and a document is found under either
key's blind index (``document_indexes``)."""

from __future__ import annotations

import base64
import binascii
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import transaction

from casino.errors import Conflict, gettext_noop

from .. import vault
from ..models import PatronVault
from ..vault import KEY_BYTES, MasterKey

log = logging.getLogger(__name__)

VARIABLE = "CASINO_PATRON_MASTER_KEY"
PREVIOUS = "CASINO_PATRON_MASTER_KEY_PREVIOUS"  # the old key, kept readable during a rotation

NO_KEY = gettext_noop("no patron master key: set {variable} to 32 random bytes in base64, or "
                      "{variable}_FILE to a file holding them (docs/deployment.md); nothing was recorded")
BAD_KEY = gettext_noop("the patron master key ({source}) cannot be used: {problem}")
UNKNOWN_KEY = gettext_noop("patron {patron}'s data key is wrapped by master key {key_id}, which "
                           "is neither {variable} nor {previous}: set the key it was wrapped "
                           "with as {previous} (a rotation not finished?)")


def _read(variable: str) -> tuple[str, str]:
    """The key's base64 text from ``variable`` or ``variable``_FILE, and where it came from."""
    text = os.environ.get(variable, "").strip()
    source = variable
    if not text and os.environ.get(f"{variable}_FILE"):
        source = f"{variable}_FILE"
        try:
            text = Path(os.environ[f"{variable}_FILE"]).read_text(encoding="ascii").strip()
        except OSError as error:
            raise Conflict(BAD_KEY, params=dict(source=source, problem=str(error.strerror)),
                           code="patron_key_unusable") from None
    return text, source


def master_key() -> MasterKey:
    """The current master key: every data key is wrapped by it when sealed or rotated."""
    text, source = _read(VARIABLE)
    if not text:
        if not settings.DEBUG:
            raise Conflict(NO_KEY, params=dict(variable=VARIABLE), code="patron_key_missing")
        return _development_key()
    return _decoded(text, source)


def previous_master_key() -> MasterKey | None:
    """The master key being rotated away from, while a rotation runs (else None)."""
    text, source = _read(PREVIOUS)
    return _decoded(text, source) if text else None


def keyring() -> tuple[MasterKey, ...]:
    """The current master key, then the previous one if a rotation is under way."""
    previous = previous_master_key()
    current = master_key()
    return (current,) if previous is None or previous == current else (current, previous)


def data_key_of(row: PatronVault) -> bytes:
    """The patron's data key, unwrapped by the master key that wrapped it (``VaultError`` once
    shredded)."""
    if row.wrapped_key is None:
        return vault.unwrap(master_key(), None)  # raises: shredded
    for key in keyring():
        if key.key_id == row.master_key_id:
            return vault.unwrap(key, row.wrapped_key)
    raise Conflict(UNKNOWN_KEY, params={"patron": row.patron_id, "key_id": row.master_key_id,
                                        "variable": VARIABLE, "previous": PREVIOUS},
                   code="patron_key_unknown")


def document_indexes(casino: str, document_type: str, number: str, country: str) -> list[str]:
    """The document's blind index under each key of the keyring (current first)."""
    return [key.document_index(casino, document_type, number, country) for key in keyring()]


def _decoded(text: str, source: str) -> MasterKey:
    try:
        secret = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise Conflict(BAD_KEY, params=dict(source=source, problem="not base64"),
                       code="patron_key_unusable") from None
    if len(secret) != KEY_BYTES:
        raise Conflict(BAD_KEY, params=dict(source=source,
                                      problem=f"{len(secret)} bytes, not {KEY_BYTES}"),
                       code="patron_key_unusable")
    return MasterKey(secret)


def _development_key() -> MasterKey:
    folder = Path(settings.PATRON_DEV_KEY_DIR)
    path = folder / "master.key"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(base64.b64encode(os.urandom(KEY_BYTES)).decode(), encoding="ascii")
        path.chmod(0o600)
        log.warning("DEVELOPMENT PATRON MASTER KEY generated in %s: DEBUG is on and %s is not "
                    "set. Never use it in production.", path, VARIABLE)
    return MasterKey(base64.b64decode(path.read_text(encoding="ascii").strip()))


@dataclass(frozen=True)
class Rotation:
    rotated: int  # data keys re-wrapped now
    current: int  # wrapped by the current key already
    shredded: int  # no key to re-wrap (never touched)
    key_id: str


def master_key_rotate(*, check: bool = False) -> Rotation:
    """Re-wrap every live patron data key under the current master key, and recompute its
    document's blind index under it, one row at a time (each in its own transaction, the row
    locked): resumable, and a second run finds nothing to do. The data and its data key are
    unchanged; a shredded row stays as it is (no key, the database forbids any change). No event
    is recorded: nothing of the domain changes, only how the vault holds its keys.
    ``check``: count only."""
    current = master_key()
    rotated = up_to_date = shredded = 0
    for patron_id in PatronVault.objects.order_by("created_at").values_list("patron_id",
                                                                            flat=True):
        with transaction.atomic():
            row = PatronVault.objects.select_for_update().get(patron_id=patron_id)
            if row.wrapped_key is None:
                shredded += 1
                continue
            if row.master_key_id == current.key_id:
                up_to_date += 1
                continue
            if check:
                rotated += 1
                continue
            data_key = data_key_of(row)
            identity = vault.open_sealed(data_key, row.nonce, row.ciphertext,
                                         context=str(row.patron_id))
            row.wrapped_key = vault.wrap(current, data_key)
            row.master_key_id = current.key_id
            row.document_index = current.document_index(
                row.casino, identity["document_type"], identity["document_number"],
                identity["document_country"])
            row.save(update_fields=["wrapped_key", "master_key_id", "document_index"])
            rotated += 1
    return Rotation(rotated=rotated, current=up_to_date, shredded=shredded,
                    key_id=current.key_id)
