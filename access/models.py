"""API access: tokens, regulator accounts and the regulators' access log.

Configuration and audit, not history: none of these rows is an event (the access log names
people, and events carry no personal data). The token is django-rest-knox's (ADR 0008): only a
SHA-512 digest of it is stored, with its expiry; revoking a token deletes it, and the access log
keeps the token's first characters (``token_key``) to say which one was used.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from knox.models import AbstractAuthToken

from casino.jurisdictions import Jurisdiction


class ApiToken(AbstractAuthToken):
    """An API token (``Authorization: Token <token>``), the project's one kind (``KNOX_TOKEN_MODEL``).

    Shown once, when issued; stored as a digest; it expires; its owner, or whoever issued it,
    revokes it; a password change revokes every token of the user."""

    name: models.CharField[str, str] = models.CharField(max_length=100,
                                                         help_text="What the token is for.")
    issued_by: models.CharField[str, str] = models.CharField(max_length=150)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.token_key}… of {self.user} ({self.name})"


class RegulatorAccount(models.Model):
    """A regulator's inspector: belongs to one jurisdiction, reads that jurisdiction's casinos
    through ``/api/regulator/v1/`` only. An account manager issues tokens to colleagues."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="regulator_account")
    jurisdiction = models.CharField(max_length=2, choices=Jurisdiction.choices)
    manages_accounts = models.BooleanField(
        default=False, help_text="May issue and revoke the tokens of colleagues of the same "
                                 "jurisdiction.")

    def __str__(self) -> str:
        return f"{self.user} ({self.get_jurisdiction_display()})"

    def clean(self) -> None:
        """An inspector holds no casino role (``casino.models.Membership.clean``, issue 35)."""
        from django.core.exceptions import ValidationError

        if self.user_id is not None and self.user.memberships.exists():
            raise ValidationError({"user": "this person holds a casino role: an inspector "
                                           "holds none"})


class TerminalAccount(models.Model):
    """A terminal's service user, not a person: a cage window's, a slot floor's or a dealer's
    device that calls the API as the roles its user holds in its casino. Its tokens live
    ``access.services.LONGEST_DAYS_TERMINAL`` days at most (a device on the floor is lost or
    opened more easily than a person's key; docs/security.md), issued by a superuser."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                related_name="terminal_account")
    casino = models.ForeignKey("casino.Casino", on_delete=models.PROTECT, related_name="+")
    description = models.CharField(max_length=100,
                                   help_text="Which device: \"the main cage's window 1\".")

    def __str__(self) -> str:
        return f"{self.user} ({self.description}, {self.casino_id})"

    def clean(self) -> None:
        """A regulator's inspector is a person, never a terminal."""
        from django.core.exceptions import ValidationError

        if self.user_id is not None and RegulatorAccount.objects.filter(
                user_id=self.user_id).exists():
            raise ValidationError({"user": "a regulator's inspector is a person, not a "
                                           "terminal"})


class AccessLogEntry(models.Model):
    """One request to the regulator's API: who, what, when, how many rows."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                             related_name="+")
    username = models.CharField(max_length=150)
    jurisdiction = models.CharField(max_length=2, choices=Jurisdiction.choices)
    token_key = models.CharField(max_length=25, blank=True, default="",
                                 help_text="First characters of the token used (none: a session).")
    at = models.DateTimeField()
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    query = models.TextField(blank=True, default="")
    status = models.PositiveSmallIntegerField()
    rows = models.PositiveIntegerField(null=True, blank=True,
                                       help_text="How many rows the answer held (none: an error).")

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["jurisdiction", "id"], name="access_log_jurisdiction")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username} {self.method} {self.path}"
