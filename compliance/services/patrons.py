"""Patrons: registered (identified) at the cage or the entrance, verified against their
document, and their personal data crypto-shredded at the end of the retention period.

The personal data never enters an event: it is sealed with the patron's own data key into
``PatronVault`` (``compliance.vault``), in the command's transaction; the events name the patron
by ``patron_id`` only (``docs/patrons.md``).
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotFound, choice_words, gettext_noop
from casino.inputs import text
from eventstore import clock, store
from eventstore.commands import command
from eventstore.records import Metadata

from .. import thresholds, vault
from ..answers import PatronAnswer, PatronShredAnswer
from ..events import PatronDataShredded, PatronRegistered, PatronVerified
from ..models import Patron, PatronDay, PatronStatus, PatronVault
from ._common import (
    COMPLIANCE_ROLES,
    REGISTER_ROLES,
    casino_get,
    jurisdiction,
    patron_get,
)
from .keys import data_key_of, document_indexes, master_key

DOCUMENT_TEXT = {  # in English (a refusal's words)
    "id_card": gettext_noop("Identity card"),
    "passport": gettext_noop("Passport"),
    "residence_permit": gettext_noop("Residence permit"),
}
DOCUMENT_TYPES = {code: gettext_lazy(text) for code, text in DOCUMENT_TEXT.items()}
PLACES = ("cage", "entrance", "table")
MINIMUM_AGE = 18

# Messages tests and screens rely on.
ALREADY_REGISTERED = gettext_noop("a patron with this {document} is registered already ({patron}): pick "
                                  "them instead of registering them again")
RETENTION_NOT_OVER = gettext_noop("the data of patron {patron} must be kept until {until} ({years} years "
                                  "after their last movement, {source}): it cannot be destroyed before")
SHREDDED = gettext_noop("patron {patron}'s personal data was destroyed on {day}: register the person again")


def _text(data: dict[str, Any], name: str, *, limit: int = 200, required: bool = True) -> str:
    return text(data.get(name), field=name, limit=limit, required=required)


def _country(data: dict[str, Any], name: str) -> str:
    value = _text(data, name, limit=2).upper()
    if not re.fullmatch(r"[A-Z]{2}", value):
        raise InvalidCommand("{name} is a country's two-letter code (ISO 3166-1), such as PT",
                             params={"name": name},
                             field=name)
    return value


def _birth(value: object, today: dt.date) -> dt.date:
    try:
        born = dt.date.fromisoformat(str(value))
    except ValueError:
        raise InvalidCommand("date_of_birth must be a date, YYYY-MM-DD (not {value!r})",
                             params={"value": value},
                             field="date_of_birth") from None
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if born > today or age < MINIMUM_AGE:
        raise InvalidCommand("a patron is at least {minimum_age} years old (born {born})",
                             params={"minimum_age": MINIMUM_AGE, "born": born},
                             field="date_of_birth")
    return born


def identity_of(data: dict[str, Any], today: dt.date) -> dict[str, Any]:
    """The personal data as sealed, every field checked (the edge hands it over as sent)."""
    document_type = _text(data, "document_type", limit=32)
    if document_type not in DOCUMENT_TYPES:
        raise InvalidCommand("the document is {document_types}, not {document_type!r}",
                             params={"document_types": choice_words(DOCUMENT_TYPES, "document",
                                                                    DOCUMENT_TEXT),
                                     "document_type": document_type}, field="document_type")
    pep = data.get("pep", False)
    if not isinstance(pep, bool):
        raise InvalidCommand("pep (politically exposed person) is true or false", field="pep")
    return {
        "name": _text(data, "name"),
        "document_type": document_type,
        "document_number": _text(data, "document_number", limit=64),
        "document_country": _country(data, "document_country"),
        "date_of_birth": _birth(data.get("date_of_birth"), today).isoformat(),
        "nationality": _country(data, "nationality"),
        "address": _text(data, "address", limit=500),
        "pep": pep,
        "document_image": _text(data, "document_image", limit=300, required=False),
    }


@command("patron_register")
def patron_register(*, metadata: Metadata, place: str = "cage", window: str = "",
                    verified: bool = False, **identity: Any) -> PatronAnswer:
    """Identify a person: their data sealed into the vault under a key of their own, the
    ``PatronRegistered`` event by reference. ``verified``: the original document was checked
    now (its image referenced in ``document_image``), which a movement at the threshold needs."""
    require_role(metadata, REGISTER_ROLES, "registering a patron")
    casino = casino_get(metadata.casino)
    if place not in PLACES:
        raise InvalidCommand("a patron is identified {places}, not {place!r}",
                             params={"places": choice_words(PLACES, "identification place"),
                                     "place": place}, field="place")
    if not isinstance(verified, bool):
        raise InvalidCommand("verified is true or false", field="verified")
    now = clock.now()
    data = identity_of(identity, casino.gaming_day(now))
    if verified and not data["document_image"]:
        raise InvalidCommand("verifying a patron records the image of the document checked "
                             "(document_image)", field="document_image")
    key = master_key()
    index = key.document_index(casino.code, data["document_type"], data["document_number"],
                               data["document_country"])
    existing = PatronVault.objects.filter(
        casino=casino.code, document_index__in=document_indexes(
            casino.code, data["document_type"], data["document_number"],
            data["document_country"])).first()
    if existing is not None:
        raise Conflict(ALREADY_REGISTERED, params=dict(document=data["document_type"].replace("_", " "),
                                                 patron=existing.patron_id),
                       code="patron_exists", field="document_number",
                       patron_id=str(existing.patron_id))
    patron_id = uuid.uuid4()
    data_key = vault.new_data_key()
    nonce, sealed = vault.seal(data_key, data, context=str(patron_id))
    try:
        with transaction.atomic():
            PatronVault.objects.create(
                patron_id=patron_id, casino=casino.code, master_key_id=key.key_id,
                wrapped_key=vault.wrap(key, data_key), nonce=nonce, ciphertext=sealed,
                document_index=index, created_at=now)
    except IntegrityError as error:  # the same document registered at the same moment
        raise Conflict("this document was registered at the same moment: {error}",
                       params={"error": error},
                       code="patron_exists", field="document_number") from None
    events: list[Any] = [PatronRegistered(patron_id=str(patron_id), casino=casino.code,
                                          place=place, window=window[:64])]
    if verified:
        events.append(PatronVerified(patron_id=str(patron_id), place=place))
    recorded = store.append(f"patron/{patron_id}", events, expected_version=0,
                            metadata=metadata)
    return PatronAnswer(patron_id=str(patron_id),
                        status=(PatronStatus.VERIFIED if verified else PatronStatus.REGISTERED).value,
                        version=recorded[-1].version)


def _seal_again(row: PatronVault, change: dict[str, Any]) -> None:
    data_key = data_key_of(row)
    data = vault.open_sealed(data_key, row.nonce, row.ciphertext, context=str(row.patron_id))
    data.update(change)
    row.nonce, row.ciphertext = vault.seal(data_key, data, context=str(row.patron_id))
    row.save(update_fields=["nonce", "ciphertext"])


@command("patron_verify")
def patron_verify(*, patron_id: str, document_image: str, metadata: Metadata,
                  place: str = "cage") -> PatronAnswer:
    """The patron's document checked against the person (a patron registered at the entrance
    without their document, or whose document was not at hand)."""
    require_role(metadata, REGISTER_ROLES, "verifying a patron")
    patron = patron_get(metadata.casino, patron_id, field="patron_id")
    if patron.status == PatronStatus.SHREDDED:
        raise Conflict(SHREDDED, params=dict(patron=patron.patron_id,
                                       day=patron.shredded_at.date() if patron.shredded_at
                                       else ""), code="patron_shredded", field="patron_id")
    if patron.status == PatronStatus.VERIFIED:
        raise Conflict("patron {patron_id} is verified already",
                       params={"patron_id": patron.patron_id}, code="verified_already",
                       field="patron_id")
    image = _text({"document_image": document_image}, "document_image", limit=300)
    if place not in PLACES:
        raise InvalidCommand("a patron is identified {places}, not {place!r}",
                             params={"places": choice_words(PLACES, "identification place"),
                                     "place": place}, field="place")
    _seal_again(PatronVault.objects.get(patron_id=patron.patron_id), {"document_image": image})
    recorded = store.append(f"patron/{patron.patron_id}",
                            [PatronVerified(patron_id=str(patron.patron_id), place=place)],
                            expected_version=patron.version, metadata=metadata)
    return PatronAnswer(patron_id=str(patron.patron_id), status=PatronStatus.VERIFIED.value,
                        version=recorded[-1].version)


def retention_years(jurisdiction_code: str) -> int:
    configured: dict[str, int] = getattr(settings, "COMPLIANCE_RETENTION_YEARS", {})
    return int(configured.get(jurisdiction_code, thresholds.RETENTION_YEARS[jurisdiction_code]))


def retention_end(patron: Patron, jurisdiction_code: str, time_zone_day: dt.date) -> dt.date:
    """The last movement's gaming day (or the registration's) plus the retention years."""
    last = PatronDay.objects.filter(casino=patron.casino, patron_id=patron.patron_id).aggregate(
        last=Max("gaming_day"))["last"] or time_zone_day
    years = retention_years(jurisdiction_code)
    try:
        return last.replace(year=last.year + years)
    except ValueError:  # 29 February
        return last.replace(year=last.year + years, day=28)


@command("patron_shred")
def patron_shred(*, patron_id: str, metadata: Metadata) -> PatronShredAnswer:
    """Destroy the patron's data key at the end of the retention period (crypto-shredding):
    their personal data becomes unreadable; every event stays as it was."""
    require_role(metadata, (*COMPLIANCE_ROLES, "system"), "destroying a patron's data")
    casino = casino_get(metadata.casino)
    patron = patron_get(casino.code, patron_id, field="patron_id")
    if patron.status == PatronStatus.SHREDDED:
        raise Conflict("patron {patron_id}'s data was destroyed already",
                       params={"patron_id": patron.patron_id},
                       code="patron_shredded", field="patron_id")
    now = clock.now()
    code = jurisdiction(casino)
    registered_day = casino.gaming_day(patron.registered_at)
    until = retention_end(patron, code, registered_day)
    today = casino.gaming_day(now)
    if today < until:
        raise Conflict(RETENTION_NOT_OVER, params=dict(
            patron=patron.patron_id, until=until, years=retention_years(code),
            source=("Lei n.º 83/2017, art. 51.º" if code == "PT"
                    else "Regulamento Administrativo n.º 7/2006")),
            code="retention_not_over", field="patron_id", until=until.isoformat())
    updated = PatronVault.objects.filter(patron_id=patron.patron_id,
                                         wrapped_key__isnull=False).update(
        wrapped_key=None, document_index=None, shredded_at=now)
    if updated != 1:
        raise NotFound("patron {patron_id} has no data to destroy",
                       params={"patron_id": patron.patron_id}, field="patron_id")
    recorded = store.append(f"patron/{patron.patron_id}", [PatronDataShredded(
        patron_id=str(patron.patron_id), retention_ended=until)],
        expected_version=patron.version, metadata=metadata)
    return PatronShredAnswer(patron_id=str(patron.patron_id), status=PatronStatus.SHREDDED.value,
                             retention_ended=until.isoformat(), version=recorded[-1].version)
