"""The master key that wraps every patron's data key: read from the environment, never stored
in the database or an event (like the seal keys, ``casino.services.seals``)."""

from __future__ import annotations

import base64
import binascii
import logging
import os
from pathlib import Path

from django.conf import settings

from casino.errors import Conflict, gettext_noop

from ..vault import KEY_BYTES, MasterKey

log = logging.getLogger(__name__)

VARIABLE = "CASINO_PATRON_MASTER_KEY"

NO_KEY = gettext_noop("no patron master key: set {variable} to 32 random bytes in base64, or "
                      "{variable}_FILE to a file holding them (docs/deployment.md); nothing was recorded")
BAD_KEY = gettext_noop("the patron master key ({source}) cannot be used: {problem}")


def master_key() -> MasterKey:
    text = os.environ.get(VARIABLE, "").strip()
    source = VARIABLE
    if not text and os.environ.get(f"{VARIABLE}_FILE"):
        source = f"{VARIABLE}_FILE"
        try:
            text = Path(os.environ[f"{VARIABLE}_FILE"]).read_text(encoding="ascii").strip()
        except OSError as error:
            raise Conflict(BAD_KEY, params=dict(source=source, problem=str(error.strerror)),
                           code="patron_key_unusable") from None
    if not text:
        if not settings.DEBUG:
            raise Conflict(NO_KEY, params=dict(variable=VARIABLE), code="patron_key_missing")
        return _development_key()
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
