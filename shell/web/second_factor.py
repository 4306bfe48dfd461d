"""The second factor (TOTP, django-otp): placeholder replaced in part 6."""

from __future__ import annotations

from django.http import HttpRequest


def second_factor_confirms(request: HttpRequest, code: str) -> bool:
    return True
