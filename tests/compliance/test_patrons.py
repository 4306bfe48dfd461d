"""Patrons, their encrypted data and its crypto-shredding, Macau's large-transaction report, the
suspicious-transaction report's workflow and who sees what (docs/patrons.md)."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from cage import services as cage
from cage.answers import ChipsSellAnswer
from cage.models import Shift
from casino.errors import Conflict, NotAllowed
from casino.models import Membership, Role
from compliance import selectors
from compliance.models import AmlAlert, PatronTransaction, PatronVault
from compliance.services import (
    patron_register,
    patron_shred,
    suspicious_report_draft,
    suspicious_report_review,
    suspicious_report_send,
)
from eventstore.models import StoredEvent
from eventstore.verify import verify_chain

from .conftest import lisboa, macau

WANG = {
    "name": "Wang Li", "document_type": "passport", "document_number": "E12345678",
    "document_country": "CN", "date_of_birth": "1968-09-30", "nationality": "CN",
    "address": "Avenida da Praia Grande 1, Macau", "pep": True,
    "document_image": "scans/passport-e12345678.png",
}
RUI = {
    "name": "Rui Costa", "document_type": "id_card", "document_number": "99887766",
    "document_country": "PT", "date_of_birth": "1990-12-31", "nationality": "PT",
    "address": "Rua Augusta 5, Lisboa", "pep": False, "document_image": "scans/cc-9988.jpg",
}


def _sell_half_a_million(window: str, patron: str | None) -> ChipsSellAnswer:
    # 50 chips of 10,000.00 for 500 notes of 1,000.00: MOP 500,000.00
    return cage.chips_sell(shift_id=window, amount=Decimal("500000.00"), chips={"10000.00": 50},
                           cash={"1000.00": 500}, patron=patron, metadata=macau("lei"))


def test_a_macau_cash_purchase_of_500000_is_on_the_days_large_transaction_report(
        macau_window: str) -> None:
    with pytest.raises(Conflict) as refused:
        _sell_half_a_million(macau_window, None)
    assert refused.value.code == "identification_required"
    assert "Instrução da DICJ n.º 1/2016" in refused.value.message
    not_pep = {**WANG, "pep": False}  # a politically exposed patron waits for more (below)
    patron = str(patron_register(metadata=macau("lei"), verified=True, **not_pep).patron_id)
    sale = _sell_half_a_million(macau_window, patron)
    day = Shift.objects.get(id=macau_window).gaming_day
    report = selectors.large_transactions("macau", day)
    assert [(r["patron_id"], r["amount"], r["cash"], r["movement"], r["reference"], r["rule"])
            for r in report] == [(patron, "500000.00", "500000.00", "purchase",
                                  sale.transaction_id, "MO-1")]
    # a sale of 499,000.00 is below it: not on the report
    cage.chips_sell(shift_id=macau_window, amount=Decimal("40000.00"), chips={"10000.00": 4},
                    cash={"1000.00": 40}, patron=patron, metadata=macau("lei"))
    assert len(selectors.large_transactions("macau", day)) == 1


def test_a_politically_exposed_patrons_macau_purchase_waits_for_enhanced_diligence(
        macau_window: str) -> None:
    """In Macau too (Instrução da DICJ n.º 1/2016): at MOP 500,000.00 in cash a politically
    exposed patron's purchase waits for the source of funds and a senior approval."""
    from casino.services.approvals import approval_grant, approval_request

    patron = str(patron_register(metadata=macau("lei"), verified=True, **WANG).patron_id)
    with pytest.raises(Conflict) as refused:
        _sell_half_a_million(macau_window, patron)
    assert refused.value.code == "pep_approval_required"
    assert "Instrução da DICJ n.º 1/2016" in refused.value.message
    assert not selectors.large_transactions("macau", Shift.objects.get(id=macau_window)
                                            .gaming_day)  # nothing recorded
    day = Shift.objects.get(id=macau_window).gaming_day.isoformat()
    asked = approval_request(kind="pep_movement", subject=patron, reason="business",
                             explanation="audited accounts of the patron's company seen",
                             details={"amount": "500000.00", "gaming_day": day},
                             metadata=macau("lei"))
    approval_grant(approval_id=str(asked.approval_id), note="source of funds seen",
                   metadata=macau("wong", Role.COMPLIANCE_OFFICER))
    sale = _sell_half_a_million(macau_window, patron)
    assert sale.patron_id == patron


