
"""The blind count stays blind (issue 13, item 6, finding 7), and the next cashier opens on a
count they were shown: accepted by naming its shift, or disputed and resolved by a supervisor.

What the window holds is worked out by hand from the ``window`` fixture (stocked from the
vault with 20 x 100.00, 20 x 50.00, 50 x 20.00, 50 x 10.00 cash: 4,500.00; and 50 x 100.00,
100 x 25.00, 200 x 5.00, 200 x 1.00 chips: 8,700.00). ``docs/cage.md``, *Closing* and *Who sees
the expected figures*.
"""

from __future__ import annotations

from decimal import Decimal
from decimal import Decimal as D
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

import eventstore
from cage import selectors
from cage import services as cage
from cage.models import OpeningDispute, Shift, ShiftStatus
from casino.errors import Conflict, InvalidCommand, NotAllowed
from casino.models import Membership, Role
from eventstore.models import StoredEvent
from ledger import reports

from .conftest import CASINO, CHIP_SET, ana, bruno, carla, duarte, whole
from .test_api import BASE, error_of
from .test_web import count_boxes

pytestmark = pytest.mark.django_db

CASH = {"100.00": 20, "50.00": 20, "20.00": 50, "10.00": 50}  # 4,500.00
CHIPS = {"100.00": 50, "25.00": 100, "5.00": 200, "1.00": 200}  # 8,700.00


def held(cash: dict[str, int] | None = None, chips: dict[str, int] | None = None
         ) -> dict[str, Any]:
    return whole(cash if cash is not None else CASH, {CHIP_SET: chips if chips is not None
                                                      else CHIPS})


def events() -> int:
    return StoredEvent.objects.count()


def person(username: str, role: str) -> User:
    user, created = User.objects.get_or_create(username=username)
    if created:
        Membership.objects.create(user=user, casino_id=CASINO, role=role)
    return user


def client_for(username: str, role: str) -> APIClient:
    """The API as ``username`` (the same person may also use the screens)."""
    client = APIClient()
    client.force_authenticate(person(username, role))
    return client


def browser(username: str, role: str) -> Client:
    client = Client()
    client.force_login(person(username, role))
    return client


# --- every denomination typed -----------------------------------------------------------------


def test_a_count_with_a_box_left_empty_is_refused_naming_what_is_missing(window: str) -> None:
    before = events()
    count = held()
    del count["cash"]["0.50"]
    del count["chips"][CHIP_SET]["1.00"]
    with pytest.raises(InvalidCommand) as refused:
        cage.shift_count(shift_id=window, **count, metadata=ana())
    assert refused.value.message == (
        "the count has no figure for cash 0.50; main chips 1.00: type every denomination, "
        "0 where there is none")
    assert refused.value.extra["field"] == "cash"
    assert refused.value.extra["missing"] == {"cash": ["0.50"], "chips": {"main": ["1.00"]}}
    # the empty boxes of finding 7: no chips at all is not "zero chips"
    with pytest.raises(InvalidCommand) as no_chips:
        cage.shift_count(shift_id=window, cash=held()["cash"], metadata=ana())
    assert no_chips.value.extra["field"] == "chips"
    assert "main chips 100.00, 25.00, 5.00, 1.00" in no_chips.value.message
    assert events() == before
    assert Shift.objects.get(id=window).status == ShiftStatus.OPEN


def test_a_count_with_a_box_left_empty_is_a_400_and_a_form_error(window: str) -> None:
    before = events()
    count = held()
    del count["cash"]["500.00"]
    response = client_for("ana", Role.CASHIER).post(f"{BASE}/shifts/{window}/count/", count,
                                                    format="json")
    assert response.status_code == 400
    assert error_of(response)["extra"]["field"] == "cash"
    assert "cash 500.00" in error_of(response)["message"]

    web = browser("bruno", Role.CASHIER)
    boxes = count_boxes()
    del boxes["chip-main-25.00"]
    page = web.post(f"/cage/{CASINO}/shifts/{window}/count/", boxes | {"idempotency_key": "e"})
    html = page.content.decode()
    assert page.status_code == 200
    assert "the count has no figure for main chips 25.00" in html
    assert 'name="chip-main-25.00" required' in html  # the box is required, and empty
    assert 'name="cash-0.50" value="0" required' in html  # what was typed is kept
    assert events() == before


