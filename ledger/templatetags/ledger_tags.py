from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def lookup(mapping: dict[str, Any], key: str) -> Any:
    """``{{ names|lookup:code }}``: a dictionary's value in a template."""
    return mapping.get(key, "")
