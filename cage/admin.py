"""Django admin for the cage's configuration. Changes become events; nothing is deleted.

Cages are configured here (``cage_configure``) and their minimum cash changed
(``cage_minimum_cash_change``); shifts are not here (they are events, changed through the
cage's screens and API only).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.context import person_metadata
from casino.models import Role
from casino.money import parse_amount

from .models import Cage
from .services import cage_configure, cage_minimum_cash_change


@admin.register(Cage)
class CageAdmin(admin.ModelAdmin[Cage]):
    list_display = ("casino", "code", "name", "kind", "minimum_cash")
    list_filter = ("casino", "kind")
    fields = ("casino", "code", "name", "kind", "minimum_cash")

    def get_readonly_fields(self, request: HttpRequest, obj: Cage | None = None) -> tuple[str, ...]:
        return ("casino", "code", "name", "kind") if obj else ()

    def save_model(self, request: HttpRequest, obj: Cage, form: Any, change: bool) -> None:
        meta = person_metadata(username=request.user.get_username(), role=Role.ADMINISTRATOR,
                               casino=obj.casino_id)
        minimum = parse_amount(obj.minimum_cash, field="minimum_cash", allow_zero=True)
        if change:
            cage_minimum_cash_change(code=obj.code, minimum_cash=minimum,
                                     reason="changed in the Django admin", metadata=meta)
        else:
            cage_configure(code=obj.code, name=obj.name, kind=obj.kind,
                           minimum_cash=minimum, metadata=meta)

    def has_delete_permission(self, request: HttpRequest, obj: Cage | None = None) -> bool:
        return False
