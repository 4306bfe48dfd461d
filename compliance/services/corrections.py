"""Correcting a patron's personal data (a typing error in a name, a renewed document): four eyes,
within the approvals model (``casino.approvals``, kind ``patron_correction``;
``docs/patrons.md`` § Correcting a patron's data; Lei n.º 83/2017, art. 40.º, the duty to keep
the data up to date).

Asked through ``approval_request`` (subject: the patron id; ``details.changes``: the new values
of the fields that change) by the cage or the compliance officer, with a reason and words; the
new values are sealed at once under the patron's own data key (``PatronCorrection``), never put
in an event: the approval's details carry the correction's id and the names of the fields only.
Approved by a cage supervisor or the compliance officer who did not ask: the data is sealed
again under the patron's key with the change, the document's blind index follows a new
document, and ``PatronDataCorrected`` records which fields changed, the approval and the reason.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from casino import approvals as rules
from casino.errors import Conflict, InvalidCommand, gettext_noop
from casino.models import Approval, Role
from casino.services.approvals import Prepared, procedure
from eventstore import clock, store
from eventstore.records import Metadata

from .. import vault
from ..answers import PatronCorrectionAnswer
from ..events import PatronDataCorrected
from ..models import PatronCorrection, PatronStatus, PatronVault
from ._common import REGISTER_ROLES, casino_get, patron_get
from .keys import data_key_of, document_indexes, master_key
from .patrons import ALREADY_REGISTERED, identity_of

FIELDS = ("name", "document_type", "document_number", "document_country", "date_of_birth",
          "nationality", "address", "pep", "document_image")
DOCUMENT = ("document_type", "document_number", "document_country")

PATRON_CORRECTION = rules.kind(
    "patron_correction", gettext_noop("correcting a patron's personal data"),
    [("typo", gettext_noop("A typing error when the patron was registered")),
     ("document_renewed", gettext_noop("The patron's document was renewed or replaced")),
     ("changed", gettext_noop("The patron's details changed (address, nationality...)")),
     ("pep_status", gettext_noop("The patron became, or ceased to be, politically exposed")),
     ("other", gettext_noop("Another reason (say it in words)"))],
    request_roles=REGISTER_ROLES, approve_roles=[Role.CAGE_SUPERVISOR, Role.COMPLIANCE_OFFICER])

# Messages tests and screens rely on.
NOTHING_CHANGES = gettext_noop("the changes are the patron's data as it is: nothing to correct")
UNKNOWN_FIELDS = gettext_noop("{fields}: not a patron's field (correct one of {allowed})")
SHREDDED = gettext_noop("patron {patron}'s data was destroyed: there is nothing to correct")


def _identity(row: PatronVault) -> tuple[bytes, dict[str, Any]]:
    data_key = data_key_of(row)
    return data_key, vault.open_sealed(data_key, row.nonce, row.ciphertext,
                                       context=str(row.patron_id))


def _live(metadata: Metadata, subject: str) -> PatronVault:
    patron = patron_get(metadata.casino, subject, field="subject")
    row = PatronVault.objects.filter(patron_id=patron.patron_id).first()
    if patron.status == PatronStatus.SHREDDED or row is None or row.wrapped_key is None:
        raise Conflict(SHREDDED, params={"patron": patron.patron_id}, code="patron_shredded",
                       field="subject")
    return row


def _prepare(subject: str, details: Mapping[str, Any], metadata: Metadata) -> Prepared:
    row = _live(metadata, subject)
    changes = details.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise InvalidCommand("changes: the fields to correct and their new values",
                             field="changes")
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise InvalidCommand(UNKNOWN_FIELDS, params={"fields": ", ".join(unknown),
                                                     "allowed": ", ".join(FIELDS)},
                             field="changes")
    data_key, identity = _identity(row)
    casino = casino_get(metadata.casino)
    corrected = identity_of({**identity, **changes}, casino.gaming_day(clock.now()))
    fields = sorted(f for f in FIELDS if corrected[f] != identity.get(f))
    if not fields:
        raise InvalidCommand(NOTHING_CHANGES, field="changes")
    correction_id = uuid.uuid4()
    nonce, sealed = vault.seal(data_key, {f: corrected[f] for f in fields},
                               context=f"correction:{correction_id}")
    PatronCorrection.objects.create(correction_id=correction_id, patron_id=row.patron_id,
                                    nonce=nonce, ciphertext=sealed, created_at=clock.now())
    return Prepared(
        subject=str(row.patron_id),
        summary=f"correct {', '.join(fields)} of patron {row.patron_id}",
        details={"correction_id": str(correction_id), "fields": fields},
        private=_private(identity) + _private(corrected),
        private_names=(str(identity.get("name") or ""), str(corrected.get("name") or "")))


def _private(identity: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(str(identity.get(f) or "") for f in ("document_number", "date_of_birth",
                                                     "address"))


def _apply(approval: Approval, metadata: Metadata) -> PatronCorrectionAnswer:
    row = PatronVault.objects.select_for_update().get(patron_id=_live(
        metadata, approval.subject).patron_id)
    staged = PatronCorrection.objects.get(correction_id=approval.details["correction_id"])
    data_key, identity = _identity(row)
    change = vault.open_sealed(data_key, staged.nonce, staged.ciphertext,
                               context=f"correction:{staged.correction_id}")
    identity.update(change)
    if set(change) & set(DOCUMENT):
        others = PatronVault.objects.filter(casino=row.casino, document_index__in=document_indexes(
            row.casino, identity["document_type"], identity["document_number"],
            identity["document_country"])).exclude(patron_id=row.patron_id).first()
        if others is not None:
            raise Conflict(ALREADY_REGISTERED, params={
                "document": identity["document_type"].replace("_", " "),
                "patron": others.patron_id},
                code="patron_exists", field="changes", patron_id=str(others.patron_id))
        key = master_key()
        row.wrapped_key = vault.wrap(key, data_key)
        row.master_key_id = key.key_id
        row.document_index = key.document_index(row.casino, identity["document_type"],
                                                identity["document_number"],
                                                identity["document_country"])
    # sealed again under the patron's own data key, with a fresh nonce
    row.nonce, row.ciphertext = vault.seal(data_key, identity, context=str(row.patron_id))
    row.save(update_fields=["nonce", "ciphertext", "wrapped_key", "master_key_id",
                            "document_index"])
    patron = patron_get(metadata.casino, approval.subject, field="subject")
    fields = sorted(change)
    recorded = store.append(f"patron/{patron.patron_id}", [PatronDataCorrected(
        patron_id=str(patron.patron_id), fields=fields, approval_id=str(approval.id),
        reason=approval.reason)], expected_version=patron.version, metadata=metadata)
    return PatronCorrectionAnswer(patron_id=str(patron.patron_id), fields=fields,
                                  version=recorded[-1].version)


procedure(PATRON_CORRECTION, prepare=_prepare, apply=_apply)

__all__ = ["FIELDS", "PATRON_CORRECTION"]
