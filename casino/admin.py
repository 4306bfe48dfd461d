"""Django admin for configuration. It never edits events; changes to a casino become events."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.context import person_metadata
from casino.models import Casino, Membership, Role
from casino.services.casinos import casino_change_settings, casino_register


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin[Casino]):
    list_display = ("code", "name", "currency", "time_zone", "gaming_day_closes_at")
    readonly_fields = ("version",)

    def get_readonly_fields(self, request: HttpRequest, obj: Casino | None = None) -> tuple[str, ...]:
        return ("code", "currency", "version") if obj else ("version",)

    def save_model(self, request: HttpRequest, obj: Casino, form: Any, change: bool) -> None:
        meta = person_metadata(username=request.user.get_username(), role=Role.ADMINISTRATOR,
                               casino=obj.code)
        if change:
            casino_change_settings(code=obj.code, metadata=meta, name=obj.name,
                                   time_zone=obj.time_zone,
                                   gaming_day_closes_at=obj.gaming_day_closes_at)
        else:
            casino_register(code=obj.code, name=obj.name, currency=obj.currency,
                            time_zone=obj.time_zone,
                            gaming_day_closes_at=obj.gaming_day_closes_at, metadata=meta)

    def has_delete_permission(self, request: HttpRequest, obj: Casino | None = None) -> bool:
        return False


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    list_display = ("user", "casino", "role")
    list_filter = ("casino", "role")
