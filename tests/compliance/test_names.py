"""Issue 36, item 2: the compliance screens show patrons by name and a short number, alerts in
words with their law, and find a patron by name through the vault; never a UUID."""

from __future__ import annotations

import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.test import Client

from cage import services as cage
from casino.models import Membership, Role
from compliance import names
from compliance.services import patron_register, suspicious_report_draft

from .conftest import lisboa
from .test_patrons import RUI

INES = {**RUI, "name": "Inês Lourenço", "document_number": "11223344"}


def _officer() -> Client:
    user = User.objects.create_user("olga")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(user)
    return client


def test_alerts_reports_and_patrons_read_by_name_and_number(lisboa_window: str) -> None:
    rui = str(patron_register(metadata=lisboa("ana"), verified=True, **RUI).patron_id)
    for _ in range(3):  # 3 x 800.00: the third makes 2,400.00, the linked alert
        cage.chips_sell(shift_id=lisboa_window, amount=Decimal("800.00"), chips={"100.00": 8},
                        cash={"100.00": 8}, patron=rui, metadata=lisboa("ana"))
    from compliance.models import AmlAlert

    alert = AmlAlert.objects.get()
    report = suspicious_report_draft(alert_ids=[str(alert.alert_id)], narrative="three buys",
                                     metadata=lisboa("olga", Role.COMPLIANCE_OFFICER))
    number = "P-" + uuid.UUID(rui).hex[:8].upper()
    client = _officer()
    for path in ("/compliance/lisboa/alerts/", "/compliance/lisboa/reports/",
                 f"/compliance/lisboa/reports/{report.report_id}/",
                 "/compliance/lisboa/patrons/", f"/compliance/lisboa/patrons/{rui}/"):
        page = client.get(path).content.decode()
        assert "Rui Costa" in page, path
        assert number in page, path
        # a UUID only in links and attributes, never in the text a person reads
        text = page.replace(f'/{rui}/', "").replace(f'"{alert.alert_id}"', "").replace(
            f'/{report.report_id}/', "").replace(f'"{report.report_id}"', "")
        assert rui not in text, path
        assert str(report.report_id) not in text, path
    alerts = client.get("/compliance/lisboa/alerts/").content.decode()
    assert "Linked movements reached the threshold" in alerts
    assert "Lei n.º 83/2017, art. 76.º" in alerts
    assert "purchase of chips" in alerts


def test_a_patron_is_found_by_name_case_and_accents_aside(lisboa_window: str) -> None:
    patron_register(metadata=lisboa("ana"), verified=True, **RUI)
    ines = str(patron_register(metadata=lisboa("ana"), verified=True, **INES).patron_id)
    assert [str(p.patron_id) for p in names.search("lisboa", "ines LOUR")] == [ines]
    assert names.search("lisboa", "nobody") == []
    assert names.search("macau", "Inês") == []  # another casino's vault is not searched
    page = _officer().get("/compliance/lisboa/patrons/", {"name": "lourenco"}).content.decode()
    assert "Inês Lourenço" in page
    assert "Rui Costa" not in page
    none = _officer_again().get("/compliance/lisboa/patrons/", {"name": "zz"}).content.decode()
    assert "No patron by that name." in none


def _officer_again() -> Client:
    user = User.objects.create_user("olga2")
    Membership.objects.create(user=user, casino_id="lisboa", role=Role.COMPLIANCE_OFFICER)
    client = Client()
    client.force_login(user)
    return client