def _patron_with_report(window: str) -> tuple[str, str]:
    patron = str(patron_register(metadata=lisboa("ana"), verified=True, **RUI).patron_id)
    for _ in range(3):  # 3 x 800.00: the linked alert at the third (2,400.00)
        cage.chips_sell(shift_id=window, amount=Decimal("800.00"), chips={"100.00": 8},
                        cash={"100.00": 8}, patron=patron, metadata=lisboa("ana"))
    alert = AmlAlert.objects.get()
    report = suspicious_report_draft(alert_ids=[str(alert.alert_id)],
                                     narrative="Rui Costa bought 2,400.00 in three buys",
                                     metadata=lisboa("olga", Role.COMPLIANCE_OFFICER))
    return patron, str(report.report_id)


def test_crypto_shredding_leaves_the_data_unreadable_and_the_events_and_projections_whole(
        lisboa_window: str) -> None:
    patron, report_id = _patron_with_report(lisboa_window)
    found = selectors.patron_get("lisboa", patron)
    assert selectors.patron_identity(found)["name"] == "Rui Costa"
    officer = lisboa("olga", Role.COMPLIANCE_OFFICER)
    with pytest.raises(Conflict) as early:  # seven years after the last movement
        patron_shred(patron_id=patron, metadata=officer)
    assert early.value.code == "retention_not_over"
    day = Shift.objects.get(id=lisboa_window).gaming_day  # of the last movement
    assert early.value.extra["until"] == day.replace(year=day.year + 7).isoformat()
    events_before = list(StoredEvent.objects.order_by("position").values_list("position",
                                                                               "hash"))
    with override_settings(COMPLIANCE_RETENTION_YEARS={"PT": 0}):
        patron_shred(patron_id=patron, metadata=officer)
    found = selectors.patron_get("lisboa", patron)
    assert found.status == "shredded"
    assert selectors.patron_identity(found) is None
    assert selectors.report_narrative(selectors.report_get("lisboa", report_id)) is None
    row = PatronVault.objects.get(patron_id=patron)
    assert row.wrapped_key is None
    assert row.document_index is None
    assert b"Rui" not in bytes(row.ciphertext)
    # no event carries the name; the events before are untouched; the chain verifies
    assert not StoredEvent.objects.filter(data__icontains="Rui").exists()
    assert list(StoredEvent.objects.order_by("position").values_list(
        "position", "hash"))[:len(events_before)] == events_before
    assert verify_chain().ok
    out = StringIO()
    call_command("rebuild_projections", "--check", stdout=out)
    assert "OK: rebuilt state equals live state" in out.getvalue()
    call_command("rebuild_projections", stdout=StringIO())
    assert PatronTransaction.objects.filter(patron_id=patron).count() == 3
    assert selectors.patron_get("lisboa", patron).status == "shredded"
    # the shredded patron makes no more movements
    with pytest.raises(Conflict) as after:
        cage.chips_sell(shift_id=lisboa_window, amount=Decimal("100.00"), chips={"100.00": 1},
                        cash={"100.00": 1}, patron=patron, metadata=lisboa("ana"))
    assert after.value.code == "patron_shredded"


