from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

from .models import RegulatorAccount, TerminalAccount


@admin.register(RegulatorAccount)
class RegulatorAccountAdmin(admin.ModelAdmin[RegulatorAccount]):
    list_display = ("user", "jurisdiction", "manages_accounts")
    list_filter = ("jurisdiction",)


@admin.register(TerminalAccount)
class TerminalAccountAdmin(admin.ModelAdmin[TerminalAccount]):
    list_display = ("user", "casino", "description")
    list_filter = ("casino",)


# The access log is read through the regulator's API (/api/regulator/v1/access-log/), not
# here: the Django admin holds configuration only.


class PeopleAdmin(UserAdmin):  # type: ignore[type-arg]
    """People in the Django admin (issue 35, finding 10): nobody makes a superuser here (only
    ``manage.py createsuperuser``, on the server), nor gives staff status, groups or
    permissions unless a superuser; a superuser's account is changed by superusers only. Casino
    roles are not here at all: ``access.roles``' commands grant them."""

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fixed = ["is_superuser", "last_login", "date_joined"]
        if not getattr(request.user, "is_superuser", False):
            fixed += ["is_staff", "groups", "user_permissions"]
        return (*super().get_readonly_fields(request, obj), *fixed)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and obj.is_superuser and not getattr(request.user, "is_superuser",
                                                                False):
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj) and super().has_delete_permission(
            request, obj)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), PeopleAdmin)
