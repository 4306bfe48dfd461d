"""A ticket's life (printed, redeemed once, expired), its liability in the ledger at every
instant, and two cages paying one ticket at the same moment (real connections)."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone, translation

from casino.errors import Conflict, NotFound
from edge.web.refusals import refusal_text
from machines.answers import TicketAnswer
from machines.models import SlotTicket
from machines.services.tickets import ticket_issue, ticket_redeem, tickets_expire

from .conftest import balance, floor, money, person

NOW = "2026-12-07T10:00:00Z"


def _issue(validation: str, amount: str, machine: str = "M001") -> TicketAnswer:
    return ticket_issue(casino="lisboa", validation=validation, machine=machine,
                        amount=money(amount), issued_at=timezone.now().isoformat(),
                        metadata=floor())


def test_a_tickets_life_and_its_liability_at_every_instant(make_machine) -> None:
    make_machine("M001")
    make_machine("M002")
    _issue("T1", "45.50")
    _issue("T2", "10.00")
    # printed: 45.50 + 10.00 = 55.50 outstanding
    assert balance("ticket_liability") == Decimal("55.50")
    ticket_redeem(casino="lisboa", validation="T1", place="machine", machine="M002",
                  metadata=floor())
    # T1 put into another machine: 55.50 − 45.50 = 10.00; its credits are on M002 again
    assert balance("ticket_liability") == Decimal("10.00")
    answer = ticket_redeem(casino="lisboa", validation="T2", place="cage", window="C1",
                           metadata=person("ana"))
    assert answer.status == "redeemed"
    assert balance("ticket_liability") == Decimal("0.00")
    # the cage paid 10.00 out of its cash
    assert balance("slot_cash", "C1") == Decimal("10.00")
    # printed 55.50 off credits, 45.50 back on: 10.00 of credits left the machines as a ticket
    assert balance("machine_credits") == Decimal("-10.00")


def test_a_ticket_is_paid_once_and_an_unknown_one_refused(make_machine) -> None:
    make_machine("M001")
    _issue("T1", "20.00")
    ticket_redeem(casino="lisboa", validation="T1", place="cage", window="C1",
                  metadata=person("ana"))
    with pytest.raises(Conflict) as again:
        ticket_redeem(casino="lisboa", validation="T1", place="cage", window="C2",
                      metadata=person("rui"))
    assert again.value.code == "ticket_already_paid"
    # where it was paid in words, never the code "cage" (issue 36), in pt-PT too
    assert again.value.message == "ticket T1 was paid already, at the cage"
    with translation.override("pt-pt"):
        assert refusal_text(again.value) == "a senha T1 já foi paga na caixa"
    with pytest.raises(NotFound) as unknown:
        ticket_redeem(casino="lisboa", validation="T404", place="cage", window="C1",
                      metadata=person("ana"))
    assert unknown.value.code == "unknown_ticket"
    assert balance("slot_cash", "C1") == Decimal("20.00")
    assert balance("slot_cash", "C2") == Decimal("0.00")


def test_an_expired_ticket_leaves_the_liability_and_is_not_paid(make_machine) -> None:
    make_machine("M001")
    _issue("T1", "7.30")
    ticket = SlotTicket.objects.get(validation="T1")
    # Lisbon keeps a ticket 90 days (the parameter): it expires the day after its last day
    expired = tickets_expire(casino="lisboa", day=ticket.expires_on + dt.timedelta(days=1),
                             metadata=person("ana"))
    assert [t.validation for t in expired.tickets] == ["T1"]
    assert expired.total == "7.30"
    assert balance("ticket_liability") == Decimal("0.00")
    assert balance("tickets_expired") == Decimal("7.30")
    with pytest.raises(Conflict) as refused:
        ticket_redeem(casino="lisboa", validation="T1", place="cage", window="C1",
                      metadata=person("ana"))
    assert refused.value.code == "ticket_expired"


def _race(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_cages_paying_one_ticket_at_once_pay_it_once(make_machine) -> None:
    make_machine("M001")
    _issue("T9", "250.00")
    results = _race(
        lambda: ticket_redeem(casino="lisboa", validation="T9", place="cage", window="C1",
                              metadata=person("ana")),
        lambda: ticket_redeem(casino="lisboa", validation="T9", place="cage", window="C2",
                              metadata=person("rui")))
    paid = [r for r in results if isinstance(r, TicketAnswer)]
    refused = [r for r in results if isinstance(r, Conflict)]
    assert len(paid) == 1, results
    assert len(refused) == 1, results
    assert refused[0].code == "ticket_already_paid"
    # 250.00 out of one cage only
    assert balance("slot_cash", "C1") + balance("slot_cash", "C2") == Decimal("250.00")
    assert balance("ticket_liability") == Decimal("0.00")
