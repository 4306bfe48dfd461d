"""Amounts as people type and read them: a decimal comma in pt-PT, grouping in en."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from casino.errors import InvalidCommand
from casino.money import parse_amount, typed_amount
from edge.web import labels
from edge.web.money import MoneyField, money_input, money_text


@pytest.mark.parametrize(("typed", "comma", "read"), [
    ("2,50", ",", "2.50"), ("1.234,50", ",", "1234.50"), ("1 234,50", ",", "1234.50"),
    ("2.50", ",", "2.50"), ("1.234", ",", "1234"), ("12", ",", "12"),
    ("1,234.50", ".", "1234.50"), ("2.50", ".", "2.50"), ("1,234", ".", "1234"),
])
def test_a_typed_amount_reads_in_the_language_s_notation(typed: str, comma: str,
                                                        read: str) -> None:
    assert typed_amount(typed, decimal_separator=comma) == read


def test_a_comma_that_is_not_grouping_is_refused_in_english_never_read_as_hundreds() -> None:
    # "2,50" on an English screen is not 250 euros: left as typed, parse_amount refuses it
    assert typed_amount("2,50", decimal_separator=".") == "2,50"
    with pytest.raises(InvalidCommand):
        parse_amount(typed_amount("2,50", decimal_separator="."))


def test_money_input_and_text_follow_the_active_language() -> None:
    with translation.override("pt-pt"):
        assert money_input("2,50") == "2.50"
        assert money_text(Decimal("1234.5"), "EUR") == "1.234,50\u00a0€"
        assert MoneyField(label="valor").clean("2,50") == Decimal("2.50")
    with translation.override("en"):
        assert money_text(Decimal("1234.5"), "EUR") == "€1,234.50"
        assert money_text(Decimal("-3"), "EUR") == "-€3.00"


def test_labels_say_words_never_codes() -> None:
    with translation.override("en"):
        assert labels.label("game", "banca_francesa") == "Banca francesa"
        assert labels.label("event", "FillIssued") == "Fill issued"
        assert labels.label("status", "unheard_of") == "unheard_of"  # a new code still shows
        assert labels.account_name({"name": "Cash", "name_pt": "Caixa"}) == "Cash"
    with translation.override("pt-pt"):
        assert labels.account_name({"name": "Cash", "name_pt": "Caixa"}) == "Caixa"
