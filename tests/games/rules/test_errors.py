"""The rules' one refusal: its kind, code and extra, and the engine's refusals carried over."""

from __future__ import annotations

import pytest

from games.engine.errors import RoundError
from games.rules.errors import CONFLICT, INVALID, RuleError, conflict, from_engine, invalid


def test_an_invalid_refusal_without_a_code_has_the_code_invalid() -> None:
    error = invalid("each bet needs its type", field="type")
    assert (error.kind, error.code, error.message, error.extra) == (
        INVALID, "invalid", "each bet needs its type", {"field": "type"})


def test_a_conflict_keeps_its_code_and_extra() -> None:
    error = conflict("seat 2 has no holder's stake to back", code="no_holder", seat=2)
    assert (error.kind, error.code, error.extra) == (CONFLICT, "no_holder", {"seat": 2})
    assert str(error) == "seat 2 has no holder's stake to back"


def test_an_engine_refusal_keeps_its_code_and_names_the_bet_after_the_field() -> None:
    error = from_engine(RoundError("invalid_bet", "no number 40 on the wheel", "b3"),
                        field="bets")
    assert (error.kind, error.code, error.message) == (INVALID, "invalid_bet",
                                                        "no number 40 on the wheel")
    assert list(error.extra.items()) == [("field", "bets"), ("bet", "b3")]


def test_an_engine_refusal_of_the_whole_round_names_no_bet() -> None:
    error = from_engine(RoundError("invalid_outcome", "no number"), field="outcome")
    assert error.extra == {"field": "outcome"}


def test_a_refusal_is_of_one_of_two_kinds() -> None:
    with pytest.raises(AssertionError):
        RuleError("forbidden", "who are you?")
