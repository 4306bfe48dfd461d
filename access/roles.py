"""Granting and removing a casino role: commands with their events (issue 35, finding 10).

A casino's administrator grants and removes roles there. An administrator's or a cage
supervisor's role is four-eyed: one administrator asks (``approval_request``, kind
``role_grant``, subject ``<user id>:<role>``), another approves, and the role is granted then
(``casino.services.approvals``). A regulator's inspector holds no casino role (``casino.
selectors.casino_roles``). The Django admin grants nothing (``shell.admin``): roles change only
here. ``Membership`` is kept with the event, in the same unit of work (the demo's and the
tests' seeds write it directly, as configuration).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from casino import approvals as rules
from casino.approvals import role_words, roles_words
from casino.context import SYSTEM_ACTOR
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, gettext_noop
from casino.models import Approval, Membership, Role
from casino.services.approvals import Prepared, procedure
from eventstore import store
from eventstore.commands import command
from eventstore.records import Metadata

from .events import CasinoRoleGranted, CasinoRoleRemoved

FOUR_EYES_ROLES = frozenset({Role.ADMINISTRATOR.value, Role.CAGE_SUPERVISOR.value})
CASINO_ROLES = frozenset(r.value for r in Role if r != Role.REGULATOR)
FOUNDING_ADMINISTRATORS = 2  # the fewest with which four eyes can grant another

ROLE_GRANT = rules.kind(
    "role_grant", gettext_noop("granting an administrator's or a cage supervisor's role"),
    [("new_post", gettext_noop("The person takes up this post")),
     ("cover", gettext_noop("The person covers for someone absent")),
     ("other", gettext_noop("Another reason (say it in words)"))],
    request_roles=[Role.ADMINISTRATOR], approve_roles=[Role.ADMINISTRATOR])


@dataclass(frozen=True)
class RoleAnswer:
    casino: str
    user_id: int
    role: str
    holds: bool


def _stream(casino: str, user_id: int) -> str:
    return f"casino_roles/{casino}.{user_id}"


def _checked(metadata: Metadata, user_id: object, role: str) -> Any:
    if metadata.role != Role.ADMINISTRATOR:
        raise NotAllowed("only the casino's administrator grants and removes roles")
    return _person(user_id, role)


def _person(user_id: object, role: str) -> Any:
    if role not in CASINO_ROLES:
        raise InvalidCommand("{role!r} is not a casino role: one of {roles}",
                             params={"role": role, "roles": roles_words(sorted(CASINO_ROLES))},
                             field="role")
    try:
        key = int(str(user_id))
    except ValueError:
        raise InvalidCommand("{user!r} is not a user id", params={"user": user_id},
                             field="user") from None
    user = get_user_model().objects.filter(pk=key).first()
    if user is None:
        raise NotFound("there is no user {user}", params={"user": user_id})
    if getattr(user, "regulator_account", None) is not None:
        raise InvalidCommand("a regulator's inspector holds no casino role: they read their "
                             "jurisdiction's casinos as such", field="user")
    return user


def _grant(metadata: Metadata, user: Any, role: str, approval_id: str = "") -> RoleAnswer:
    if Membership.objects.filter(user_id=user.pk, casino_id=metadata.casino, role=role).exists():
        raise Conflict("this person is a {role} in {casino} already",
                       params={"role": role_words(role), "casino": metadata.casino},
                       code="role_held")
    stream = _stream(metadata.casino, int(user.pk))
    store.append(stream, [CasinoRoleGranted(casino=metadata.casino, user_id=int(user.pk),
                                            role=role, approval_id=approval_id)],
                 expected_version=store.stream_version(stream), metadata=metadata)
    Membership.objects.create(user_id=user.pk, casino_id=metadata.casino, role=role)
    return RoleAnswer(metadata.casino, int(user.pk), role, True)


@command("role_grant")
def role_grant(*, user_id: object, role: str, metadata: Metadata) -> RoleAnswer:
    """Grant ``role`` in the metadata's casino; an administrator's or a cage supervisor's role
    needs a second administrator (``approval_request``, kind ``role_grant``)."""
    user = _checked(metadata, user_id, role)
    if role in FOUR_EYES_ROLES:
        raise Conflict("a {role}'s role is granted by two administrators: ask for it "
                       "(approval kind role_grant) and another approves",
                       params={"role": role_words(role)}, code="four_eyes")
    return _grant(metadata, user, role)


@command("role_remove")
def role_remove(*, user_id: object, role: str, metadata: Metadata) -> RoleAnswer:
    user = _checked(metadata, user_id, role)
    held = Membership.objects.filter(user_id=user.pk, casino_id=metadata.casino, role=role)
    if not held.exists():
        raise Conflict("this person is no {role} in {casino}",
                       params={"role": role_words(role), "casino": metadata.casino},
                       code="role_not_held")
    stream = _stream(metadata.casino, int(user.pk))
    store.append(stream, [CasinoRoleRemoved(casino=metadata.casino, user_id=int(user.pk),
                                            role=role)],
                 expected_version=store.stream_version(stream), metadata=metadata)
    held.delete()
    return RoleAnswer(metadata.casino, int(user.pk), role, False)


@command("role_found")
def role_found(*, user_id: object, metadata: Metadata) -> RoleAnswer:
    """Grant a new casino's founding administrator's role, by the system (``manage.py
    role_found``, the demo's seed), while the casino has fewer than ``FOUNDING_ADMINISTRATORS``
    administrators; refused to a person and once the casino has them."""
    if not metadata.actor.startswith(f"{SYSTEM_ACTOR}:"):
        raise NotAllowed("a casino's founding administrators are granted by the system at its "
                         "setting up (manage.py role_found), never by a person")
    user = _person(user_id, Role.ADMINISTRATOR.value)
    held = Membership.objects.filter(casino_id=metadata.casino, role=Role.ADMINISTRATOR)
    if held.count() >= FOUNDING_ADMINISTRATORS:
        raise Conflict("{casino} has its {count} founding administrators: another "
                       "administrator's role takes two of them (approval kind role_grant)",
                       params={"casino": metadata.casino, "count": FOUNDING_ADMINISTRATORS},
                       code="founded")
    return _grant(metadata, user, Role.ADMINISTRATOR.value)


def _subject(subject: str) -> tuple[str, str]:
    user_id, _, role = subject.partition(":")
    return user_id, role


def _prepare(subject: str, details: Mapping[str, Any], metadata: Metadata) -> Prepared:
    user_id, role = _subject(subject)
    user = _checked(metadata, user_id, role)
    if role not in FOUR_EYES_ROLES:
        raise Conflict("a {role}'s role needs no approval: grant it",
                       params={"role": role_words(role)},
                       code="approval_not_needed")
    if Membership.objects.filter(user_id=user.pk, casino_id=metadata.casino, role=role).exists():
        raise Conflict("this person is a {role} in {casino} already",
                       params={"role": role_words(role), "casino": metadata.casino},
                       code="role_held")
    return Prepared(subject=f"{user.pk}:{role}",
                    summary=f"grant the {role} role in {metadata.casino} to user {user.pk}",
                    details={"user_id": int(user.pk), "role": role})


def _apply(approval: Approval, metadata: Metadata) -> RoleAnswer:
    user_id, role = _subject(approval.subject)
    user = _checked(metadata, user_id, role)
    return _grant(metadata, user, role, approval_id=str(approval.id))


def _said(approval: Approval) -> str:
    """A role's request in the page's language, the person by their login (the event names
    them by id only)."""
    from django.utils.translation import gettext, pgettext

    user_id, role = approval.details.get("user_id"), str(approval.details.get("role", ""))
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    return gettext("the %(role)s role for %(person)s") % {
        "role": pgettext("role", rules.ROLE_NAMES.get(role, role)),
        "person": user.get_username() if user is not None else f"#{user_id}"}


procedure(ROLE_GRANT, prepare=_prepare, apply=_apply, said=_said)


def role_holder_list(*, casino: str) -> list[tuple[Any, list[str]]]:
    """Each person holding a role in ``casino``, by login, with their roles there (sorted)."""
    held: dict[int, tuple[Any, list[str]]] = {}
    rows = Membership.objects.filter(casino_id=casino).select_related("user")
    for row in rows.order_by("user__username", "role"):
        held.setdefault(row.user_id, (row.user, []))[1].append(row.role)
    return list(held.values())