def test_the_vault_refuses_a_delete_and_any_change_after_shredding(lisboa_window: str) -> None:
    patron = str(patron_register(metadata=lisboa("ana"), verified=True, **RUI).patron_id)
    with pytest.raises(IntegrityError, match="destroy their key instead"), transaction.atomic():
        PatronVault.objects.filter(patron_id=patron).delete()
    PatronVault.objects.filter(patron_id=patron).update(
        wrapped_key=None, document_index=None, shredded_at=timezone.now())
    with pytest.raises(IntegrityError, match="never changes again"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE compliance_patron_vault SET wrapped_key = '\\x00'::bytea "
                       "WHERE patron_id = %s", [patron])
    with pytest.raises(IntegrityError, match="patron_vault_shredded_whole"), \
            transaction.atomic():
        PatronVault.objects.create(patron_id="5d7c2a1e-0000-4000-8000-000000000001",
                                   casino="lisboa", master_key_id="x", wrapped_key=None,
                                   nonce=b"n", ciphertext=b"c", document_index="i",
                                   created_at=timezone.now())


def test_one_patron_per_document(lisboa_window: str) -> None:
    first = patron_register(metadata=lisboa("ana"), verified=True, **RUI)
    again = {**RUI, "document_number": " 9988 7766 "}  # the same number, spaced
    with pytest.raises(Conflict) as refused:
        patron_register(metadata=lisboa("bia"), **again)
    assert refused.value.code == "patron_exists"
    assert refused.value.extra["patron_id"] == first.patron_id


def test_the_report_workflow_needs_a_second_officer_and_a_review_before_sending(
        lisboa_window: str) -> None:
    _, report_id = _patron_with_report(lisboa_window)
    olga = lisboa("olga", Role.COMPLIANCE_OFFICER)
    paulo = lisboa("paula", Role.COMPLIANCE_OFFICER)
    with pytest.raises(Conflict):
        suspicious_report_send(report_id=report_id, reference="UIF-1", metadata=paulo)
    with pytest.raises(NotAllowed) as own:
        suspicious_report_review(report_id=report_id, metadata=olga)
    assert own.value.code == "four_eyes"
    suspicious_report_review(report_id=report_id, metadata=paulo)
    sent = suspicious_report_send(report_id=report_id, reference="UIF/2026/0042",
                                  sent_on="2026-12-01", metadata=olga)
    assert (sent.status, sent.reference) == ("sent", "UIF/2026/0042")
    assert selectors.reports_sent("lisboa") == [{
        "report_id": report_id, "sent_on": "2026-12-01", "reference": "UIF/2026/0042",
        "patron_id": sent.report_id and selectors.report_get("lisboa", report_id)
        .patron_id.__str__(), "grounds": ["linked_threshold"]}]


# --- the API ----------------------------------------------------------------------------------


def client_for(username: str, *roles: str) -> APIClient:
    user = User.objects.create_user(username=username, password="x")
    for role in roles:
        Membership.objects.create(user=user, casino_id="lisboa", role=role)
    client = APIClient()
    client.force_authenticate(user)
    return client


BASE = "/api/v1/compliance/lisboa"


def test_the_cashier_cannot_see_a_suspicious_transaction_report_the_officer_can(
        lisboa_window: str) -> None:
    _, report_id = _patron_with_report(lisboa_window)
    cashier = client_for("ana", Role.CASHIER, Role.CAGE_SUPERVISOR)
    officer = client_for("olga", Role.COMPLIANCE_OFFICER)
    regulator = client_for("igj", Role.REGULATOR)
    for url in (f"{BASE}/reports/", f"{BASE}/reports/{report_id}/", f"{BASE}/alerts/"):
        refused = cashier.get(url)
        assert refused.status_code == 403, url
        assert refused.json()["error"]["code"] == "not_allowed"
        assert regulator.get(url).status_code == 403, url
    listed = officer.get(f"{BASE}/reports/").json()
    assert [r["report_id"] for r in listed] == [report_id]
    detail = officer.get(f"{BASE}/reports/{report_id}/").json()
    assert detail["narrative"] == "Rui Costa bought 2,400.00 in three buys"
    # the web admin likewise
    cashier.force_login(User.objects.get(username="ana"))
    officer.force_login(User.objects.get(username="olga"))
    assert cashier.get(f"/compliance/lisboa/reports/{report_id}/").status_code == 403
    page = officer.get(f"/compliance/lisboa/reports/{report_id}/")
    assert page.status_code == 200
    assert "Rui Costa bought" in page.content.decode()


