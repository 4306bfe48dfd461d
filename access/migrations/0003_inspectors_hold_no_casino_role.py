"""A regulator's inspector holds no casino role (issue 35): the roles granted before are removed
(memberships are configuration, not events); the inspector reads their jurisdiction's casinos by
``casino.selectors.casino_roles``' rule."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def remove(apps: Any, schema_editor: Any) -> None:
    Membership = apps.get_model("casino", "Membership")
    RegulatorAccount = apps.get_model("access", "RegulatorAccount")
    Membership.objects.filter(
        user_id__in=RegulatorAccount.objects.values_list("user_id", flat=True)).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0002_carry_over_drf_tokens"),
        ("casino", "0004_compliance_officer_role"),
    ]

    operations = [migrations.RunPython(remove, migrations.RunPython.noop)]
