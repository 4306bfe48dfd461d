"""Text at the platform's edge: a field's words, stripped and bounded (as ``casino.money`` does
for amounts), refused with the field named."""

from __future__ import annotations

from casino.errors import InvalidCommand


def text(value: object, *, field: str, required: bool = True, limit: int = 2000) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidCommand("{field} must be text", params={"field": field}, field=field)
    value = value.strip()
    if required and not value:
        raise InvalidCommand("{field} cannot be empty", params={"field": field}, field=field)
    if len(value) > limit:
        raise InvalidCommand("{field} is longer than {limit} characters",
                             params={"field": field, "limit": limit}, field=field)
    return value
