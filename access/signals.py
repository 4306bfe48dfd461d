"""A password change revokes every API token of the user (issue 18): whoever knew the old
password may have issued themselves a token with it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver


@receiver(pre_save, sender=get_user_model())
def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is None:
        return
    fields = kwargs.get("update_fields")
    if fields is not None and "password" not in fields:
        return
    before = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if before is not None and before != instance.password:
        from .services import tokens_revoke_all

        tokens_revoke_all(user_id=instance.pk)
