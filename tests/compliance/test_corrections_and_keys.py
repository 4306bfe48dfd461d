"""A patron's data corrected by two people with a reason (approval kind ``patron_correction``),
and the master key rotated (``rotate_patron_master_key``): data reads after it, found by its
document, and a shredded patron stays shredded (docs/patrons.md)."""

from __future__ import annotations

import base64
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Role
from casino.services.approvals import approval_grant, approval_request
from compliance import selectors
from compliance.models import PatronCorrection, PatronVault
from compliance.services import patron_register, patron_shred
from compliance.services.keys import PREVIOUS, VARIABLE
from eventstore.models import StoredEvent
from eventstore.verify import verify_chain

from .conftest import lisboa

MARIA = {
    "name": "Maria Antónia Ferrera", "document_type": "id_card",
    "document_number": "12345678 9 ZZ1", "document_country": "PT",
    "date_of_birth": "1971-04-02", "nationality": "PT",
    "address": "Rua das Flores 12, 1200-195 Lisboa", "pep": False,
    "document_image": "scans/cc-0001.jpg",
}


def _register(**changes: object) -> str:
    return str(patron_register(metadata=lisboa("ana"), verified=True,
                               **{**MARIA, **changes}).patron_id)


def _identity(patron: str) -> dict[str, object] | None:
    return selectors.patron_identity(selectors.patron_get("lisboa", patron))


def _ask(patron: str, changes: dict[str, object], reason: str = "typo") -> str:
    asked = approval_request(kind="patron_correction", subject=patron, reason=reason,
                             explanation="the name was mistyped at registration",
                             details={"changes": changes}, metadata=lisboa("ana"))
    return str(asked.approval_id)


def test_a_typo_in_the_name_is_corrected_by_a_second_person(lisboa_window: str) -> None:
    patron = _register()
    approval = _ask(patron, {"name": "Maria Antónia Ferreira"})
    assert _identity(patron)["name"] == "Maria Antónia Ferrera"  # nothing until approved
    staged = PatronCorrection.objects.get()
    assert b"Ferreira" not in bytes(staged.ciphertext)  # sealed
    requested = StoredEvent.objects.get(event_type="ApprovalRequested")
    assert "Ferreira" not in json.dumps(requested.data)  # no personal data in the event
    assert requested.data["details"]["fields"] == ["name"]

    with pytest.raises(NotAllowed):  # the asker may not approve, even as a supervisor
        approval_grant(approval_id=approval, metadata=lisboa("ana", Role.CAGE_SUPERVISOR))
    approval_grant(approval_id=approval, metadata=lisboa("olga", Role.COMPLIANCE_OFFICER))
    assert _identity(patron)["name"] == "Maria Antónia Ferreira"
    corrected = StoredEvent.objects.get(event_type="PatronDataCorrected")
    assert corrected.data == {"patron_id": patron, "fields": ["name"],
                              "approval_id": approval, "reason": "typo"}
    assert verify_chain().ok


def test_a_renewed_document_is_found_by_its_new_number(lisboa_window: str) -> None:
    patron = _register()
    approval = _ask(patron, {"document_number": "87654321 0 ZZ9",
                             "document_image": "scans/cc-0002.jpg"}, reason="document_renewed")
    approval_grant(approval_id=approval, metadata=lisboa("carla", Role.CAGE_SUPERVISOR))
    found = selectors.patron_find("lisboa", document_type="id_card",
                                  document_number="87654321 0 ZZ9", document_country="PT")
    assert found is not None
    assert str(found.patron_id) == patron
    assert selectors.patron_find("lisboa", document_type="id_card",
                                 document_number="12345678 9 ZZ1", document_country="PT") is None


