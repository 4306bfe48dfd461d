"""Clearing against the bank (docs/ledger.md § Clearing against the bank): a casino cheque the
bank paid (Dr 2785 / Cr 1210) and a batch of card and cheque receipts the bank credited (Dr 1210
/ Cr 1220), each once, for exactly what is owed or outstanding; the reconciliation's lines say
what is still to clear and agree with the ledger. Figures worked out by hand.

The floor: window w1 sells 3,000.00 of chips by card and 1,000.00 by the patron's own cheque
(4,000.00 on 1220), then redeems 2,500.00 by casino cheque 000123 and 1,200.00 by 000124
(3,700.00 on 2785; 300.00 of the 4,000.00 bought by card or cheque left to pay back by cheque).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

import eventstore
from cage import services as cage
from cage.models import Shift
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound
from casino.models import Membership, Role
from casino.money import parse_amount
from compliance.services import patron_register
from eventstore.models import StoredEvent
from ledger import bank, reports
from ledger.answers import BatchSettleAnswer, ChequePresentAnswer
from ledger.models import CardSettlement, ChequePresentation, JournalEntry
from reporting.reconciliation import Line, reconcile
from tests.casino.test_translations import english_left, main_text

from .conftest import CASINO, Floor, act, cashier

D = Decimal
PATRON = {"name": "Maria Antónia Ferreira", "document_type": "id_card",
          "document_number": "12345678 9 ZZ1", "document_country": "PT",
          "date_of_birth": "1971-04-02", "nationality": "PT",
          "address": "Rua das Flores 12, 1200-195 Lisboa", "pep": False,
          "document_image": "scans/2026/12/cc-0001.jpg"}


def accountant(key: str = "") -> Any:
    from casino.context import person_metadata

    return person_metadata(username="alice", role=Role.ACCOUNTANT, casino=CASINO,
                           idempotency_key=key)


def balance(code: str) -> Decimal:
    return reports.account_balance(casino=CASINO, code=code)


def today() -> dt.date:
    return timezone.now().date()


@pytest.fixture
def cheques(floor: Floor) -> Floor:
    """Two casino cheques issued and 4,000.00 sold by card and cheque (the module's floor)."""
    patron = str(patron_register(metadata=cashier(), window="w1", verified=True,
                                 **PATRON).patron_id)
    cage.chips_sell(shift_id=floor.window, amount=Decimal("3000.00"), chips={"100.00": 30},
                    payment="card", patron=patron, metadata=cashier())
    cage.chips_sell(shift_id=floor.window, amount=Decimal("1000.00"), chips={"100.00": 10},
                    payment="cheque", patron=patron, metadata=cashier())
    cage.chips_redeem(shift_id=floor.window, amount=Decimal("2500.00"), chips={"100.00": 25},
                      payment="casino_cheque", cheque_number="000123", patron=patron,
                      metadata=cashier())
    cage.chips_redeem(shift_id=floor.window, amount=Decimal("1200.00"), chips={"100.00": 12},
                      payment="casino_cheque", cheque_number="000124", patron=patron,
                      metadata=cashier())
    return floor


def present(number: str = "000123", amount: str = "2500.00", reference: str = "EXT 0412-7",
            **extra: Any) -> ChequePresentAnswer:
    # the amount parsed as the screen parses it
    return bank.casino_cheque_present(casino=CASINO, number=number,
                                      amount=parse_amount(amount, field="amount"),
                                      bank_reference=reference, paid_on=today(),
                                      metadata=extra.pop("metadata", accountant()), **extra)


def settle(amount: str, reference: str) -> BatchSettleAnswer:
    return bank.card_cheque_batch_settle(casino=CASINO,
                                         amount=parse_amount(amount, field="amount"),
                                         bank_reference=reference,
                                         credited_on=today(), metadata=accountant())


def clearing_lines(window: str) -> tuple[Line, Line]:
    report = reconcile(casino=CASINO, gaming_day=Shift.objects.get(id=window).gaming_day)
    by = {(str(line.subject), str(line.what).split(" (")[0]): line for line in report.lines}
    return (by[("casino cheques", "issued, not yet presented")],
            by[("card and cheque", "chips sold by card or cheque, to clear")])


def test_a_cheque_presented_clears_2785_against_the_bank_once(cheques: Floor) -> None:
    assert (balance("2785"), balance("1220"), balance("1210")) == (
        D("-3700.00"), D("4000.00"), D("0.00"))
    done = present()
    assert (done.number, done.amount) == ("000123", "2500.00")
    # 3,700.00 - 2,500.00 = 1,200.00 still owed on 2785; 2,500.00 out of the bank
    assert balance("2785") == D("-1200.00")
    assert balance("1210") == D("-2500.00")
    cheque_line, card_line = clearing_lines(cheques.window)
    assert (cheque_line.platform, cheque_line.ledger, cheque_line.ok) == (
        D("1200.00"), D("1200.00"), True)
    assert str(cheque_line.what) == "issued, not yet presented (1)"
    assert (card_line.platform, card_line.ledger) == (D("4000.00"), D("4000.00"))

    row = ChequePresentation.objects.get()
    assert (row.number, row.amount, row.bank_reference, row.paid_on, row.recorded_by) == (
        "000123", D("2500.00"), "EXT 0412-7", today(), "alice")
    stored = StoredEvent.objects.get(event_type="CasinoChequePresented")
    assert stored.stream == f"bank/{CASINO}"
    assert "Maria" not in json.dumps(stored.data)  # no payee in the event
    entry = JournalEntry.objects.get(event_type="CasinoChequePresented")
    assert {(line.account_code, line.debit, line.credit) for line in entry.lines.all()} == {
        ("2785", D("2500.00"), D("0.00")), ("1210", D("0.00"), D("2500.00"))}

    with pytest.raises(Conflict) as again:
        present(reference="EXT 0413-1")
    assert again.value.code == "cheque_presented"
    assert "EXT 0412-7" in again.value.message
    assert StoredEvent.objects.filter(event_type="CasinoChequePresented").count() == 1
    assert balance("1210") == D("-2500.00")


def test_a_cheque_is_presented_for_its_amount_by_its_number(cheques: Floor) -> None:
    with pytest.raises(InvalidCommand) as wrong:
        present("000124", "1100.00")
    assert wrong.value.code == "not_the_cheque_amount"
    assert wrong.value.extra["field"] == "amount"
    assert "000124 is of 1200.00, not 1100.00" in wrong.value.message
    with pytest.raises(NotFound) as unknown:
        present("000999", "1200.00")
    assert "000999" in unknown.value.message
    with pytest.raises(InvalidCommand) as no_reference:
        present("000124", "1200.00", reference="  ")
    assert no_reference.value.extra["field"] == "bank_reference"
    with pytest.raises(InvalidCommand) as tomorrow:
        bank.casino_cheque_present(casino=CASINO, number="000124", amount=Decimal("1200.00"),
                                   bank_reference="EXT 1",
                                   paid_on=today() + dt.timedelta(days=2),
                                   metadata=accountant())
    assert tomorrow.value.extra["field"] == "paid_on"
    with pytest.raises(NotAllowed):
        present("000124", "1200.00", metadata=cashier())
    with pytest.raises(NotAllowed):
        present("000124", "1200.00", metadata=act("paulo", Role.PIT_BOSS))
    assert not StoredEvent.objects.filter(event_type="CasinoChequePresented").exists()
    assert present("000124", "1200.00").number == "000124"
    assert balance("2785") == D("-2500.00")


def test_a_batch_settled_clears_1220_never_more_than_outstanding(cheques: Floor) -> None:
    with pytest.raises(Conflict) as too_much:
        settle("4000.01", "SET-1")
    assert too_much.value.code == "more_than_outstanding"
    assert "outstanding: 4000.00" in too_much.value.message
    with pytest.raises(InvalidCommand):
        settle("0.00", "SET-1")
    done = settle("2500.00", "SET-1")
    # 4,000.00 - 2,500.00 = 1,500.00 still to clear; the bank up 2,500.00
    assert done.outstanding == "1500.00"
    assert (balance("1220"), balance("1210")) == (D("1500.00"), D("2500.00"))
    with pytest.raises(Conflict) as reused:
        settle("1500.00", "SET-1")
    assert reused.value.code == "reference_used"
    with pytest.raises(Conflict) as over_rest:
        settle("1500.01", "SET-2")
    assert "outstanding: 1500.00" in over_rest.value.message
    settle("1500.00", "SET-2")
    assert (balance("1220"), balance("1210")) == (D("0.00"), D("4000.00"))
    _, card_line = clearing_lines(cheques.window)
    assert (card_line.platform, card_line.ledger, card_line.ok) == (D("0.00"), D("0.00"), True)
    assert [(s.bank_reference, s.amount) for s in CardSettlement.objects.order_by("id")] == [
        ("SET-1", D("2500.00")), ("SET-2", D("1500.00"))]
    with pytest.raises(Conflict) as nothing_left:
        settle("0.01", "SET-3")
    assert "outstanding: 0.00" in nothing_left.value.message


def test_after_both_the_projections_rebuild_equal_and_the_regulator_reads_the_entries(
        cheques: Floor) -> None:
    present()
    settle("4000.00", "SET-1")
    # the bank: 2,500.00 paid out for the cheque, 4,000.00 credited: 1,500.00
    assert balance("1210") == D("1500.00")
    cheque_line, card_line = clearing_lines(cheques.window)
    assert (cheque_line.platform, cheque_line.ledger) == (D("1200.00"), D("1200.00"))
    assert (card_line.platform, card_line.ledger) == (D("0.00"), D("0.00"))
    assert eventstore.check(["bank_clearings", "ledger", "cage"]) == []
    assert eventstore.check(["bank_clearings"], casino=CASINO) == []
    eventstore.rebuild(["bank_clearings"], casino=CASINO)  # emptied and replayed
    assert [(p.number, p.bank_reference) for p in ChequePresentation.objects.all()] == [
        ("000123", "EXT 0412-7")]
    assert [(b.bank_reference, b.amount) for b in CardSettlement.objects.all()] == [
        ("SET-1", D("4000.00"))]

    regulator = get_user_model().objects.create_user(username="igj", password="pw")
    Membership.objects.create(user=regulator, casino_id=CASINO, role=Role.REGULATOR)
    api = APIClient()
    api.force_authenticate(regulator)
    day = JournalEntry.objects.get(event_type="CardChequeBatchSettled").day
    journal = api.get(f"/api/v1/ledger/{CASINO}/journal/?from={day}&to={day}&limit=200")
    assert journal.status_code == 200
    entries = {e["event_type"]: e for e in journal.json()["results"]}
    presented = entries["CasinoChequePresented"]
    assert presented["description"] == "Casino cheque 000123 paid by the bank (EXT 0412-7)"
    assert {(ln["account_code"], ln["debit"], ln["credit"]) for ln in presented["lines"]} == {
        ("2785", "2500.00", "0.00"), ("1210", "0.00", "2500.00")}
    settled = entries["CardChequeBatchSettled"]
    assert {(ln["account_code"], ln["debit"], ln["credit"]) for ln in settled["lines"]} == {
        ("1210", "4000.00", "0.00"), ("1220", "0.00", "4000.00")}
    names = {a["code"]: a["name"] for a in api.get(f"/api/v1/ledger/{CASINO}/accounts/").json()}
    assert names["1210"] == "Bank"


@pytest.mark.django_db(transaction=True)
def test_two_accountants_presenting_the_same_cheque_at_once_one_wins(cheques: Floor) -> None:
    from tests.cage.test_concurrency import race

    bruna = act("bruna", Role.ACCOUNTANT)

    def by(metadata: Any) -> Callable[[], Any]:
        return lambda: present(reference=f"EXT {metadata.actor}", metadata=metadata)

    outcomes = race(by(accountant()), by(bruna))

    assert sorted(o.split(":")[1] for o in outcomes) == ["cheque_presented", "ok"], outcomes
    assert StoredEvent.objects.filter(event_type="CasinoChequePresented").count() == 1
    assert ChequePresentation.objects.count() == 1
    assert JournalEntry.objects.filter(event_type="CasinoChequePresented").count() == 1
    assert balance("1210") == D("-2500.00")


@pytest.mark.django_db(transaction=True)
def test_two_batches_at_once_never_clear_more_than_outstanding(cheques: Floor) -> None:
    from tests.cage.test_concurrency import race

    def batch(reference: str, metadata: Any) -> Callable[[], Any]:
        return lambda: bank.card_cheque_batch_settle(
            casino=CASINO, amount=Decimal("3000.00"), bank_reference=reference, credited_on=today(),
            metadata=metadata)

    # 3,000.00 + 3,000.00 > the 4,000.00 outstanding: the second, after the first, is refused
    outcomes = race(batch("SET-A", accountant()), batch("SET-B", act("bruna", Role.ACCOUNTANT)))

    assert sorted(o.split(":")[1] for o in outcomes) == ["more_than_outstanding", "ok"], outcomes
    assert CardSettlement.objects.count() == 1
    assert balance("1220") == D("1000.00")


# --- the page ------------------------------------------------------------------------------------


def member(name: str, role: str) -> Any:
    """A person holding ``role`` in the casino."""
    user = get_user_model().objects.create_user(username=name, password="pw")
    Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def person(name: str, role: str) -> Client:
    client = Client()
    client.force_login(member(name, role))
    return client


URL = f"/ledger/{CASINO}/bank/"


def test_the_accountant_records_both_on_the_bank_page(cheques: Floor) -> None:
    alice = person("alice", Role.ACCOUNTANT)
    page = alice.get(URL).content.decode()
    assert "000123" in page
    assert "000124" in page
    assert "Outstanding on account 1220: €4,000.00." in page  # the casino's currency (issue 36)

    form = {"action": "present", "number": "000123", "amount": "2500.00",
            "bank_reference": "EXT 0412-7", "paid_on": today().isoformat(),
            "idempotency_key": "k-present"}
    assert alice.post(URL, form).status_code == 302
    assert alice.post(URL, form).status_code == 302  # the same form again: the same answer
    assert StoredEvent.objects.filter(event_type="CasinoChequePresented").count() == 1
    wrong = alice.post(URL, {**form, "number": "000124", "amount": "1.00",
                             "idempotency_key": "k-wrong"})
    assert wrong.status_code == 200
    assert "1200.00" in wrong.content.decode()  # the refusal says the cheque's amount

    settled = alice.post(URL, {"action": "settle", "amount": "4000.00",
                               "bank_reference": "SET-1", "credited_on": today().isoformat(),
                               "idempotency_key": "k-settle"})
    assert settled.status_code == 302
    assert (balance("2785"), balance("1220"), balance("1210")) == (
        D("-1200.00"), D("0.00"), D("1500.00"))
    page = alice.get(URL).content.decode()
    assert "EXT 0412-7" in page
    assert "SET-1" in page
    assert "Outstanding on account 1220: €0.00." in page

    pt = Client(headers={"accept-language": "pt-pt"})
    pt.force_login(get_user_model().objects.get(username="alice"))
    said = main_text(pt.get(URL).content.decode())
    assert "Compensação bancária" in said
    assert "Cheques do casino emitidos, ainda não apresentados" in said
    assert english_left(said) == []
    refused = main_text(pt.post(URL, {**form, "number": "000124", "amount": "1.00",
                                      "idempotency_key": "k-pt"}).content.decode())
    assert "o cheque do casino 000124 é de 1200.00, não de 1.00" in refused


@pytest.mark.parametrize("role", [Role.CASHIER, Role.PIT_BOSS])
def test_a_cashier_or_a_pit_boss_cannot(cheques: Floor, role: str) -> None:
    someone = person("x", role)
    assert someone.get(URL).status_code == 403
    posted = someone.post(URL, {"action": "present", "number": "000123", "amount": "2500.00",
                                "bank_reference": "EXT 1", "paid_on": today().isoformat(),
                                "idempotency_key": "k"})
    assert posted.status_code == 403
    assert not StoredEvent.objects.filter(event_type="CasinoChequePresented").exists()


def test_a_regulator_sees_the_page_and_records_nothing(cheques: Floor) -> None:
    igj = person("igj", Role.REGULATOR)
    page = igj.get(URL)
    assert page.status_code == 200
    assert "000123" in page.content.decode()
    refused = igj.post(URL, {"action": "settle", "amount": "10.00", "bank_reference": "SET-9",
                             "credited_on": today().isoformat(), "idempotency_key": "k"})
    assert refused.status_code == 200
    assert "for an accountant or an administrator" in refused.content.decode()
    assert not CardSettlement.objects.exists()


# --- the API (read only) -------------------------------------------------------------------------

API = f"/api/v1/ledger/{CASINO}/bank/"


def api_as(name: str, role: str) -> APIClient:
    api = APIClient()
    api.force_authenticate(member(name, role))
    return api


def test_the_regulator_reads_the_clearing_and_it_agrees_with_the_ledger(cheques: Floor) -> None:
    igj = api_as("igj", Role.REGULATOR)
    before = igj.get(API)
    assert before.status_code == 200
    body = before.json()
    assert [(c["number"], c["kind"], c["amount"], c["window"])
            for c in body["cheques_outstanding"]] == [
        ("000123", "redemption", "2500.00", "w1"), ("000124", "redemption", "1200.00", "w1")]
    # 2,500.00 + 1,200.00 issued, none presented; 3,000.00 + 1,000.00 sold by card and cheque
    assert (body["cheques_outstanding_total"], body["cheques_outstanding_ledger"],
            body["card_outstanding"]) == ("3700.00", "3700.00", "4000.00")
    assert (body["presented"], body["credited"]) == ([], [])

    present()
    settle("2500.00", "SET-1")
    body = igj.get(API).json()
    assert [c["number"] for c in body["cheques_outstanding"]] == ["000124"]
    # 3,700.00 less the 2,500.00 the bank paid; 4,000.00 less the 2,500.00 it credited
    assert (body["cheques_outstanding_total"], body["cheques_outstanding_ledger"],
            body["card_outstanding"]) == ("1200.00", "1200.00", "1500.00")
    assert (body["cheques_outstanding_ledger"], body["card_outstanding"]) == (
        f"{-balance('2785'):.2f}", f"{balance('1220'):.2f}")
    assert [(p["number"], p["amount"], p["bank_reference"], p["paid_on"], p["recorded_by"])
            for p in body["presented"]] == [
        ("000123", "2500.00", "EXT 0412-7", today().isoformat(), "alice")]
    assert [(b["bank_reference"], b["amount"], b["credited_on"])
            for b in body["credited"]] == [("SET-1", "2500.00", today().isoformat())]
    # a cheque names no patron here (the patron is the compliance officer's to read)
    assert "patron" not in json.dumps(body)
    assert PATRON["name"] not in json.dumps(body, ensure_ascii=False)


@pytest.mark.parametrize("role", [Role.CASHIER, Role.PIT_BOSS])
def test_a_cashier_or_a_pit_boss_cannot_read_it(cheques: Floor, role: str) -> None:
    refused = api_as("x", role).get(API)
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "not_allowed"
    assert "needs one of these roles" in error["message"]
    assert APIClient().get(API).status_code in (401, 403)


@pytest.mark.django_db(transaction=True)
def test_a_cheque_issued_while_it_reads_does_not_split_cage_from_ledger(
        cheques: Floor, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between the read of the cage's cheques and that of the ledger's 2785, another connection
    issues cheque 000125 (the 300.00 still owed of the card and cheque purchase) and commits:
    the clearing read at one instant shows neither or both, never one."""
    import threading

    from django.db import connection

    read_card = bank.card_receipts_outstanding

    def meanwhile(casino: str) -> Decimal:
        def issue() -> None:
            try:
                cage.chips_redeem(shift_id=cheques.window, amount=Decimal("300.00"),
                                  chips={"100.00": 3}, payment="casino_cheque",
                                  cheque_number="000125",
                                  patron=_patron_id(), metadata=cashier())
            finally:
                connection.close()

        other = threading.Thread(target=issue)
        other.start()
        other.join()
        return read_card(casino)

    monkeypatch.setattr(bank, "card_receipts_outstanding", meanwhile)
    seen = bank.clearing(casino=CASINO)
    monkeypatch.setattr(bank, "card_receipts_outstanding", read_card)

    assert [c.number for c in seen.outstanding_cheques] == ["000123", "000124"]
    assert (seen.cheques_outstanding_total, seen.cheques_outstanding_ledger) == (
        D("3700.00"), D("3700.00"))
    # the cheque was issued: read now, both sides have it
    now = bank.clearing(casino=CASINO)
    assert [c.number for c in now.outstanding_cheques] == ["000123", "000124", "000125"]
    assert (now.cheques_outstanding_total, now.cheques_outstanding_ledger) == (
        D("4000.00"), D("4000.00"))


def _patron_id() -> str:
    from compliance.models import Patron

    return str(Patron.objects.get().patron_id)


def inspector(login: str, jurisdiction: str) -> APIClient:
    """An inspector of the regulator's API (``/api/regulator/v1``), with a token."""
    from access.models import ApiToken, RegulatorAccount

    user = get_user_model().objects.create_user(username=login, password="pw")
    RegulatorAccount.objects.create(user=user, jurisdiction=jurisdiction)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + ApiToken.objects.create(
        user=user, name="tests", issued_by="t")[1])
    return client


def test_the_inspector_reads_the_clearing_of_its_own_casinos_only(cheques: Floor) -> None:
    present()
    url = f"/api/regulator/v1/casinos/{CASINO}/bank-clearing/"
    srij = inspector("srij", "PT")  # Lisbon is in euros: Portugal's
    answer = srij.get(url)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert [c["number"] for c in body["cheques_outstanding"]] == ["000124"]
    # 3,700.00 issued less the 2,500.00 the bank paid, on both sides
    assert (body["cheques_outstanding_total"], body["cheques_outstanding_ledger"],
            body["card_outstanding"]) == ("1200.00", "1200.00", "4000.00")
    assert [p["number"] for p in body["presented"]] == ["000123"]
    # what the casino's accountant reads, figure for figure
    assert body == api_as("alice", Role.ACCOUNTANT).get(API).json()
    assert "patron" not in json.dumps(body)

    assert inspector("dicj", "MO").get(url).status_code == 404  # not Macau's to read
    refused = srij.get(url + "?day=2026-12-01")
    assert refused.status_code == 400
    assert "unknown parameter" in json.dumps(refused.json())
