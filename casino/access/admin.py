from django.contrib import admin

from .models import AccessLogEntry, RegulatorAccount


@admin.register(RegulatorAccount)
class RegulatorAccountAdmin(admin.ModelAdmin[RegulatorAccount]):
    list_display = ("user", "jurisdiction", "manages_accounts")
    list_filter = ("jurisdiction",)


@admin.register(AccessLogEntry)
class AccessLogEntryAdmin(admin.ModelAdmin[AccessLogEntry]):
    list_display = ("at", "username", "jurisdiction", "method", "path", "status", "rows")
    list_filter = ("jurisdiction",)

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False
