"""Reads of the core, mediated by who is asking."""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import QuerySet

from casino.jurisdictions import jurisdiction_of
from casino.models import Approval, Casino, GamingDaySeal, Membership, Role
from eventstore.verify import ChainReport, verify_casino_chain


def regulator_jurisdiction(user: AbstractBaseUser | AnonymousUser) -> str:
    """The jurisdiction of a regulator's account (``access.RegulatorAccount``, read through the
    user's relation, cached on the user), or "" for anyone else."""
    if not user.is_authenticated:
        return ""
    account = getattr(user, "regulator_account", None)
    return str(account.jurisdiction) if account is not None else ""


def jurisdiction_casinos(jurisdiction: str) -> list[str]:
    """The codes of the casinos of ``jurisdiction`` (``casino.jurisdictions``' one rule)."""
    return [code for code, currency in Casino.objects.order_by("code").values_list(
        "code", "currency") if jurisdiction_of(code, currency) == jurisdiction]


def casino_roles(user: AbstractBaseUser | AnonymousUser) -> dict[str, frozenset[str]]:
    """THE rule of which casinos an account sees, and in which roles (issue 35): the web
    admin's pages and selectors, the API's commands and reads and the regulator's API all ask
    it. A regulator's account sees exactly its jurisdiction's casinos, as a regulator, whatever
    else is recorded (a regulator never holds a casino role: ``membership_grant`` refuses it);
    anyone else, the roles their memberships give them."""
    if not user.is_authenticated:
        return {}
    jurisdiction = regulator_jurisdiction(user)
    if jurisdiction:
        return {code: frozenset({Role.REGULATOR.value})
                for code in jurisdiction_casinos(jurisdiction)}
    held: dict[str, set[str]] = {}
    for casino, role in Membership.objects.filter(user_id=user.pk).values_list("casino_id",
                                                                              "role"):
        held.setdefault(casino, set()).add(role)
    return {casino: frozenset(roles) for casino, roles in held.items()}


def casino_codes_for(user: AbstractBaseUser | AnonymousUser, *roles: str) -> list[str]:
    """The casinos in which ``user`` holds one of ``roles`` (any role when none is given); a
    superuser, not a regulator, reads every casino."""
    if not user.is_authenticated:
        return []
    if getattr(user, "is_superuser", False) and not regulator_jurisdiction(user):
        return list(Casino.objects.values_list("code", flat=True))
    return sorted(code for code, held in casino_roles(user).items()
                  if not roles or held & set(roles))


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
        raise InvalidCommand("{approval_id!r} is not an approval id",
                             params={"approval_id": approval_id}, field="approval") from None
    found = Approval.objects.filter(id=key).first()
    if found is None:
        raise NotFound("there is no approval {approval_id}", params={"approval_id": approval_id})
    return found


def roles_in(user: AbstractBaseUser | AnonymousUser, casino: str) -> set[str]:
    """The roles ``user`` holds in ``casino`` (``casino_roles``' rule; one statement for anyone
    but a regulator, whose relation is then read once)."""
    if not user.is_authenticated:
        return set()
    held = set(Membership.objects.filter(user_id=user.pk, casino_id=casino)
               .values_list("role", flat=True))
    if held and not regulator_jurisdiction(user):
        return held
    return set(casino_roles(user).get(casino, frozenset()))


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


# --- the hash chains, as one caller may see them -----------------------------------------------

VERIFIED_KEY = "casino.chain.verified"
# Every call verifies each casino's events recorded since the last call (the prefix checked before
# is append-only: the database refuses UPDATE and DELETE); the whole chain is recomputed again at
# least this often, which catches a rewrite by someone who got past the triggers.
FULL_CHECK_EVERY = 600.0


def casino_chain_report(casino: str, *, now: float | None = None) -> ChainReport:
    """``casino``'s chain (``verify_casino_chain``), recomputing only what was not verified yet
    (a cached prefix: its last sequence and hash)."""
    moment = time.time() if now is None else now
    key = f"{VERIFIED_KEY}.{casino}"
    known = cache.get(key)
    if known is None or moment - known["full_at"] >= FULL_CHECK_EVERY:
        report, full_at = verify_casino_chain(casino), moment
    else:
        more = verify_casino_chain(casino, first=known["checked"] + 1,
                                   anchor=known["last_hash"])
        report = ChainReport(known["checked"] + more.checked, more.last_hash, more.bad_position,
                             more.reason)
        full_at = known["full_at"]
    if report.ok:
        cache.set(key, {"checked": report.checked, "last_hash": report.last_hash,
                        "full_at": full_at}, timeout=None)
    else:
        cache.delete(key)  # the next call recomputes everything again
    return report


@dataclass(frozen=True)
class CasinoChain:
    casino: str
    ok: bool
    checked: int
    last_hash: str
    bad_position: int | None
    reason: str


@dataclass(frozen=True)
class ChainVerification:
    ok: bool
    checked: int
    last_hash: str  # the last verified event's hash, when one casino is read; else ""
    bad_position: int | None
    reason: str
    casinos: list[CasinoChain]


def chain_verification_for(casinos: list[str], *, now: float | None = None
                           ) -> ChainVerification:
    """Each chain of ``casinos`` (one per casino, ``docs/event-hash.md``) as its reader sees it:
    its count, last hash and first break; never another casino's figures."""
    chains = []
    for code in sorted(casinos):
        r = casino_chain_report(code, now=now)
        chains.append(CasinoChain(code, r.ok, r.checked, r.last_hash, r.bad_position, r.reason))
    broken = next((c for c in chains if not c.ok), None)
    return ChainVerification(
        ok=broken is None, checked=sum(c.checked for c in chains),
        last_hash=chains[0].last_hash if len(chains) == 1 else "",
        bad_position=broken.bad_position if broken else None,
        reason=f"casino {broken.casino}: {broken.reason}" if broken else "", casinos=chains)
