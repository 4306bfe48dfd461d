
"""Enhanced diligence for a politically exposed patron (Lei n.º 83/2017, art. 39.º, n.º 1, b)
and c); docs/patrons.md § Politically exposed patrons): at the threshold their movement waits
for the source of funds recorded and the approval of the compliance officer or senior
management (approval kind ``pep_movement``). Figures worked out by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services as cage
from cage.models import Shift
from casino.errors import Conflict, NotAllowed
from casino.models import Role
from casino.services.approvals import approval_grant, approval_request
from eventstore.records import Metadata

from .conftest import act, ana
from .test_aml import redeem_2500, register


def olga() -> Metadata:
    return act("olga", Role.COMPLIANCE_OFFICER)


def _ask(window: str, patron: str, amount: str, who: Metadata | None = None) -> str:
    day = Shift.objects.get(id=window).gaming_day.isoformat()
    asked = approval_request(kind="pep_movement", subject=patron, reason="savings",
                             explanation="bank statement of the last three months seen",
                             details={"amount": amount, "gaming_day": day},
                             metadata=who or ana())
    return str(asked.approval_id)


def test_a_politically_exposed_patrons_redemption_waits_for_the_approval(window: str) -> None:
    patron = register(pep=True)
    version = Shift.objects.get(id=window).version
    with pytest.raises(Conflict) as refused:
        redeem_2500(window, patron)
    assert refused.value.code == "pep_approval_required"
    assert "politically exposed" in refused.value.message
    assert "art. 39.º" in refused.value.message
    assert Shift.objects.get(id=window).version == version  # nothing recorded

    approval = _ask(window, patron, "3000.00")
    with pytest.raises(NotAllowed):  # a cashier does not approve
        approval_grant(approval_id=approval, metadata=ana())
    with pytest.raises(Conflict):  # asked, not yet approved: still refused
        redeem_2500(window, patron)
    approval_grant(approval_id=approval, note="source of funds seen", metadata=olga())
    assert redeem_2500(window, patron).patron_id == patron

    # 2,500.00 + 600.00 = 3,100.00: more than the 3,000.00 approved for the day
    with pytest.raises(Conflict) as beyond:
        cage.chips_redeem(shift_id=window, amount=Decimal("600.00"), chips={"100.00": 6},
                          cash={"50.00": 10, "20.00": 5}, patron=patron, metadata=ana())
    assert beyond.value.code == "pep_approval_required"
    assert "come to 3100.00" in beyond.value.message
    assert "approved so far up to 3000.00" in beyond.value.message


def test_below_the_threshold_a_politically_exposed_patron_needs_no_approval(window: str
                                                                            ) -> None:
    patron = register(pep=True)
    done = cage.chips_sell(shift_id=window, amount=Decimal("800.00"), chips={"100.00": 8},
                           cash={"100.00": 8}, patron=patron, metadata=ana())
    assert done.patron_id == patron


def test_the_approval_is_for_a_politically_exposed_patron_and_four_eyes(window: str) -> None:
    ordinary = register()
    with pytest.raises(Conflict) as not_needed:
        _ask(window, ordinary, "3000.00")
    assert not_needed.value.code == "approval_not_needed"
    patron = register(pep=True, document_number="99887766 5 ZZ2")
    approval = _ask(window, patron, "2500.00", who=olga())
    with pytest.raises(NotAllowed) as own:
        approval_grant(approval_id=approval, metadata=olga())
    assert own.value.code == "four_eyes"
    approval_grant(approval_id=approval, metadata=act("gestor", Role.ADMINISTRATOR))
    assert redeem_2500(window, patron).patron_id == patron


@pytest.mark.parametrize("explanation", [
    "Maria's bank statement seen",            # a word of her name
    "statement for card 12345678-9-zz1",      # her document's number, written another way
    "born 1971-04-02, statement seen",        # her date of birth
])
def test_the_explanation_may_not_repeat_the_patrons_personal_data(window: str,
                                                                  explanation: str) -> None:
    """The request's explanation goes into an event, which is never erased: a patron's name,
    document number, date of birth or address there would outlive the crypto-shredding."""
    from casino.errors import InvalidCommand
    from casino.models import Approval

    patron = register(pep=True)
    day = Shift.objects.get(id=window).gaming_day.isoformat()
    with pytest.raises(InvalidCommand) as refused:
        approval_request(kind="pep_movement", subject=patron, reason="savings",
                         explanation=explanation,
                         details={"amount": "3000.00", "gaming_day": day}, metadata=ana())
    assert refused.value.extra["field"] == "explanation"
    assert not Approval.objects.exists()  # nothing asked, nothing recorded
    # the kind of evidence, in words, is what the explanation is for
    assert _ask(window, patron, "3000.00")
