"""Reads of the core, mediated by who is asking."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from casino.models import Casino, Membership


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
