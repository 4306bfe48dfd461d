"""``{% load casino_roles %}{% roles_in casino.code as held %}``: the person's roles in a casino,
so a page links only to screens those roles open (never a link that ends on a 403)."""

from __future__ import annotations

from typing import Any

from django import template

from casino import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def roles_in(context: Any, casino: str) -> set[str]:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return set()
    cache = context.render_context.setdefault("casino_roles", {})
    if casino not in cache:
        cache[casino] = selectors.roles_in(user, casino)
    return set(cache[casino])