def test_the_regulator_reads_identifications_by_reference_without_personal_data(
        lisboa_window: str) -> None:
    patron, _ = _patron_with_report(lisboa_window)
    day = Shift.objects.get(id=lisboa_window).gaming_day
    regulator = client_for("igj", Role.REGULATOR)
    got = regulator.get(f"{BASE}/identifications/", {"day": day.isoformat()})
    assert got.status_code == 200
    assert got.json()["patrons"] == [{
        "patron_id": patron, "status": "verified", "verified_at": got.json()["patrons"][0][
            "verified_at"], "purchases": "2400.00", "redemptions": "0.00", "payouts": "0.00",
        "buy_ins": "0.00", "transactions": 3}]
    assert "Rui" not in got.content.decode()
    assert regulator.get(f"{BASE}/patrons/{patron}/").status_code == 403
    assert regulator.get(f"{BASE}/reports-sent/").json() == []
    assert regulator.post(f"{BASE}/reports-sent/", {}).status_code == 405


def test_bad_input_is_a_clear_400(lisboa_window: str) -> None:
    cashier = client_for("ana", Role.CASHIER)
    bad_birth = cashier.post(f"{BASE}/patrons/", {**RUI, "date_of_birth": "31/12/1990"},
                             format="json")
    assert bad_birth.status_code == 400
    assert bad_birth.json()["error"]["extra"]["field"] == "date_of_birth"
    minor = cashier.post(f"{BASE}/patrons/", {**RUI, "date_of_birth": str(
        timezone.localdate().replace(year=timezone.localdate().year - 17))}, format="json")
    assert minor.status_code == 400
    assert "at least 18" in minor.json()["error"]["message"]
    country = cashier.post(f"{BASE}/patrons/", {**RUI, "nationality": "Portugal"},
                           format="json")
    assert country.status_code == 400
    kind = cashier.post(f"{BASE}/patrons/", {**RUI, "document_type": "library_card"},
                        format="json")
    assert kind.json()["error"]["extra"]["field"] == "document_type"
    missing = cashier.post(f"{BASE}/patrons/", {"name": "X"}, format="json")
    assert missing.status_code == 400
    assert missing.json()["error"]["code"] == "invalid"
    sale = cashier.post(f"/api/v1/cage/lisboa/shifts/{lisboa_window}/chip-sales/",
                        {"amount": "100.00", "chips": {"100.00": 1}, "cash": {"100.00": 1},
                         "patron": "not-a-patron"}, format="json")
    assert sale.status_code == 400
    assert sale.json()["error"]["extra"]["field"] == "patron"
    unknown = cashier.post(f"/api/v1/cage/lisboa/shifts/{lisboa_window}/chip-sales/",
                           {"amount": "100.00", "chips": {"100.00": 1}, "cash": {"100.00": 1},
                            "patron": "00000000-0000-4000-8000-000000000000"}, format="json")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_patron"
    big = cashier.post(f"/api/v1/cage/lisboa/shifts/{lisboa_window}/chip-sales/",
                       {"amount": "2500.00", "chips": {"100.00": 25}, "cash": {"500.00": 5}},
                       format="json")
    assert big.status_code == 409
    assert big.json()["error"]["code"] == "identification_required"
    officer = client_for("olga", Role.COMPLIANCE_OFFICER)
    assert officer.get(f"{BASE}/large-transactions/").status_code == 400
    assert officer.get(f"{BASE}/large-transactions/", {"day": "yesterday"}).status_code == 400
    assert officer.get(f"{BASE}/patrons/nope/").status_code == 400
    found = cashier.post(f"{BASE}/patrons/find/", {"document_type": "id_card",
                                                   "document_number": "1",
                                                   "document_country": "PT"}, format="json")
    assert found.status_code == 404
    assert Decimal(0) == sum((t.amount for t in PatronTransaction.objects.all()), Decimal(0))