def test_a_correction_must_change_something_known(lisboa_window: str) -> None:
    patron = _register()
    with pytest.raises(InvalidCommand) as same:
        _ask(patron, {"name": MARIA["name"]})
    assert same.value.extra["field"] == "changes"
    with pytest.raises(InvalidCommand) as unknown:
        _ask(patron, {"shoe_size": "38"})
    assert "shoe_size" in unknown.value.message
    other = _register(document_number="11112222 3 ZZ4", name="Rui Costa")
    approval = _ask(other, {"document_number": "12345678 9 ZZ1"}, reason="typo")
    with pytest.raises(Conflict) as taken:  # Maria's document: refused, nothing recorded
        approval_grant(approval_id=approval, metadata=lisboa("olga", Role.COMPLIANCE_OFFICER))
    assert taken.value.code == "patron_exists"
    assert not StoredEvent.objects.filter(event_type="PatronDataCorrected").exists()


def _key(byte: int) -> str:
    return base64.b64encode(bytes([byte]) * 32).decode()


def test_master_key_rotation(lisboa_window: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = _key(1), _key(2)
    monkeypatch.setenv(VARIABLE, old)
    kept = _register()
    gone = _register(document_number="55556666 7 ZZ8", name="Rui Costa")
    with override_settings(COMPLIANCE_RETENTION_YEARS={"PT": 0}):
        patron_shred(patron_id=gone, metadata=lisboa("olga", Role.COMPLIANCE_OFFICER))
    before = {r.patron_id: r.master_key_id for r in PatronVault.objects.all()}

    monkeypatch.setenv(VARIABLE, new)  # the new key in place, the old one not yet given
    with pytest.raises(Conflict) as unknown:
        _identity(kept)
    assert unknown.value.code == "patron_key_unknown"
    monkeypatch.setenv(PREVIOUS, old)  # during the rotation: both keys read
    assert _identity(kept)["name"] == MARIA["name"]
    out = StringIO()
    call_command("rotate_patron_master_key", stdout=out)
    assert "1 data key(s) re-wrapped" in out.getvalue()
    assert "1 shredded (untouched)" in out.getvalue()
    again = StringIO()
    call_command("rotate_patron_master_key", "--check", stdout=again)
    assert again.getvalue().startswith("0 data key(s) to re-wrap")

    monkeypatch.delenv(PREVIOUS)  # the old key destroyed
    assert _identity(kept)["name"] == MARIA["name"]
    assert str(selectors.patron_find("lisboa", document_type="id_card",
                                     document_number="12345678 9 ZZ1",
                                     document_country="PT").patron_id) == kept
    assert _identity(gone) is None  # shredded stays shredded
    shredded = PatronVault.objects.get(patron_id=gone)
    assert shredded.wrapped_key is None
    assert shredded.master_key_id == before[shredded.patron_id]
    assert verify_chain().ok


def test_the_compliance_officer_asks_for_a_correction_on_the_patrons_page(
        lisboa_window: str) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from casino.models import Approval, Membership

    patron = _register(pep=True)
    user = User.objects.create_user(username="olga", password="x")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.COMPLIANCE_OFFICER)
    web = Client()
    web.force_login(user)
    page = f"/compliance/lisboa/patrons/{patron}/"
    assert 'id="pep"' in web.get(page).content.decode()  # politically exposed: the form shows
    web.post(page, {"action": "correct", "field": "name", "value": "Maria Antónia Ferreira",
                    "reason": "typo", "explanation": "the surname was mistyped",
                    "idempotency_key": "k1"})
    web.post(page, {"action": "pep", "amount": "5000.00", "gaming_day": "2026-12-01",
                    "reason": "salary", "explanation": "payslips of the last three months",
                    "idempotency_key": "k2"})
    asked = {a.kind: a for a in Approval.objects.all()}
    assert asked["patron_correction"].details["fields"] == ["name"]
    assert asked["pep_movement"].details == {"patron_id": patron, "gaming_day": "2026-12-01",
                                             "amount": "5000.00"}
    assert _identity(patron)["name"] == MARIA["name"]  # until a second person approves
