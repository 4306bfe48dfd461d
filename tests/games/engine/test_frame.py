"""The envelope (``docs/settlement.md`` § Errors, § Which error, and when), money,
errors and the public entry points, for every game the engine knows."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import GAMES, check_bet, settle, settle_or_raise
from games.engine.errors import RoundError, invalid_bet, invalid_option, invalid_outcome, malformed
from games.engine.money import (
    MAX_AMOUNT_LENGTH,
    bet_result,
    floor_cents,
    fmt,
    half_lost,
    lost,
    parse_amount,
    push,
    ratio_floor,
    won,
)

MINE = {
    "american_roulette": ({"number": 1}, {"id": "a", "type": "red", "amount": "1"}),
    "french_roulette": ({"number": 1}, {"id": "a", "type": "red", "amount": "1"}),
    "banca_francesa": ({"dice": [1, 2, 3]}, {"id": "a", "type": "small", "amount": "1"}),
    "craps": ({"dice": [1, 2]}, {"id": "a", "type": "field", "amount": "1"}),
    "cussec": ({"dice": [1, 2, 3]}, {"id": "a", "type": "small", "amount": "1"}),
}


# --- money -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("10", "10.00"), ("10.5", "10.50"), ("10.50", "10.50"), ("007.5", "7.50"), ("0.01", "0.01"), ("00.10", "0.10"),
     ("123456789012345678901234567890.12", "123456789012345678901234567890.12")],
)  # fmt: skip
def test_parse_amount_accepts_money(text: str, value: str) -> None:
    amount = parse_amount(text, "b")
    assert str(amount) == value
    assert amount == Decimal(value)


@pytest.mark.parametrize(
    "text",
    [
        "10.001",
        "-5",
        "1e3",
        " 10",
        "10 ",
        ".5",
        "0",
        "0.00",
        "000",
        "10.",
        "",
        "+5",
        "1,5",
        "\uff11\uff10",
        "\u0663",
        "\u00b2",
        "1_000",
        "0x1",
    ],
)
def test_parse_amount_refuses_strings_that_are_not_money(text: str) -> None:
    with pytest.raises(RoundError) as raised:
        parse_amount(text, "b")
    assert (raised.value.code, raised.value.bet) == ("invalid_bet", "b")


@pytest.mark.parametrize("value", [10, 10.5, None, True, Decimal("10"), ["10"]])
def test_parse_amount_of_a_non_string_is_malformed(value: object) -> None:
    with pytest.raises(RoundError) as raised:
        parse_amount(value, "b")
    assert raised.value.code == "malformed"


def test_amounts_longer_than_the_limit_are_refused() -> None:
    assert parse_amount("9" * MAX_AMOUNT_LENGTH, None) == Decimal("9" * MAX_AMOUNT_LENGTH)
    with pytest.raises(RoundError) as raised:
        parse_amount("9" * (MAX_AMOUNT_LENGTH + 1), "b")
    assert raised.value.code == "invalid_bet"


def test_a_thousand_digit_amount_settles_exactly() -> None:
    amount = "9" * 997 + ".99"
    line = settle({"game": "cussec", "outcome": {"dice": [6, 6, 6]},
                   "bets": [{"id": "t", "type": "triple", "number": 6, "amount": amount}]})["bets"][0]  # fmt: skip
    cents = int(amount.replace(".", "")) * 190  # exact integer arithmetic, no decimal context
    assert line["win"] == f"{cents // 100}.{cents % 100:02d}"
    back = cents + int(amount.replace(".", ""))
    assert line["returned"] == f"{back // 100}.{back % 100:02d}"


def test_fmt_and_rounding_down() -> None:
    assert fmt(Decimal("10")) == "10.00"
    assert fmt(Decimal("5.025")) == "5.02"
    assert fmt(Decimal("0.009")) == "0.00"
    assert floor_cents(Decimal("15.075")) == Decimal("15.07")  # 3:2 on 10.05
    assert floor_cents(Decimal("0.95") * Decimal("10.10")) == Decimal("9.59")
    assert ratio_floor(Decimal("10.00"), 7, 6) == Decimal("11.66")
    assert ratio_floor(Decimal("10.00"), 5, 11) == Decimal("4.54")
    assert str(ratio_floor(Decimal("10.01"), 6, 5)) == "12.01"


def test_result_helpers() -> None:
    stake = Decimal("10.05")
    assert won("a", stake, Decimal("15.075")) == {
        "id": "a",
        "status": "won",
        "stake": "10.05",
        "win": "15.07",
        "returned": "25.12",
    }
    assert lost("a", stake) == {
        "id": "a",
        "status": "lost",
        "stake": "10.05",
        "win": "0.00",
        "returned": "0.00",
    }
    assert push("a", stake) == {
        "id": "a",
        "status": "push",
        "stake": "10.05",
        "win": "0.00",
        "returned": "10.05",
    }
    assert half_lost("a", stake) == {
        "id": "a",
        "status": "half_lost",
        "stake": "10.05",
        "win": "0.00",
        "returned": "5.02",
    }
    assert bet_result("a", "pending", stake, Decimal(0), Decimal(0), point=6) == {
        "id": "a", "status": "pending", "stake": "10.05", "win": "0.00", "returned": "0.00", "point": 6}  # fmt: skip


# --- errors ------------------------------------------------------------------------------------


def test_round_error_shape() -> None:
    assert invalid_bet("no", "b7").as_dict() == {
        "error": {"code": "invalid_bet", "message": "no", "bet": "b7"}
    }
    assert invalid_option("x").as_dict() == {"error": {"code": "invalid_option", "message": "x"}}
    assert invalid_outcome("x").code == "invalid_outcome"
    assert malformed("x").code == "malformed"
    assert str(RoundError("unknown_game", "nope")) == "nope"


# --- the envelope and the check order, every game of mine -------------------------------------


@pytest.mark.parametrize("game", sorted(MINE))
def test_check_order_is_frame_game_options_outcome_bets(game: str) -> None:
    outcome, bet = MINE[game]
    bad_outcome = {"nope": 1}
    bad_bet = {**bet, "type": "nope"}

    def code(round_: Any) -> str:
        return str(settle(round_)["error"]["code"])

    assert (
        code({"game": game, "options": {"zz": 1}, "outcome": bad_outcome, "bets": [bad_bet, 5]})
        == "malformed"
    )
    assert (
        code({"game": game + "!", "options": {"zz": 1}, "outcome": bad_outcome, "bets": [bad_bet]})
        == "unknown_game"
    )
    assert (
        code({"game": game, "options": {"zz": 1}, "outcome": bad_outcome, "bets": [bad_bet]})
        == "invalid_option"
    )
    assert code({"game": game, "outcome": bad_outcome, "bets": [bad_bet]}) == "invalid_outcome"
    assert code({"game": game, "outcome": outcome, "bets": [bet, bad_bet]}) == "invalid_bet"
    ok = settle({"game": game, "outcome": outcome, "bets": [bet], "table": "x", "id": 3})
    assert set(ok) == {"game", "outcome", "bets"}
    assert ok["game"] == game


@pytest.mark.parametrize("game", sorted(MINE))
def test_missing_options_and_empty_options_are_the_same_table(game: str) -> None:
    outcome, bet = MINE[game]
    assert settle({"game": game, "outcome": outcome, "bets": [bet]}) == settle(
        {"game": game, "options": {}, "outcome": outcome, "bets": [bet]}
    )


def test_check_bet_frame() -> None:
    with pytest.raises(RoundError) as raised:
        check_bet("craps", {}, {"id": "a", "type": "field"})
    assert raised.value.code == "malformed"
    with pytest.raises(RoundError) as raised:
        check_bet("craps", None, {"id": "a", "type": "field", "amount": "1"})  # type: ignore[arg-type]
    assert raised.value.code == "malformed"
    with pytest.raises(RoundError) as raised:
        check_bet("craps", {}, "bet")  # type: ignore[arg-type]
    assert raised.value.code == "malformed"
    with pytest.raises(RoundError) as raised:
        check_bet("craps", {"bar": 3}, {"id": "a", "type": "field", "amount": "1"})
    assert raised.value.code == "invalid_option"


def test_every_registered_game_has_the_protocol() -> None:
    for code, game in GAMES.items():
        assert game.code == code
        for method in ("check_options", "check_outcome", "check_bet", "settle_bets"):
            assert callable(getattr(game, method))


def test_the_money_context_does_not_leak() -> None:
    import decimal

    before = decimal.getcontext().prec
    settle(
        {
            "game": "cussec",
            "outcome": {"dice": [1, 1, 1]},
            "bets": [{"id": "a", "type": "any_triple", "amount": "1"}],
        }
    )
    assert decimal.getcontext().prec == before


# --- settle never raises: any JSON in, a result or an error out --------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-50, 50)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(["id", "type", "amount", "numbers", "number", "dozen", "column", "dozens", "columns", "series",
                        "neighbours", "point", "on", "total", "dice", "touched", "wheel", "bar"])  # fmt: skip
VALUES = JSON | st.sampled_from(
    [
        "1",
        "10.00",
        "red",
        "big",
        "pass",
        "odds",
        "come",
        "single",
        "french",
        12,
        2,
        6,
        [1, 2],
        [1, 2, 3],
    ]
)
BET = st.dictionaries(KEYS, VALUES, max_size=5)
ROUND = st.fixed_dictionaries(
    {"game": st.sampled_from(sorted(MINE)) | JSON, "outcome": st.dictionaries(KEYS, VALUES, max_size=3) | JSON,
     "bets": st.lists(BET | JSON, max_size=4)},
    optional={"options": st.dictionaries(KEYS, VALUES, max_size=2) | JSON},
)  # fmt: skip


@settings(max_examples=400, deadline=None, derandomize=True)
@given(ROUND | JSON)
def test_settle_never_raises(round_: Any) -> None:
    result = settle(round_)
    assert isinstance(result, dict)
    if "error" in result:
        assert set(result) == {"error"}
        assert result["error"]["code"] in {
            "malformed",
            "unknown_game",
            "invalid_option",
            "invalid_outcome",
            "invalid_bet",
        }
    else:
        assert set(result) == {"game", "outcome", "bets"}
        for line in result["bets"]:
            for key in ("stake", "win", "returned"):
                assert line[key] == f"{Decimal(line[key]):.2f}"


def test_settle_or_raise_only_raises_round_errors() -> None:
    with pytest.raises(RoundError):
        settle_or_raise([])  # type: ignore[arg-type]
