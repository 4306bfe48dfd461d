"""Issuing and revoking API tokens, and recording the regulator's requests.

Tokens are configuration, not history: no event is appended (a token names a person). Who may
issue or revoke whose token is decided here, once, for the web admin and the tests alike.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino.errors import InvalidCommand, NotAllowed, NotFound
from casino.jurisdictions import jurisdiction_of
from casino.models import Casino, Membership, Role

from .models import AccessLogEntry, ApiToken, RegulatorAccount

LONGEST = dt.timedelta(days=365)
DEFAULT_DAYS = 90


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    plain: str  # shown once, never stored


def regulator_account(user: AbstractBaseUser | AnonymousUser) -> RegulatorAccount | None:
    if not user.is_authenticated:
        return None
    return RegulatorAccount.objects.filter(user_id=user.pk).first()


def _administers_in(issuer: AbstractBaseUser, jurisdiction: str) -> bool:
    """Whether ``issuer`` is an administrator of a casino of ``jurisdiction``."""

    codes = Membership.objects.filter(user_id=issuer.pk, role=Role.ADMINISTRATOR).values_list(
        "casino_id", flat=True)
    return any(jurisdiction_of(c.code, c.currency) == jurisdiction
               for c in Casino.objects.filter(code__in=list(codes)))


def may_manage(issuer: AbstractBaseUser, holder: AbstractBaseUser) -> bool:
    """Whether ``issuer`` may issue tokens to ``holder`` and revoke them: the holder themself
    (not a regulator: a regulator's token comes from someone else), a superuser, for a regulator
    the administrator of a casino of its jurisdiction or the jurisdiction's account manager."""
    if getattr(issuer, "is_superuser", False):
        return True
    account = regulator_account(holder)
    if account is None:
        return bool(issuer.pk == holder.pk)
    if _administers_in(issuer, account.jurisdiction):
        return True
    mine = regulator_account(issuer)
    return bool(mine is not None and mine.manages_accounts
                and mine.jurisdiction == account.jurisdiction)


def token_issue(*, holder: AbstractBaseUser, name: str, days: int,
                issuer: AbstractBaseUser) -> IssuedToken:
    """A new token for ``holder``, valid ``days`` days; the plain token is in the answer only."""
    if not may_manage(issuer, holder):
        raise NotAllowed(_("you may not issue a token to %(user)s")
                         % {"user": holder.get_username()})
    name = name.strip()
    if not name:
        raise InvalidCommand(_("say what the token is for"), field="name")
    if not 1 <= days <= LONGEST.days:
        raise InvalidCommand(_("a token is valid from 1 to %(days)d days")
                             % {"days": LONGEST.days}, field="days")
    token, plain = ApiToken.objects.create(user=holder, expiry=dt.timedelta(days=days),
                                           name=name[:100], issued_by=issuer.get_username())
    return IssuedToken(token, plain)


def token_revoke(*, token_key: str, by: AbstractBaseUser) -> None:
    """Revoke (delete) the tokens that start with ``token_key``, if ``by`` may."""
    tokens = list(ApiToken.objects.filter(token_key=token_key).select_related("user"))
    if not tokens:
        raise NotFound(_("there is no token %(key)s") % {"key": token_key})
    for token in tokens:
        if not may_manage(by, token.user):
            raise NotAllowed(_("you may not revoke this token"))
    with transaction.atomic():
        ApiToken.objects.filter(token_key=token_key).delete()


def tokens_revoke_all(*, user_id: object) -> int:
    """Revoke every token of a user (a password change does)."""
    deleted, _ = ApiToken.objects.filter(user_id=user_id).delete()
    return int(deleted)


def tokens_managed_by(user: AbstractBaseUser) -> list[ApiToken]:
    """The tokens ``user`` may see and revoke: their own and those of the people they issue to."""
    tokens = ApiToken.objects.select_related("user").order_by("-created")
    return [t for t in tokens if t.user_id == user.pk or may_manage(user, t.user)]


def access_record(*, user: AbstractBaseUser, jurisdiction: str, token_key: str, method: str,
                  path: str, query: str, status: int, rows: int | None) -> None:
    """One line of the regulator's access log."""
    AccessLogEntry.objects.create(
        user_id=user.pk, username=user.get_username(), jurisdiction=jurisdiction,
        token_key=token_key, at=timezone.now(), method=method, path=path[:500],
        query=query, status=status, rows=rows)
