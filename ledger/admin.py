"""Django admin for the ledger: read-only. The journal changes only by events; a period closes
through ``close_period``."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Account, JournalEntry, JournalLine, Period


class ReadOnly:
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnly, admin.ModelAdmin[Account]):
    list_display = ("casino", "code", "name", "kind", "snc", "macau")
    list_filter = ("casino", "kind")
    search_fields = ("code", "name")


class JournalLineInline(ReadOnly, admin.TabularInline[JournalLine, JournalEntry]):
    model = JournalLine
    fields = ("line_no", "account_code", "debit", "credit")
    ordering = ("line_no",)


@admin.register(JournalEntry)
class JournalEntryAdmin(ReadOnly, admin.ModelAdmin[JournalEntry]):
    list_display = ("casino", "number", "day", "event_type", "description")
    list_filter = ("casino", "day", "event_type")
    search_fields = ("description", "stream")
    exclude = ("txid",)
    raw_id_fields = ("corrects",)
    inlines = (JournalLineInline,)


@admin.register(Period)
class PeriodAdmin(ReadOnly, admin.ModelAdmin[Period]):
    list_display = ("casino", "day", "closed_at", "closed_by", "entries", "debit_total",
                    "credit_total")
    list_filter = ("casino",)
