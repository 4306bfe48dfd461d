"""``{% document_types as types %}``: the documents a patron is identified by, for the patron's
part of a cage form (``compliance/_patron_box.html``) drawn by another area's page."""

from __future__ import annotations

from django import template
from django.utils.functional import Promise

from ..services.patrons import DOCUMENT_TYPES

register = template.Library()


@register.simple_tag
def document_types() -> dict[str, Promise]:
    return dict(DOCUMENT_TYPES)
