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

from .models import AccessLogEntry, ApiToken, RegulatorAccount, TerminalAccount

# Token lifetimes by holder (ASVS 3.5; docs/security.md): a regulator's inspector's token
# reads every casino of a jurisdiction and lives a month at most; a terminal's (a device on the
# floor, lost or opened more easily than a person's key) a week; a person's own, a quarter.
# The figures are the project's choice: no rule of the IGJ, the SRIJ or the DICJ sets one.
LONGEST_DAYS_REGULATOR = 30
LONGEST_DAYS_TERMINAL = 7
LONGEST_DAYS = 90
DEFAULT_DAYS = 30


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    plain: str  # shown once, never stored


def regulator_account(user: AbstractBaseUser | AnonymousUser) -> RegulatorAccount | None:
    if not user.is_authenticated:
        return None
    return RegulatorAccount.objects.filter(user_id=user.pk).first()


def may_manage(issuer: AbstractBaseUser, holder: AbstractBaseUser) -> bool:
    """Whether ``issuer`` may issue tokens to ``holder`` and revoke them (issue 35, finding 1).

    A regulator's inspector's tokens: the inspector themself or their own jurisdiction's
    account manager, never a casino's administrator nor a superuser (a casino's people do not
    hand out the keys to every casino of a jurisdiction). Anyone else's: themself, or a
    superuser who is no regulator."""
    account = regulator_account(holder)
    mine = regulator_account(issuer)
    if account is None:
        return bool(issuer.pk == holder.pk) or bool(
            getattr(issuer, "is_superuser", False) and mine is None)
    if issuer.pk == holder.pk:
        return True
    return bool(mine is not None and mine.manages_accounts
                and mine.jurisdiction == account.jurisdiction)


def terminal_account(user: AbstractBaseUser | AnonymousUser) -> TerminalAccount | None:
    if not user.is_authenticated:
        return None
    return TerminalAccount.objects.filter(user_id=user.pk).first()


def longest_days(holder: AbstractBaseUser) -> int:
    """The longest a token of ``holder`` may live, in days."""
    if regulator_account(holder) is not None:
        return LONGEST_DAYS_REGULATOR
    if terminal_account(holder) is not None:
        return LONGEST_DAYS_TERMINAL
    return LONGEST_DAYS


def token_issue(*, holder: AbstractBaseUser, name: str, days: int,
                issuer: AbstractBaseUser, reauthenticated: bool) -> IssuedToken:
    """A new token for ``holder``, valid ``days`` days; the plain token is in the answer only.
    ``reauthenticated``: the issuer confirmed who they are just now (their password and, where
    their role asks for one, their second factor); a token is never issued without it."""
    if not may_manage(issuer, holder):
        raise NotAllowed(_("you may not issue a token to %(user)s")
                         % {"user": holder.get_username()})
    if not reauthenticated:
        raise NotAllowed(_("confirm your password (and your second factor) to issue a token"))
    name = name.strip()
    if not name:
        raise InvalidCommand(_("say what the token is for"), field="name")
    longest = longest_days(holder)
    if not 1 <= days <= longest:
        if terminal_account(holder) is not None:
            raise InvalidCommand(_("a terminal's token is valid from 1 to %(days)d days: "
                                   "%(user)s is a terminal") % {
                                       "days": longest, "user": holder.get_username()},
                                 field="days")
        raise InvalidCommand(_("a token is valid from 1 to %(days)d days")
                             % {"days": longest}, field="days")
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