def test_the_count_form_has_a_required_empty_box_per_denomination(window: str) -> None:
    html = browser("ana", Role.CASHIER).get(f"/cage/{CASINO}/shifts/{window}/count/"
                                            ).content.decode()
    for d in ("500.00", "0.01"):
        assert f'name="cash-{d}" required' in html
    for d in ("100.00", "1.00"):
        assert f'name="chip-main-{d}" required' in html
    assert 'value="0"' not in html


# --- the expected figures only after the count ---------------------------------------------


def test_the_expected_figures_are_shown_only_after_the_count_and_only_to_who_counted(
        window: str) -> None:
    ana_api = client_for("ana", Role.CASHIER)
    bruno_api = client_for("bruno", Role.CASHIER)
    carla_api = client_for("carla", Role.CAGE_SUPERVISOR)
    shift = f"{BASE}/shifts/{window}"

    def lines(client: Any) -> list[dict[str, Any]]:
        return list(client.get(f"{shift}/").json()["lines"])

    # open: no cashier sees a figure; the supervisor sees everything
    for client in (ana_api, bruno_api):
        assert all(set(line) == {"kind", "chip_set", "denomination"} for line in lines(client))
    assert next(c for c in ana_api.get(f"{BASE}/cages/").json() if c["code"] == "w1"
                )["cash_value"] is None
    assert ana_api.get(f"{BASE}/gaming-days/2000-01-01/reconciliation/").status_code == 403
    assert ana_api.get(f"{BASE}/chips-in-circulation/").status_code == 403
    assert {line["denomination"]: line["expected"] for line in lines(carla_api)
            if line["kind"] == "cash"}["20.00"] == 50

    # Ana counts one 20.00 note short: the answer shows expected, counted and variance
    counted = ana_api.post(f"{shift}/count/", held(dict(CASH, **{"20.00": 49})), format="json")
    assert counted.status_code == 201
    body = counted.json()
    assert body["variance_value"] == "-20.00"
    twenty = next(line for line in body["lines"]
                  if line["kind"] == "cash" and line["denomination"] == "20.00")
    assert (twenty["expected"], twenty["counted"], twenty["variance"]) == (50, 49, -1)
    assert len(body["lines"]) == 8  # every denomination the window holds or was counted

    # counted, not approved: Ana sees her count's answer, Bruno nothing, Carla everything
    mine = {line["denomination"]: line for line in lines(ana_api) if line["kind"] == "cash"}
    assert (mine["20.00"]["expected"], mine["20.00"]["variance"]) == (50, -1)
    assert "opening" not in mine["20.00"]
    assert all(set(line) == {"kind", "chip_set", "denomination"} for line in lines(bruno_api))
    blind = bruno_api.get(f"{shift}/")
    assert blind.json()["variance_value"] is None
    assert blind.json()["sight"] == "none"
    assert bruno_api.get(f"{shift}/reconciliation/").status_code == 403
    assert ana_api.get(f"{shift}/reconciliation/").status_code == 200
    assert "opening" in lines(carla_api)[0]

    # the web screens say the same
    bruno_page = browser("bruno", Role.CASHIER).get(
        f"/cage/{CASINO}/shifts/{window}/variance/").content.decode()
    assert "The count is blind" in bruno_page
    assert "Expected" not in bruno_page
    ana_page = browser("ana", Role.CASHIER).get(
        f"/cage/{CASINO}/shifts/{window}/variance/").content.decode()
    assert "Expected" in ana_page

    # approved: the figures are the shift's history, for every cashier
    cage.variance_explain(shift_id=window, explanation="a note paid twice", metadata=ana())
    cage.variance_approve(shift_id=window, metadata=carla())
    assert "expected" in lines(bruno_api)[0]


