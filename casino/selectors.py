"""Reads of the core, mediated by who is asking."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import QuerySet

from casino.eventstore.models import StoredEvent
from casino.eventstore.verify import ChainReport, verify_chain
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


DAY_SEALED = ("gaming day {day} is closed and sealed: nothing of it changes any more; record "
              "what was missed on a session of an open day, with a reference to this one")


def refuse_if_sealed(*, casino: str, gaming_day: dt.date) -> None:
    """A sealed gaming day's figures stay as signed: a change to it is refused (``day_sealed``),
    naming the day."""
    from casino.errors import Conflict
    from casino.models import GamingDaySeal

    if GamingDaySeal.objects.filter(casino_id=casino, gaming_day=gaming_day).exists():
        raise Conflict(DAY_SEALED.format(day=gaming_day), code="day_sealed",
                       gaming_day=str(gaming_day))


# --- the hash chain, as one caller may see it --------------------------------------------------

VERIFIED_KEY = "casino.chain.verified"
# Every call verifies the events recorded since the last one (the prefix checked before is
# append-only: the database refuses UPDATE and DELETE); the whole chain is recomputed again at
# least this often, which catches a rewrite by someone who got past the triggers.
FULL_CHECK_EVERY = 600.0


def chain_report(*, now: float | None = None) -> ChainReport:
    """The whole chain's report, recomputing only what was not verified yet (cached prefix)."""
    moment = time.time() if now is None else now
    known = cache.get(VERIFIED_KEY)
    if known is None or moment - known["full_at"] >= FULL_CHECK_EVERY:
        report, full_at = verify_chain(), moment
    else:
        more = verify_chain(after=known["checked"], prev_hash=known["last_hash"])
        report = ChainReport(known["checked"] + more.checked, more.last_hash, more.bad_position,
                             more.reason)
        full_at = known["full_at"]
    if report.ok:
        cache.set(VERIFIED_KEY, {"checked": report.checked, "last_hash": report.last_hash,
                                 "full_at": full_at}, timeout=None)
    else:
        cache.delete(VERIFIED_KEY)  # the next call recomputes everything again
    return report


@dataclass(frozen=True)
class ChainVerification:
    ok: bool
    checked: int
    last_hash: str
    bad_position: int | None
    reason: str


def chain_verification_for(casinos: list[str]) -> ChainVerification:
    """The chain's report as one who reads ``casinos`` may see it: the whole chain's
    count and head to one who reads every casino; to anyone else, whether the chain holds and
    the count and last hash of their own casinos' events, never another casino's figures."""
    report = chain_report()
    if set(casinos) >= set(Casino.objects.values_list("code", flat=True)):
        return ChainVerification(report.ok, report.checked, report.last_hash,
                                 report.bad_position, report.reason)
    verified_up_to = report.checked if report.ok else (report.bad_position or 1) - 1
    own = StoredEvent.objects.filter(casino_id__in=casinos, position__lte=verified_up_to)
    last = own.order_by("-position").values_list("hash", flat=True).first()
    bad_is_own = (report.bad_position is not None and StoredEvent.objects.filter(
        position=report.bad_position, casino_id__in=casinos).exists())
    if report.ok or bad_is_own:
        return ChainVerification(report.ok, own.count(), last or "", report.bad_position,
                                 report.reason)
    return ChainVerification(False, own.count(), last or "", None,
                             "the chain is broken at an event of another casino")
