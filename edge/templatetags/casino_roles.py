"""``{% load casino_roles %}{% roles_in casino.code as held %}``: the person's roles in a casino,
so a page links only to screens those roles open (never a link that ends on a 403)."""

from __future__ import annotations

from typing import Any

from django import template

from casino.models import Membership

register = template.Library()


@register.simple_tag(takes_context=True)
def roles_in(context: Any, casino: str) -> set[str]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return set()
    cache = context.render_context.setdefault("casino_roles", {})
    if casino not in cache:
        cache[casino] = set(Membership.objects.filter(user_id=user.pk, casino_id=casino)
                            .values_list("role", flat=True))
    return set(cache[casino])