def test_a_recount_is_blind_again(window: str) -> None:
    cage.shift_count(shift_id=window, **held(dict(CASH, **{"20.00": 49})), metadata=ana())
    form = browser("bruno", Role.CASHIER).get(f"/cage/{CASINO}/shifts/{window}/count/")
    html = form.content.decode()
    assert form.status_code == 200
    assert "A recount" in html
    assert "value=" not in "".join(line for line in html.splitlines() if "type=\"number\"" in line)
    assert ">49<" not in html
    assert "Expected" not in html
    # Bruno recounts, blind, and finds the note: his count's answer is his to see
    answer = cage.shift_count(shift_id=window, **held(), metadata=bruno())
    assert answer.balanced is True
    assert answer.count_number == 2
    shift = Shift.objects.get(id=window)
    assert selectors.expected_sight(shift, viewer="ana", supervisor=False) == "none"
    assert selectors.expected_sight(shift, viewer="bruno", supervisor=False) == "own_count"


# --- opening on the previous count ----------------------------------------------------------


def closed_window(window: str) -> str:
    cage.shift_count(shift_id=window, **held(), metadata=ana())
    cage.shift_close(shift_id=window, metadata=ana())
    return window


def test_the_next_cashier_is_shown_the_previous_count_and_accepts_it_by_naming_it(
        window: str) -> None:
    previous = closed_window(window)
    shown = client_for("bruno", Role.CASHIER).get(f"{BASE}/cages/w1/previous-count/").json()
    assert shown["previous_shift_id"] == previous
    assert shown["closed_by"] == "ana"
    assert shown["cash"] == CASH
    assert shown["chips"] == {CHIP_SET: CHIPS}
    assert shown["value"] == "13200.00"  # 4,500.00 + 8,700.00
    page = browser("bruno", Role.CASHIER).get(f"/cage/{CASINO}/").content.decode()
    assert f'name="accept_previous" value="{previous}"' in page
    assert f"Closing count of shift {previous}" in page
    assert "€13,200.00" in page

    before = events()
    with pytest.raises(InvalidCommand) as unseen:
        cage.shift_open(cage="w1", metadata=bruno())
    assert unseen.value.message == (
        f"cashier window w1 opens on the closing count of shift {previous}: look at that count "
        "and accept it by naming the shift, or dispute it with your own count")
    assert unseen.value.extra["field"] == "accept_previous"
    api = client_for("bruno", Role.CASHIER).post(f"{BASE}/shifts/", {"cage": "w1"},
                                                 format="json")
    assert api.status_code == 400
    assert error_of(api)["extra"]["field"] == "accept_previous"
    assert events() == before

    opened = cage.shift_open(cage="w1", accept_previous=previous, metadata=bruno())
    assert opened.basis == "previous_count"
    assert opened.opening_value == "13200.00"


def window_balances() -> tuple[D, D]:
    return (reports.account_balance(casino=CASINO, code="1110.w1"),
            reports.account_balance(casino=CASINO, code="0110.w1"))


def cage_holdings() -> tuple[D, D]:
    view = next(v for v in selectors.cage_list(casino=CASINO) if v.cage.code == "w1")
    return view.cash_value, view.chips_value


