"""Who acts on a screen: the roles a page needs, and the metadata of a command posted from it
(who, in which role, with which idempotency key). The one helper of every area's web views, as
``edge.api.base.request_metadata`` is the API's.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from casino.context import person_metadata
from casino.selectors import roles_in
from edge.bounds import scoped_key
from eventstore.records import Metadata


def require_roles(request: HttpRequest, casino: str, roles: Sequence[str]) -> set[str]:
    """The roles the user holds in ``casino``; refused (403) unless one of them is in ``roles``."""
    held = roles_in(request.user, casino)
    if not held & set(roles):
        raise PermissionDenied(f"you need one of these roles in {casino}: {', '.join(roles)}")
    return held


def command_metadata(request: HttpRequest, casino: str, roles: Sequence[str], *,
                     held: Collection[str] | None = None, refusal: str = "") -> Metadata:
    """The metadata of the posted form's command in ``casino``: the user, acting in the role the
    form names (``role``) if they hold it and it may act, else the first of ``roles`` they hold,
    with the form's ``idempotency_key``. ``held``: the user's roles there, when the view has
    them already. Refused (403, ``refusal`` or the roles it needs) when they hold none of them.
    """
    mine = roles_in(request.user, casino) if held is None else held
    acting = [role for role in roles if role in mine]
    if not acting:
        raise PermissionDenied(refusal or f"you need one of these roles in {casino}: "
                                          f"{', '.join(roles)}")
    asked = request.POST.get("role", "")
    return person_metadata(username=request.user.get_username(),
                           role=asked if asked in acting else acting[0], casino=casino,
                           idempotency_key=scoped_key(
                               request.user.pk, request.POST.get("idempotency_key", "").strip()[:200]))
