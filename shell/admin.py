"""Django admin for configuration. It never edits events; changes to a casino become events."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from casino.context import person_metadata
from casino.errors import DomainError
from casino.models import Casino, ChipSet, Membership, Role
from casino.services.casinos import casino_change_settings, casino_register
from casino.services.chips import chip_set_register
from edge.web.refusals import refusal_text


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
    """Shown, never changed here: a role is granted and removed by the access area's commands,
    with their events, four-eyed for an administrator's or a cage supervisor's role
    (``access.roles``; issue 35)."""

    list_display = ("user", "casino", "role")
    list_filter = ("casino", "role")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ChipSetForm(forms.ModelForm):  # type: ignore[type-arg]
    denominations = forms.CharField(
        help_text="the chips' values, largest first, separated by commas: 5000, 1000, 100, 25")

    class Meta:
        model = ChipSet
        fields = ("casino", "code", "name", "denominations")

    def clean_denominations(self) -> list[str]:
        return [d.strip() for d in str(self.cleaned_data["denominations"]).split(",")
                if d.strip()]


@admin.register(ChipSet)
class ChipSetAdmin(admin.ModelAdmin[ChipSet]):
    """A chip set and its denominations, registered as an event (``chip_set_register``); once
    registered it is shown, not edited (chips in service are counted by its denominations)."""

    form = ChipSetForm
    list_display = ("casino", "code", "name", "denominations")

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ChipSet, form: Any, change: bool) -> None:
        meta = person_metadata(username=request.user.get_username(), role=Role.ADMINISTRATOR,
                               casino=obj.casino_id)
        try:
            chip_set_register(casino=obj.casino_id, code=obj.code, name=obj.name,
                              denominations=form.cleaned_data["denominations"], metadata=meta)
        except DomainError as error:
            self.message_user(request, refusal_text(error), level="error")
