"""Canonical JSON (docs/event-hash.md) is exactly ``json.dumps`` with the documented options,
whatever the values, though the store encodes through the C encoder directly."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eventstore.hashing import canonical_json, canonical_text, format_time

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(values)
def test_canonical_text_is_the_documented_json_dumps(value: Any) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_text(value) == expected
    assert canonical_json(value) == expected.encode("utf-8")


@pytest.mark.parametrize("value", [float("nan"), {"x": float("inf")}])
def test_values_json_cannot_hold_are_refused(value: Any) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        canonical_text(value)


def test_a_decimal_must_be_written_as_a_string_first() -> None:
    with pytest.raises(TypeError, match="Decimal"):
        canonical_text({"amount": Decimal("10.50")})


# hypothesis takes naive bounds and attaches the zones itself
EARLIEST, LATEST = dt.datetime(1970, 1, 2), dt.datetime(2200, 1, 1)  # noqa: DTZ001


@given(st.datetimes(min_value=EARLIEST, max_value=LATEST,
                    timezones=st.sampled_from([dt.UTC, ZoneInfo("Europe/Lisbon"),
                                               ZoneInfo("Asia/Macau")])))
def test_recorded_at_is_written_as_the_documented_utc_text(moment: dt.datetime) -> None:
    # docs/event-hash.md: YYYY-MM-DDTHH:MM:SS.ffffffZ, always six fractional digits.
    assert format_time(moment) == moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
