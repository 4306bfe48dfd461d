"""The API's JSON parser: a body nested deeper than any operation needs is refused as
``invalid`` (400) before anything reads it.

Python's decoder recurses once per level: 5,000 nested arrays raised ``RecursionError`` (a 500).
The deepest body an operation takes is a whole round (round, bets, a bet's fields, a list of
numbers or cards): a handful of levels. ``MAX_DEPTH`` leaves room and nothing more.

Then every value is held to ``edge.bounds``: a number that is not finite, a lone surrogate, a
NUL, a string or list too long, a seat out of range is a 400 naming its path (issue 35).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser

from edge.bounds import refusals

MAX_DEPTH = 16


def depth_of(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            stack.extend((child, level) for child in item)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            data = None
            too_deep = True
        else:
            too_deep = depth_of(data) > MAX_DEPTH
        if too_deep:
            raise ParseError(f"the JSON body nests deeper than {MAX_DEPTH} levels")
        refused = refusals(data)
        if refused:  # before any serializer, fingerprint or INSERT (edge.bounds)
            raise ValidationError({path: [why] for path, why in sorted(refused.items())})
        return data
