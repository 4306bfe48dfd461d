"""Reads of the core, mediated by who is asking."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from casino.models import Approval, Casino, GamingDaySeal, Membership


def casino_codes_for(user: AbstractBaseUser | AnonymousUser, *roles: str) -> list[str]:
    """The casinos in which ``user`` holds one of ``roles`` (any role when none is given)."""
    if not user.is_authenticated:
        return []
    if getattr(user, "is_superuser", False):
        return list(Casino.objects.values_list("code", flat=True))
    memberships = Membership.objects.filter(user_id=user.pk)
    if roles:
        memberships = memberships.filter(role__in=roles)
    return sorted(set(memberships.values_list("casino_id", flat=True)))


def user_has_role(user: AbstractBaseUser | AnonymousUser, casino: str, *roles: str) -> bool:
    return casino in casino_codes_for(user, *roles)


def casino_list_for(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Casino]:
    return Casino.objects.filter(code__in=casino_codes_for(user))


def approval_list(*, casino: str, status: str | None = None, kind: str | None = None,
                  subject: str | None = None) -> QuerySet[Approval]:
    rows = Approval.objects.filter(casino_id=casino)
    if status:
        rows = rows.filter(status=status)
    if kind:
        rows = rows.filter(kind=kind)
    if subject:
        rows = rows.filter(subject=subject)
    return rows.order_by("-requested_at")


def approval_get(*, approval_id: object) -> Approval:
    import uuid

    from casino.errors import InvalidCommand, NotFound

    try:
        key = uuid.UUID(str(approval_id))
    except ValueError:
        raise InvalidCommand(f"{approval_id!r} is not an approval id", field="approval") from None
    found = Approval.objects.filter(id=key).first()
    if found is None:
        raise NotFound(f"there is no approval {approval_id}")
    return found


def roles_in(user: AbstractBaseUser | AnonymousUser, casino: str) -> set[str]:
    """The roles ``user`` holds in ``casino``."""
    if not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user_id=user.pk, casino_id=casino)
               .values_list("role", flat=True))


def seal_list(*, casino: str) -> QuerySet[GamingDaySeal]:
    """The casino's seals, by gaming day."""
    return GamingDaySeal.objects.filter(casino_id=casino).order_by("gaming_day")



def booking_day(*, casino: str, gaming_day: dt.date) -> dt.date:
    """The gaming day a change to ``gaming_day`` is booked in: the day itself while it is not
    sealed; once sealed, nothing of it changes (its figures stay as signed), so a late
    correction goes to the first later day that is not sealed, with a reference to the day it
    corrects (``docs/ledger.md``, "After the seal")."""
    sealed = set(GamingDaySeal.objects.filter(casino_id=casino, gaming_day__gte=gaming_day)
                 .values_list("gaming_day", flat=True))
    day = gaming_day
    while day in sealed:
        day += dt.timedelta(days=1)
    return day


def carried_to(*, casino: str, gaming_day: dt.date) -> dt.date | None:
    """The later day a change to sealed ``gaming_day`` is carried to, or ``None`` while the day
    is open (the change is booked in the day itself)."""
    day = booking_day(casino=casino, gaming_day=gaming_day)
    return None if day == gaming_day else day


def carried_note(*, casino: str, gaming_day: dt.date) -> str:
    """What a person approving a late change to ``gaming_day`` is told about where it goes."""
    day = carried_to(casino=casino, gaming_day=gaming_day)
    if day is None:
        return ""
    return (f" (gaming day {gaming_day} is sealed: its figures stay as signed and the change is "
            f"booked in gaming day {day}, as a correction of {gaming_day})")
