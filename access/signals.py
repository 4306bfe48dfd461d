"""A password change revokes every API token of the user (issue 18): whoever knew the old
password may have issued themselves a token with it.

Only a real change (issue 35, finding 6): ``set_password`` (a person's new password, the admin's
password form) or a password made unusable. Django's automatic hash upgrade at login (a new
hasher, more iterations: ``AbstractBaseUser.check_password``'s setter) stores a new hash of the
same password and clears the raw one before saving; it revokes nothing, or every terminal's and
regulator's token would silently die at its user's next login after an upgrade of Django.
A token is otherwise revoked by hand (``access.services.token_revoke``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable
from django.db.models.signals import pre_save
from django.dispatch import receiver


@receiver(pre_save, sender=get_user_model())
def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.pk is None:
        return
    fields = kwargs.get("update_fields")
    if fields is not None and "password" not in fields:
        return
    changed = getattr(instance, "_password", None) is not None  # set_password, not saved yet
    if not changed and not is_password_usable(instance.password):
        before = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
        changed = before is not None and before != instance.password
    if changed:
        from .services import tokens_revoke_all

        tokens_revoke_all(user_id=instance.pk)