def test_a_dispute_waits_for_a_supervisor_who_chooses_the_disputed_count(window: str) -> None:
    previous = closed_window(window)
    assert cage_holdings() == window_balances() == (D("4500.00"), D("8700.00"))

    # Bruno finds a 50.00 note and a 25.00 chip less than Ana counted
    before = events()
    mine = held(dict(CASH, **{"50.00": 19}), dict(CHIPS, **{"25.00": 99}))
    incomplete = dict(mine, cash={k: v for k, v in mine["cash"].items() if k != "0.01"})
    with pytest.raises(InvalidCommand) as partial:
        cage.shift_opening_dispute(cage="w1", previous_shift=previous, reason="short",
                                   metadata=bruno(), **incomplete)
    assert "cash 0.01" in partial.value.message
    with pytest.raises(InvalidCommand) as same:
        cage.shift_opening_dispute(cage="w1", previous_shift=previous, reason="short",
                                   metadata=bruno(), **held())
    assert same.value.code == "dispute_matches"
    with pytest.raises(InvalidCommand) as unnamed:
        cage.shift_opening_dispute(cage="w1", previous_shift="", reason="short",
                                   metadata=bruno(), **mine)
    assert unnamed.value.extra["field"] == "previous_shift"
    assert events() == before

    disputed = cage.shift_opening_dispute(
        cage="w1", previous_shift=previous, reason="a 50.00 note and a 25.00 chip short",
        metadata=bruno(), **mine)
    assert disputed.difference_value == "-75.00"
    shift_id = disputed.shift_id
    shift = Shift.objects.get(id=shift_id)
    assert shift.status == ShiftStatus.DISPUTED
    # nothing taken over: the cage holds, and the ledger says, Ana's count
    assert cage_holdings() == window_balances() == (D("4500.00"), D("8700.00"))
    with pytest.raises(Conflict) as waiting:
        cage.chips_sell(shift_id=shift_id, amount=Decimal("25.00"), chips={"25.00": 1},
                        cash={"20.00": 1, "5.00": 1}, metadata=bruno())
    assert waiting.value.code == "shift_not_open"
    with pytest.raises(Conflict):
        cage.shift_open(cage="w1", accept_previous=previous, metadata=ana())
    for waits in (lambda: cage.shift_count(shift_id=shift_id, **mine, metadata=bruno()),
                  lambda: cage.shift_close(shift_id=shift_id, metadata=bruno())):
        with pytest.raises(Conflict) as not_yet:
            waits()
        assert not_yet.value.code == "opening_disputed"
    assert events() == before + 1
    with pytest.raises(NotAllowed):  # a cashier does not resolve
        cage.shift_opening_dispute_resolve(shift_id=shift_id, accept="disputed_count",
                                           note="ok", metadata=bruno())
    with pytest.raises(InvalidCommand) as no_note:
        cage.shift_opening_dispute_resolve(shift_id=shift_id, accept="disputed_count",
                                           note=" ", metadata=carla())
    assert no_note.value.extra["field"] == "note"

    resolved = cage.shift_opening_dispute_resolve(
        shift_id=shift_id, accept="disputed_count", note="recounted with both: Bruno is right",
        metadata=carla())
    assert resolved.basis == "dispute_count"
    assert resolved.opening_value == "13125.00"  # 13,200.00 − 50.00 − 25.00
    shift = Shift.objects.get(id=shift_id)
    assert (shift.status, shift.opened_by) == (ShiftStatus.OPEN, "bruno")
    dispute = OpeningDispute.objects.get(shift=shift)
    assert (dispute.disputed_by, dispute.resolved_by, dispute.outcome) == (
        "bruno", "carla", "disputed_count")
    stream = StoredEvent.objects.filter(stream=f"shift/{shift_id}").order_by("version")
    assert [(e.event_type, e.metadata["actor"]) for e in stream] == [
        ("ShiftOpeningDisputed", "bruno"), ("ShiftOpeningDisputeResolved", "carla"),
        ("ShiftOpened", "carla")]

    # the cage and the ledger agree: 50.00 less cash, 25.00 less chips, 75.00 to over/short
    assert cage_holdings() == window_balances() == (D("4450.00"), D("8675.00"))
    assert reports.account_balance(casino=CASINO, code="7881.w1") == D("75.00")
    assert eventstore.check() == []  # the cage and the ledger rebuilt from the events


