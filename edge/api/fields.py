"""The input fields the command APIs share: an amount parsed once, here, at the edge.

``AmountField`` turns what a client sent into the ``Decimal`` the services take
(``casino.money.parse_amount``): a bad amount is refused as the services refused it before,
``invalid`` (400) with ``extra.field`` naming the field, before anything runs or is recorded.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.money import Money, fmt, parse_amount


@extend_schema_field({"type": "string", "example": "1500.00"})
class AmountField(serializers.Field):  # type: ignore[type-arg]
    """An amount such as ``"10.50"``, parsed to a ``Decimal`` (a float is refused, as is a third
    decimal). ``allow_zero``: zero is an amount here. ``blank``: an empty string (or a null, if
    ``allow_null``) means none given (``None``)."""

    def __init__(self, *, allow_zero: bool = False, blank: bool = False, **kwargs: Any) -> None:
        self.allow_zero = allow_zero
        self.blank = blank
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Money | None:
        if self.blank and data == "":
            return None
        return parse_amount(data, field=self.field_name or "amount", allow_zero=self.allow_zero)

    def to_representation(self, value: Any) -> Any:
        return fmt(value) if isinstance(value, Decimal) else value
