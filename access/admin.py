from django.contrib import admin

from .models import RegulatorAccount


@admin.register(RegulatorAccount)
class RegulatorAccountAdmin(admin.ModelAdmin[RegulatorAccount]):
    list_display = ("user", "jurisdiction", "manages_accounts")
    list_filter = ("jurisdiction",)

# The access log is read through the regulator's API (/api/regulator/v1/access-log/), not
# here: the Django admin holds configuration only.
