
"""A command's answer is a frozen dataclass, and a retry with the same idempotency key answers
exactly as the first run: the same type, equal fields, nested parts included (issue 33, item 5)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from cage import services as cage
from cage.answers import ChipsSellAnswer, CountLine, ShiftCountAnswer
from eventstore.models import CommandRecord, StoredEvent

from .conftest import ana, whole


@pytest.mark.django_db
def test_a_retried_count_answers_as_the_first_time_lines_and_all(window: str) -> None:
    first = cage.shift_count(shift_id=window, **whole({"20.00": 1}), metadata=ana(key="c-1"))
    events = StoredEvent.objects.count()
    again = cage.shift_count(shift_id=window, **whole({"20.00": 1}), metadata=ana(key="c-1"))
    assert StoredEvent.objects.count() == events  # nothing recorded the second time
    assert type(again) is ShiftCountAnswer
    assert again == first
    assert all(type(line) is CountLine for line in again.lines)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.balanced = True  # type: ignore[misc]  # the point: an answer cannot be changed


@pytest.mark.django_db
def test_the_idempotency_record_keeps_the_answers_fields(window: str) -> None:
    sold = cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"25.00": 4},
                           cash={"100.00": 1}, metadata=ana(key="s-1"))
    assert type(sold) is ChipsSellAnswer
    kept = CommandRecord.objects.get(idempotency_key="s-1").result
    assert kept == dataclasses.asdict(sold)
    assert cage.chips_sell(shift_id=window, amount=Decimal("100.00"), chips={"25.00": 4},
                           cash={"100.00": 1}, metadata=ana(key="s-1")) == sold
