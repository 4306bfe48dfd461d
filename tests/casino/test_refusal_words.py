"""A refusal names roles, decisions and approvals' kinds in words, never by their codes, in the
page's language (issue 36, items 6 and 8)."""

from __future__ import annotations

import pytest
from django.utils import translation

from casino.context import person_metadata, require_role
from casino.errors import NotAllowed
from edge.web.refusals import refusal_text


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
