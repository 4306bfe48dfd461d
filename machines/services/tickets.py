"""Tickets (TITO): printed at a machine, redeemed once by validation number (at a machine, the
cage or a kiosk), expiring after the days the casino's conditions set (``machines.law``).

Paid once: a redemption takes the casino's append lock first (every command does), then reads
the ticket: of two cages paying one ticket at once, the second waits, then reads it redeemed and
is refused (``tests/machines/test_tickets.py`` races two real connections)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from casino.context import require_role
from casino.errors import Conflict, InvalidCommand, NotFound, choice_words, kind_words
from casino.money import Money, fmt
from eventstore import clock, reads, store
from eventstore.commands import command
from eventstore.records import Metadata
from machines.answers import TicketAnswer, TicketsExpiredAnswer
from machines.events import TicketExpired, TicketIssued, TicketRedeemed
from machines.models import SlotTicket
from machines.parameters import parameter
from machines.roles import FLOOR_ROLES, PAY_ROLES

from ._common import casino_get, code, floor_reads, machine_get, ticket_find
from .readings import parse_moment

PLACES = ("machine", "cage", "kiosk")


def _stream(casino: str, validation: str) -> str:
    return f"ticket/{casino}.{validation}"


def _issue_reads(arguments: dict[str, Any]) -> list[reads.Read]:
    return floor_reads(arguments, parameter="ticket_days")


@command("ticket_issue", reads=_issue_reads)
def ticket_issue(*, casino: str, validation: str, machine: str, amount: Money,
                 issued_at: object, metadata: Metadata) -> TicketAnswer:
    """A machine printed a ticket (``TicketIssued``), as its slot system reports it."""
    require_role(metadata, FLOOR_ROLES, "recording a ticket printed")
    place = casino_get(metadata, casino)
    number = code(validation, field="validation")
    machine_get(casino, machine)
    moment = parse_moment(issued_at, field="issued_at")
    if ticket_find(casino, number) is not None:
        raise Conflict("ticket {validation} is already recorded", params={"validation": number},
                       code="duplicate_ticket", field="validation")
    days = int(parameter(place, "ticket_days", place.gaming_day(moment)).value)
    expires = place.gaming_day(moment) + dt.timedelta(days=days)
    store.append(_stream(casino, number), [TicketIssued(
        validation=number, machine=machine, amount=amount, issued_at=moment,
        expires_on=expires)], expected_version=0, metadata=metadata)
    return TicketAnswer(casino=casino, validation=number, amount=fmt(amount),
                        status="outstanding", expires_on=expires.isoformat())


@command("ticket_redeem", reads=floor_reads)
def ticket_redeem(*, casino: str, validation: str, place: str, machine: str = "",
                  window: str = "", metadata: Metadata) -> TicketAnswer:
    """A ticket paid (``TicketRedeemed``): once, before it expires, for its whole amount."""
    if place not in PLACES:
        raise InvalidCommand("a ticket is paid {places}, not {place!r}",
                             params={"places": choice_words(PLACES, "ticket place"), "place": place},
                             field="place")
    require_role(metadata, FLOOR_ROLES if place == "machine" else (*PAY_ROLES, "system"),
                 "redeeming a ticket")
    venue = casino_get(metadata, casino)
    ticket = ticket_find(casino, validation)
    if ticket is None:
        raise NotFound("there is no ticket {validation!r}", params={"validation": validation},
                       code="unknown_ticket", field="validation")
    if ticket.status == "redeemed":
        raise Conflict("ticket {validation} was paid already, {where}",
                       params={"validation": validation,
                               "where": kind_words(ticket.place, "ticket place")},
                       code="ticket_already_paid")
    if ticket.status == "expired" or venue.gaming_day(clock.now()) > ticket.expires_on:
        raise Conflict("ticket {validation} expired on {day}",
                       params={"validation": validation, "day": ticket.expires_on.isoformat()},
                       code="ticket_expired")
    if place == "machine":
        machine_get(casino, machine)
        window = ""
    else:
        window = code(window, field="window")
        machine = ""
    store.append(_stream(casino, validation), [TicketRedeemed(
        validation=validation, amount=ticket.amount, place=place, machine=machine,
        window=window)], expected_version=ticket.version, metadata=metadata)
    return TicketAnswer(casino=casino, validation=validation, amount=fmt(ticket.amount),
                        status="redeemed", expires_on=ticket.expires_on.isoformat())


@command("tickets_expire")
def tickets_expire(*, casino: str, day: dt.date, metadata: Metadata) -> TicketsExpiredAnswer:
    """Every ticket still outstanding whose last day is before ``day`` expires."""
    require_role(metadata, (*PAY_ROLES, "system", "accountant"), "expiring tickets")
    casino_get(metadata, casino)
    answers = []
    for ticket in SlotTicket.objects.filter(casino_id=casino, status="outstanding",
                                            expires_on__lt=day):
        store.append(_stream(casino, ticket.validation), [TicketExpired(
            validation=ticket.validation, amount=ticket.amount, expired_on=day)],
            expected_version=ticket.version, metadata=metadata)
        answers.append(TicketAnswer(casino=casino, validation=ticket.validation,
                                    amount=fmt(ticket.amount), status="expired",
                                    expires_on=ticket.expires_on.isoformat()))
    total = sum((Decimal(a.amount) for a in answers), Decimal("0.00"))
    return TicketsExpiredAnswer(casino=casino, day=day.isoformat(), total=fmt(total),
                                tickets=answers)
