"""A refusal names roles, decisions and approvals' kinds in words, never by their codes, in the
page's language (issue 36, items 6 and 8)."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.utils import translation

from casino.context import person_metadata, require_role, system_metadata
from casino.errors import DomainError, NotAllowed, choice_words, kind_words
from casino.services.casinos import casino_register
from edge.web.refusals import refusal_text, said


def test_a_role_refusal_names_the_roles_in_words_in_each_language() -> None:
    pit_boss = person_metadata(username="fiscal", role="pit_boss", casino="lisboa")
    with pytest.raises(NotAllowed) as refused:
        require_role(pit_boss, ("cashier", "cage_supervisor"), "sending a transfer")
    # sorted by their names: Cage supervisor before Cashier
    assert refused.value.message == ("sending a transfer needs one of these roles: "
                                     "Cage supervisor, Cashier (you act as Pit boss)")
    with translation.override("pt-pt"):
        said = refusal_text(refused.value)
    assert "Supervisor de caixa" in said
    assert "Fiscal de banca" in said
    assert "pit_boss" not in said
    assert "cage_supervisor" not in said


def test_a_list_of_choices_is_said_in_words_in_each_language() -> None:
    # the labels by hand: casino.errors.KIND_WORDS, and their pt-PT entries in the catalogue
    kinds = choice_words(("jackpot", "cancelled_credits"), "hand pay kind")
    assert kinds == "a jackpot or cancelled credits"
    assert choice_words(("sds", "file", "hand"), "meter source") == (
        "by the slot data system, from a file or by hand")
    with translation.override("pt-pt"):
        assert said(kinds) == "um prémio acumulado ou créditos cancelados"
        assert said(kind_words("ram_clear", "meter reset kind")) == (
            "uma limpeza da memória RAM")
    # a code without a label stays as it is
    assert kind_words("bogus", "hand pay kind") == "bogus"


def _refused(call: Callable[[], object]) -> DomainError:
    with pytest.raises(DomainError) as refused:
        call()
    return refused.value


@pytest.mark.django_db
def test_refusals_name_kinds_by_their_words_never_their_codes() -> None:
    from compliance.selectors import alert_list
    from games import services as games
    from machines.services.tickets import ticket_redeem
    from pokerroom.services.tables import poker_table_open

    casino_register(code="lisboa", name="Casino Lisboa", currency="EUR",
                    time_zone="Europe/Lisbon", gaming_day_closes_at=6,
                    metadata=system_metadata("lisboa", job="test"))
    admin = person_metadata(username="gestor", role="administrator", casino="lisboa")
    floor = person_metadata(username="fiscal", role="pit_boss", casino="lisboa")
    cases = [
        (lambda: games.drop_definition_set(casino="lisboa", basis="both", reason="x",
                                           metadata=admin),
         "the drop is the drop box as counted at the close or the cash recorded at the table, "
         "not 'both'",
         "a caixa de depósito tal como contada no fecho ou o numerário registado na mesa"),
        (lambda: ticket_redeem(casino="lisboa", validation="1", place="bar", metadata=floor),
         "a ticket is paid at a machine, at the cage or at a kiosk, not 'bar'",
         "uma senha é paga numa máquina, na caixa ou num quiosque, não 'bar'"),
        (lambda: poker_table_open(casino="lisboa", table="p1", game="bingo", seats=9,
                                  min_buy_in=Decimal("100.00"), max_buy_in=Decimal("500.00"),
                                  approval_reference="x", metadata=floor),
         "the poker room plays Hold'em poker, Omaha poker, Synthetic poker or Chemin de fer, "
         "not 'bingo' (Portaria 217/2007, 2.º)",
         "Póquer não bancado hold'em, Póquer não bancado omaha, Póquer sintético ou Bacará "
         "chemin de fer"),
        (lambda: alert_list("lisboa", kind="smurfing"),
         "an alert is of one of these kinds: Linked movements reached the threshold, "
         "Structuring: movements just below the threshold, Large cash transaction (to report) "
         "or Anonymous structuring at one window or table",
         "um alerta é de um destes tipos: "),
    ]
    for call, english, portuguese in cases:
        error = _refused(call)
        assert error.message == english
        with translation.override("pt-pt"):
            assert portuguese in refusal_text(error)


def test_a_patron_s_document_and_a_misplacement_are_refused_in_words() -> None:
    import datetime as dt

    from compliance.services.patrons import identity_of

    error = _refused(lambda: identity_of({"document_type": "driving_licence"},
                                         dt.date(2026, 12, 7)))
    assert error.message == ("the document is Identity card, Passport or Residence permit, "
                             "not 'driving_licence'")
    with translation.override("pt-pt"):
        assert refusal_text(error) == (
            "o documento é Cartão de cidadão / bilhete de identidade, Passaporte ou Autorização "
            "de residência, não 'driving_licence'")
    assert choice_words(("drop_to_tips", "tips_to_drop"), "misplacement") == (
        "a tip found in the drop box or a drop found in the tip box")
