from __future__ import annotations

from dataclasses import dataclass

import pytest

from eventstore.events import Event, UnknownEventType, decode, upcaster


@dataclass(frozen=True, kw_only=True)
class LimitChanged(Event):
    """Version 3: the limit is split into minimum and maximum, with a reason."""

    event_type = "TestLimitChanged"
    schema_version = 3

    table: str
    minimum: str
    maximum: str
    reason: str


@upcaster("TestLimitChanged", 1)
def _v1_to_v2(data: dict[str, object]) -> dict[str, object]:
    return {"table": data["table"], "minimum": data["limit"], "maximum": data["limit"]}


@upcaster("TestLimitChanged", 2)
def _v2_to_v3(data: dict[str, object]) -> dict[str, object]:
    return {**data, "reason": "(not recorded before v3)"}


def test_an_old_event_is_read_through_the_chain_of_upcasters() -> None:
    event = decode("TestLimitChanged", 1, {"table": "T1", "limit": "50"})
    assert event == LimitChanged(table="T1", minimum="50", maximum="50",
                                 reason="(not recorded before v3)")


def test_the_current_version_is_read_as_is() -> None:
    data = {"table": "T1", "minimum": "5", "maximum": "150", "reason": "new season"}
    assert decode("TestLimitChanged", 3, data) == LimitChanged(**data)


def test_an_unknown_event_type_is_a_clear_error() -> None:
    with pytest.raises(UnknownEventType, match="TestNeverDefined"):
        decode("TestNeverDefined", 1, {})


def test_an_event_name_cannot_be_taken_twice() -> None:
    with pytest.raises(TypeError, match="already taken"):

        @dataclass(frozen=True, kw_only=True)
        class Impostor(Event):
            event_type = "TestLimitChanged"