def test_a_supervisor_may_keep_the_previous_count_and_never_resolves_their_own_dispute(
        vault: str) -> None:
    cage.shift_count(shift_id=vault, **whole(
        {"500.00": 40, "100.00": 300, "50.00": 200, "20.00": 500, "10.00": 500},
        {CHIP_SET: {"100.00": 500, "25.00": 800, "5.00": 2000, "1.00": 2000}}),
        metadata=carla())
    cage.shift_close(shift_id=vault, metadata=carla())
    counted = whole({"500.00": 39, "100.00": 300, "50.00": 200, "20.00": 500, "10.00": 500},
                    {CHIP_SET: {"100.00": 500, "25.00": 800, "5.00": 2000, "1.00": 2000}})
    with pytest.raises(NotAllowed):  # the vault is a supervisor's
        cage.shift_opening_dispute(cage="vault", previous_shift=vault, reason="short",
                                   metadata=ana(), **counted)
    shift_id = cage.shift_opening_dispute(cage="vault", previous_shift=vault,
                                          reason="a 500.00 note short", metadata=duarte(),
                                          **counted).shift_id
    with pytest.raises(NotAllowed) as own:
        cage.shift_opening_dispute_resolve(shift_id=shift_id, accept="previous_count",
                                           note="mine", metadata=duarte())
    assert own.value.code == "four_eyes"
    before = StoredEvent.objects.filter(event_type="ShiftOpened").count()
    resolved = cage.shift_opening_dispute_resolve(
        shift_id=shift_id, accept="previous_count", note="the note was in the other safe",
        metadata=carla())
    assert resolved.basis == "dispute_previous"
    assert StoredEvent.objects.filter(event_type="ShiftOpened").count() == before + 1
    assert reports.account_balance(casino=CASINO, code="7881.vault") == D("0.00")
    with pytest.raises(Conflict) as again:
        cage.shift_opening_dispute_resolve(shift_id=shift_id, accept="disputed_count",
                                           note="changed my mind", metadata=carla())
    assert again.value.code == "no_dispute"


def test_a_dispute_and_its_resolution_through_the_api_and_the_screens(window: str) -> None:
    previous = closed_window(window)
    bruno_web = browser("bruno", Role.CASHIER)
    form = bruno_web.get(f"/cage/{CASINO}/cages/w1/dispute/").content.decode()
    assert f'name="previous_shift" value="{previous}"' in form
    boxes = count_boxes({f"cash-{d}": str(n) for d, n in CASH.items()}
                        | {f"chip-main-{d}": str(n) for d, n in CHIPS.items()}
                        | {"cash-100.00": "19"})
    done = bruno_web.post(f"/cage/{CASINO}/cages/w1/dispute/",
                          boxes | {"previous_shift": previous, "reason": "a 100.00 short",
                                   "idempotency_key": "d1"}, follow=True)
    assert "dispute recorded" in done.content.decode()
    shift_id = str(OpeningDispute.objects.get().shift_id)
    assert "Opening disputed" in done.content.decode()

    carla_web = browser("carla", Role.CAGE_SUPERVISOR)
    screen = carla_web.get(f"/cage/{CASINO}/shifts/{shift_id}/").content.decode()
    assert "Resolve the dispute" in screen
    assert "a 100.00 short" in screen
    api = client_for("duarte", Role.CAGE_SUPERVISOR)
    detail = api.get(f"{BASE}/shifts/{shift_id}/").json()
    assert detail["status"] == "disputed"
    assert detail["opening_dispute"]["cash"]["100.00"] == 19
    resolved = api.post(f"{BASE}/shifts/{shift_id}/opening-dispute/resolution/",
                        {"accept": "previous_count", "note": "found in the drawer"},
                        format="json")
    assert resolved.status_code == 201, resolved.json()
    assert Shift.objects.get(id=shift_id).status == ShiftStatus.OPEN
    assert api.post(f"{BASE}/cages/w2/opening-disputes/",
                    dict(held(), previous_shift=previous, reason="x"),
                    format="json").status_code == 400  # w2 was never counted
