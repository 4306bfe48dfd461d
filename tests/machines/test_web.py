"""The slot floor's screens: the floor, a meter read by hand, the count room, the slot cashier
paying a ticket; a refusal shown with nothing recorded."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from machines.models import MachineBox, MeterReading, SlotTicket
from machines.services.tickets import ticket_issue

from .conftest import balance, floor, money


def _login(name: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=name))
    return client


def test_the_floor_meter_entry_count_room_and_cashier(make_machine) -> None:
    make_machine("M001")
    pit = _login("paulo")
    assert pit.get("/machines/lisboa/").status_code == 200
    posted = pit.post("/machines/lisboa/meters/", {
        "machine": "M001", "reading_id": "h1", "coin_in": "80.00", "coin_out": "50.00",
        "bills_in": "40.00", "games_played": "80"})
    assert posted.status_code == 302
    # 80 − 50 = 30.00 won by the machine, shown on the floor
    assert MeterReading.objects.get(reading_id="h1").win == Decimal("30.00")
    assert b"30.00" in pit.get("/machines/lisboa/").content
    # a meter gone back: the page says why, nothing recorded
    back = pit.post("/machines/lisboa/meters/", {
        "machine": "M001", "reading_id": "h2", "coin_in": "70.00", "coin_out": "50.00",
        "bills_in": "40.00", "games_played": "80"}, follow=True)
    assert "went back" in back.content.decode()
    assert MeterReading.objects.count() == 1
    ana, rui = _login("ana"), _login("rui")
    assert ana.post("/machines/lisboa/count-room/", {
        "machine": "M001", "drop_id": "D1", "notes": "20.00:2", "window": "SLOT1"}
    ).status_code == 302
    assert rui.post("/machines/lisboa/count-room/", {"confirm": "D1"}).status_code == 302
    assert MachineBox.objects.get(drop_id="D1").confirmed_by == "rui"
    ticket_issue(casino="lisboa", validation="T1", machine="M001", amount=money("12.00"),
                 issued_at=timezone.now().isoformat(), metadata=floor())
    assert ana.post("/machines/lisboa/cashier/", {"validation": "T1", "window": "SLOT1"}
                    ).status_code == 302
    assert SlotTicket.objects.get(validation="T1").status == "redeemed"
    # 40.00 counted in, 12.00 paid out: 28.00 in the slot cashier's drawer (a debit)
    assert balance("slot_cash", "SLOT1") == Decimal("-28.00")
    # the pit boss may not pay at the cashier
    assert pit.post("/machines/lisboa/cashier/", {"validation": "T1", "window": "SLOT1"}
                    ).status_code == 403


def test_the_count_room_explains_a_variance_with_a_second_persons_approval(make_machine) -> None:
    make_machine("M001")
    pit = _login("paulo")
    pit.post("/machines/lisboa/meters/", {
        "machine": "M001", "reading_id": "h1", "coin_in": "80.00", "coin_out": "50.00",
        "bills_in": "40.00", "games_played": "80"})
    ana, rui = _login("ana"), _login("rui")
    # 1 × 20.00 counted against 40.00 metered: −20.00
    ana.post("/machines/lisboa/count-room/", {
        "machine": "M001", "drop_id": "D1", "notes": "20.00:1", "window": "SLOT1"})
    rui.post("/machines/lisboa/count-room/", {"confirm": "D1"})
    page = ana.get("/machines/lisboa/count-room/").content.decode()
    assert 'name="explain" value="D1"' in page
    # approved by herself: refused, said on the page, nothing recorded
    refused = ana.post("/machines/lisboa/count-room/", {
        "explain": "D1", "explanation": "a note stuck", "approved_by": "ana"}, follow=True)
    assert refused.status_code == 200
    assert MachineBox.objects.get(drop_id="D1").approved_by == ""
    assert ana.post("/machines/lisboa/count-room/", {
        "explain": "D1", "explanation": "a note stuck in the stacker", "approved_by": "sofia"}
    ).status_code == 302
    box = MachineBox.objects.get(drop_id="D1")
    assert (box.variance, box.explanation, box.approved_by) == (
        Decimal("-20.00"), "a note stuck in the stacker", "sofia")
    assert "a note stuck in the stacker (sofia)" in ana.get(
        "/machines/lisboa/count-room/").content.decode()


def test_the_slot_cashiers_shift_screen_opens_counts_explains_and_closes(casino) -> None:
    from machines.models import SlotShift

    ana = _login("ana")
    page = ana.get("/machines/lisboa/cashier/shifts/")
    assert page.status_code == 200
    assert "500.00 EUR" in page.content.decode()
    # a note typed wrong: the page says so, nothing recorded
    refused = ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "open", "window": "SLOT1", "note_50.00": "x"}, follow=True)
    assert refused.status_code == 200
    assert not SlotShift.objects.exists()
    # opened on 4 × 50.00 = 200.00; counted blind 3 × 50.00 + 2 × 20.00 = 190.00: 10.00 short
    assert ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "open", "window": "SLOT1", "note_50.00": "4"}).status_code == 302
    shift = SlotShift.objects.get()
    open_page = ana.get("/machines/lisboa/cashier/shifts/").content.decode()
    assert "Expected" not in open_page.split("Open a shift")[0]  # blind until counted
    counted = ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "count", "shift_id": shift.shift_id, "note_50.00": "3", "note_20.00": "2"},
        follow=True).content.decode()
    assert ("Counted 190.00 EUR; expected 200.00 EUR; difference -10.00 EUR."
            in counted)
    closing = ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "close", "shift_id": shift.shift_id}, follow=True).content.decode()
    assert "explanation" in closing
    assert SlotShift.objects.get().status == "counted"
    assert ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "explain", "shift_id": shift.shift_id, "explanation": "a note short",
        "approved_by": "sofia"}).status_code == 302
    assert ana.post("/machines/lisboa/cashier/shifts/", {
        "action": "close", "shift_id": shift.shift_id}).status_code == 302
    assert SlotShift.objects.get().status == "closed"
    assert balance("slot_cash_over_short", "SLOT1") == Decimal("-10.00")
    # the pit boss may not open one
    assert _login("paulo").post("/machines/lisboa/cashier/shifts/", {
        "action": "open", "window": "SLOT2", "note_50.00": "1"}).status_code == 403
    # in Portuguese, the figures in euros the Portuguese way
    pt = ana.get("/machines/lisboa/cashier/shifts/", HTTP_ACCEPT_LANGUAGE="pt-pt").content.decode()
    assert "190,00\xa0€" in pt
    assert "Turnos da caixa das máquinas" in pt


def test_the_legal_parameters_screen_lists_them_as_of_a_day_and_sets_one(casino) -> None:
    import datetime as dt

    from casino.models import Casino, Membership, Role
    from machines.models import MachineParameter

    users = get_user_model()
    Membership.objects.create(user=users.objects.create_user(username="conta", password="x"),
                              casino_id="lisboa", role=Role.ACCOUNTANT)
    today = Casino.objects.get(code="lisboa").gaming_day(timezone.now())
    conta = _login("conta")
    page = conta.get("/machines/lisboa/parameters/").content.decode()
    # every default flagged, with its source; the four-eyes amount in euros
    assert page.count("flagged: unverified") == 4
    assert "€1,000.00" in page
    assert "90 days" in page
    assert "Portaria n.º 217/2007" in page
    # a cashier reads but may not set (the API's rule): 403, nothing recorded
    assert _login("ana").post("/machines/lisboa/parameters/", {
        "name": "hand_pay_four_eyes", "value": "2000.00",
        "effective_from": today.isoformat(), "reference": "SRIJ 1/2026"}).status_code == 403
    # without the inspection's reference: refused on the page, nothing recorded
    refused = conta.post("/machines/lisboa/parameters/", {
        "name": "hand_pay_four_eyes", "value": "2000.00",
        "effective_from": today.isoformat(), "reference": " "}, follow=True)
    assert "reference is required" in refused.content.decode()
    assert not MachineParameter.objects.exists()
    tomorrow = today + dt.timedelta(days=1)
    assert conta.post("/machines/lisboa/parameters/", {
        "name": "hand_pay_four_eyes", "value": "2000,00",
        "effective_from": tomorrow.isoformat(), "reference": "SRIJ 12/2026"}
    ).status_code == 302
    change = MachineParameter.objects.get()
    assert (change.value, change.set_by, change.reference) == (
        Decimal("2000.00"), "conta", "SRIJ 12/2026")
    # today still the default, flagged; tomorrow the change, verified by its reference
    assert conta.get("/machines/lisboa/parameters/").content.decode().count(
        "flagged: unverified") == 4
    later = conta.get(f"/machines/lisboa/parameters/?day={tomorrow.isoformat()}").content.decode()
    assert later.count("flagged: unverified") == 3
    assert "€2,000.00" in later
    assert "SRIJ 12/2026" in later
    pt = conta.get(f"/machines/lisboa/parameters/?day={tomorrow.isoformat()}",
                   HTTP_ACCEPT_LANGUAGE="pt-pt").content.decode()
    assert "2.000,00\xa0€" in pt
    assert "Parâmetros legais das máquinas" in pt
