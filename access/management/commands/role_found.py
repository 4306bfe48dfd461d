"""``manage.py role_found <casino> <username>``: a new casino's founding administrator
(``access.roles.role_found``; docs/security.md, "Roles are events")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from access.roles import role_found
from casino.context import system_metadata
from casino.errors import DomainError
from casino.models import Casino


class Command(BaseCommand):
    help = ("Grant a new casino's founding administrator's role (the first two administrators; "
            "every later one takes two administrators' approval, on /roles/<casino>/).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("casino", help="the casino's code")
        parser.add_argument("username", help="the founding administrator's login")

    def handle(self, *args: Any, **options: Any) -> None:
        casino, username = options["casino"], options["username"]
        if not Casino.objects.filter(code=casino).exists():
            raise CommandError(f"there is no casino {casino!r}")
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"there is no user {username!r}")
        try:
            role_found(user_id=user.pk, metadata=system_metadata(casino, job="role_found"))
        except DomainError as refusal:
            raise CommandError(str(refusal)) from refusal
        self.stdout.write(f"{username} is a founding administrator of {casino}.")
