"""Who may call which API: a regulator reads ``/api/regulator/v1/`` and nothing else."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from access.models import ApiToken
from access.services import regulator_account


def is_regulator(request: Request) -> bool:
    """Whether the caller is a regulator's inspector (``access.RegulatorAccount``), read once
    per request."""
    cached = getattr(request, "_regulator_account", False)
    if cached is not False:
        return cached is not None

    user = request.user
    if isinstance(request.auth, ApiToken):
        # read with the token (access.authentication): no query; none raises AttributeError
        account = getattr(user, "regulator_account", None)
    else:
        account = regulator_account(user) if user else None
    request._regulator_account = account  # type: ignore[attr-defined]
    return account is not None


class NotRegulator(BasePermission):
    """Every endpoint but the regulator's refuses a regulator (403): its tokens read only."""

    message = "a regulator's account reads the regulator's API only (/api/regulator/v1/)"

    def has_permission(self, request: Request, view: Any) -> bool:
        return not (request.user and request.user.is_authenticated and is_regulator(request))


class IsRegulator(BasePermission):
    message = "the regulator's API is for the regulator's inspectors"

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated and is_regulator(request))
