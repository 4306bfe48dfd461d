"""Issue 39: an alert raised by a Macau table that plays in Hong Kong dollars keeps the movement's
figure in HKD and the rate it was converted at, beside the amount in the law's currency (MOP),
on its events, on the compliance officer's screen ("HKD x at rate r = MOP y") and in the API.

MO-1: identification and the large-transaction report at MOP 500,000.00 in cash; the band just
below it from MOP 450,000.00; the third anonymous movement in the band at one table raises
``anonymous_structuring``. The session opened at 1 HKD = 1.03 MOP. Worked by hand, rounded half
up to the cent:

* 440,000.00 HKD x 1.03 = MOP 453,200.00; 450,000.00 HKD = MOP 463,500.00; 460,000.00 HKD =
  MOP 473,800.00: three in the band, the third raises the alert, its total 453,200.00 +
  463,500.00 + 473,800.00 = MOP 1,390,500.00, its movement HKD 460,000.00 at 1.030000;
* a fourth, 470,000.00 HKD = MOP 484,100.00, grows it to MOP 1,874,600.00, the grown event
  keeping HKD 470,000.00 at 1.030000;
* an identified patron's 490,000.00 HKD = MOP 504,700.00: the large-transaction report, HKD
  490,000.00 at 1.030000 = MOP 504,700.00."""

from __future__ import annotations

from decimal import Decimal as D

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from casino.models import Membership, Role
from compliance import selectors
from compliance.events import AmlAlertGrown, AmlAlertRaised
from compliance.models import AmlAlert
from compliance.services import patron_register
from eventstore.history import read_stream
from games.limits import default_limits
from games.services import sessions, tables
from tests.compliance.test_foreign_table import PIT, WANG, hkd_session  # noqa: F401


def _officer() -> User:
    user = User.objects.create_user(username="olga", password="x")
    Membership.objects.create(user=user, casino_id="macau", role=Role.COMPLIANCE_OFFICER)
    return user


def test_an_hkd_tables_alerts_keep_the_hkd_figure_and_the_rate(
        hkd_session: str) -> None:  # noqa: F811
    for amount in ("440000.00", "450000.00", "460000.00"):
        sessions.drop_record(session_id=hkd_session, amount=amount, player="P-0b1a",
                             metadata=PIT)
    alert = AmlAlert.objects.get(kind="anonymous_structuring")
    assert (alert.amount, alert.day_total, alert.currency, alert.original_amount, alert.rate) == (
        D("473800.00"), D("1390500.00"), "HKD", D("460000.00"), D("1.030000"))
    sessions.drop_record(session_id=hkd_session, amount="470000.00", metadata=PIT)
    alert.refresh_from_db()
    assert alert.day_total == D("1874600.00")
    events = [r.event for r in read_stream(f"aml_alert/{alert.alert_id}")]
    raised, grown = events
    assert isinstance(raised, AmlAlertRaised)
    assert isinstance(grown, AmlAlertGrown)
    assert (raised.amount, raised.currency, raised.original_amount, raised.rate) == (
        D("473800.00"), "HKD", D("460000.00"), D("1.030000"))
    assert (grown.amount, grown.day_total, grown.currency, grown.original_amount,
            grown.rate) == (D("484100.00"), D("1874600.00"), "HKD", D("470000.00"),
                            D("1.030000"))

    wang = str(patron_register(metadata=PIT, place="table", verified=True, **WANG).patron_id)
    sessions.drop_record(session_id=hkd_session, amount="490000.00", patron=wang,
                         metadata=PIT)
    large = AmlAlert.objects.get(kind="large_transaction")
    assert (large.amount, large.currency, large.original_amount, large.rate) == (
        D("504700.00"), "HKD", D("490000.00"), D("1.030000"))

    officer = _officer()
    api = APIClient()
    api.force_authenticate(officer)
    answer = api.get("/api/v1/compliance/macau/alerts/", {"kind": "large_transaction"})
    assert answer.status_code == 200
    [shown] = answer.json()
    assert {k: shown[k] for k in ("amount", "cash", "currency", "original_amount", "rate")} == {
        "amount": "504700.00", "cash": "504700.00", "currency": "HKD",
        "original_amount": "490000.00", "rate": "1.030000"}

    # the day's large-transaction report (the officer's API, and the same rows the regulator's
    # API and file read): the MOP figure beside the HKD one and its rate
    report = api.get("/api/v1/compliance/macau/large-transactions/",
                     {"day": large.gaming_day.isoformat()})
    assert report.status_code == 200
    [row] = report.json()["transactions"]
    assert {k: row[k] for k in ("amount", "currency", "original_amount", "rate")} == {
        "amount": "504700.00", "currency": "HKD", "original_amount": "490000.00",
        "rate": "1.030000"}
    [regulator_row] = selectors.large_transactions("macau", large.gaming_day)
    assert (regulator_row["currency"], regulator_row["original_amount"]) == ("HKD", "490000.00")

    page = Client()
    page.force_login(officer)
    html = page.get("/compliance/macau/alerts/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "HKD 490000.00 at rate 1.030000 = MOP 504700.00" in html
    assert "HKD 460000.00 at rate 1.030000 = MOP 473800.00" in html
    pt = page.get("/compliance/macau/alerts/", HTTP_ACCEPT_LANGUAGE="pt-pt").content.decode()
    assert "HKD 490000,00 à taxa 1,030000 = MOP 504700,00" in pt


def test_an_alert_in_the_laws_currency_names_no_other(hkd_session: str) -> None:  # noqa: F811
    # table b2 of the same casino plays in patacas: its large transaction is MOP alone
    tables.table_configure(casino="macau", code="b2", name="B2", game="french_roulette",
                           seats=8, chip_set="patacas",
                           limits=default_limits("french_roulette", D("10.00")), metadata=PIT)
    session = str(sessions.table_session_open(casino="macau", table="b2",
                                              opening={"100.00": 1}, metadata=PIT).session_id)
    wang = str(patron_register(metadata=PIT, place="table", verified=True, **WANG).patron_id)
    sessions.drop_record(session_id=session, amount="500000.00", patron=wang, metadata=PIT)
    large = AmlAlert.objects.get(kind="large_transaction")
    assert (large.amount, large.currency, large.original_amount, large.rate) == (
        D("500000.00"), "", None, None)
    api = APIClient()
    api.force_authenticate(_officer())
    [shown] = api.get("/api/v1/compliance/macau/alerts/").json()
    assert (shown["amount"], shown["currency"], shown["original_amount"], shown["rate"]) == (
        "500000.00", None, None, None)
    [row] = selectors.large_transactions("macau", large.gaming_day)
    assert (row["amount"], row["currency"], row["original_amount"], row["rate"]) == (
        "500000.00", None, None, None)
