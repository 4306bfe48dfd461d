"""Events are shown read-only: no add, change or delete, whoever is logged in."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import StoredEvent


@admin.register(StoredEvent)
class StoredEventAdmin(admin.ModelAdmin[StoredEvent]):
    list_display = ("position", "stream", "version", "event_type", "casino_id", "recorded_at")
    list_filter = ("event_type", "casino_id")
    search_fields = ("stream",)
    ordering = ("-position",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
