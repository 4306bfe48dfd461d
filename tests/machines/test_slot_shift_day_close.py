"""The gaming day's close and the slot cashier's shift (issue 34 item 6, as a cage's shift): a
shift of the day still open, or counted with a difference not approved, holds the close up,
named by its window and shift (in Portuguese too); the reconciliation shows each shift not
closed as an outstanding line; closed, the day closes. Figures worked by hand."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.utils import timezone, translation

from casino import seal as rules
from casino.context import system_metadata
from casino.errors import Conflict
from casino.models import Casino
from edge.web.refusals import said
from eventstore.models import StoredEvent
from machines.services.shifts import (
    slot_shift_close,
    slot_shift_count,
    slot_shift_open,
    slot_shift_variance_explain,
)
from reporting.closes import close_progress, gaming_day_close
from reporting.reconciliation import reconcile
from reporting.seals import key_variable

from .conftest import person


def _close(casino: Casino, day: dt.date) -> object:
    after = casino.gaming_day_end(day) + dt.timedelta(minutes=5)
    with mock.patch("django.utils.timezone.now", return_value=after):
        return gaming_day_close(casino="lisboa", gaming_day=day,
                                metadata=system_metadata("lisboa", job="test"))


def _refusal(casino: Casino, day: dt.date) -> Conflict:
    events = StoredEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        _close(casino, day)
    assert StoredEvent.objects.count() == events  # nothing recorded
    return refused.value


def _outstanding(day: dt.date) -> list[tuple[str, str, str]]:
    return [(str(x.subject), str(x.what), str(x.note))
            for x in reconcile(casino="lisboa", gaming_day=day).failures]


def test_a_slot_cashiers_shift_not_closed_holds_the_days_close_up(
        casino: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(key_variable("lisboa"),
                       rules.private_pem(Ed25519PrivateKey.generate()).decode("ascii"))
    place = Casino.objects.get(code="lisboa")
    day = place.gaming_day(timezone.now())
    # the window's first shift: 4 × 50.00 = 200.00 brought in (no opening difference)
    shift = slot_shift_open(casino="lisboa", window="SLOT1", notes={"50.00": 4},
                            metadata=person("ana")).shift_id
    label = f"slot cashier SLOT1, shift {shift}"

    # open: the close refuses, naming the window and the shift
    refused = _refusal(place, day)
    assert refused.code == "still_open"
    assert refused.extra["open"] == [f"slot cashier SLOT1 (shift {shift}, open)"]
    assert f"slot cashier SLOT1 (shift {shift}, open)" in str(refused)
    with translation.override("pt-pt"):
        assert said(refused.extra["open"][0]) == f"caixa das máquinas SLOT1 (turno {shift}, aberto)"
    assert _outstanding(day) == [(label, "open, not counted", "the shift awaits its closing count")]
    steps = dict((name, (done, missing)) for name, done, missing in close_progress(
        casino="lisboa", gaming_day=day))
    assert steps["every table session and cage shift closed"] == (
        False, [f"slot cashier SLOT1 (shift {shift}, open)"])

    # counted blind 3 × 50.00 + 2 × 20.00 = 190.00 against 200.00 expected: 10.00 short,
    # not approved yet: still refused, saying so
    counted = slot_shift_count(casino="lisboa", shift_id=shift, notes={"50.00": 3, "20.00": 2},
                               metadata=person("ana"))
    assert (counted.expected, counted.variance) == ("200.00", "-10.00")
    refused = _refusal(place, day)
    assert refused.code == "still_open"
    assert refused.extra["open"] == [
        f"slot cashier SLOT1 (shift {shift}, counted, its difference not approved)"]
    with translation.override("pt-pt"):
        assert said(refused.extra["open"][0]) == (
            f"caixa das máquinas SLOT1 (turno {shift}, contado, com a diferença por aprovar)")
    assert _outstanding(day) == [
        (label, "counted, not closed", "its difference awaits a supervisor's approval")]

    # approved by a cage supervisor but not closed: no longer "still open", an outstanding
    # line of the reconciliation (which a supervisor's exception could accept, as a cage's)
    slot_shift_variance_explain(casino="lisboa", shift_id=shift, approved_by="sofia",
                                explanation="a 10.00 note paid twice", metadata=person("ana"))
    refused = _refusal(place, day)
    assert refused.code == "not_reconciled"
    assert refused.extra["lines"] == [f"{day}|machines|{label}|counted, not closed"]
    assert _outstanding(day) == [(label, "counted, not closed", "the count awaits its close")]

    # closed: the closing count 190.00 against the window's cash in the ledger, and the day
    # closes
    slot_shift_close(casino="lisboa", shift_id=shift, metadata=person("ana"))
    assert _outstanding(day) == []
    (line,) = [x for x in reconcile(casino="lisboa", gaming_day=day).lines
               if str(x.subject) == label]
    assert (line.platform, line.ledger) == (Decimal("190.00"), Decimal("190.00"))
    assert _close(place, day).closed is True  # type: ignore[attr-defined]


def test_a_counted_shift_without_difference_is_outstanding_not_still_open(
        casino: str, monkeypatch: pytest.MonkeyPatch) -> None:
    place = Casino.objects.get(code="lisboa")
    day = place.gaming_day(timezone.now())
    shift = slot_shift_open(casino="lisboa", window="SLOT2", notes={"20.00": 5},
                            metadata=person("rui")).shift_id
    # counted 5 × 20.00 = 100.00, as expected: nothing to approve, but not closed
    assert slot_shift_count(casino="lisboa", shift_id=shift, notes={"20.00": 5},
                            metadata=person("rui")).variance == "0.00"
    refused = _refusal(place, day)
    assert refused.code == "not_reconciled"
    assert _outstanding(day) == [(f"slot cashier SLOT2, shift {shift}", "counted, not closed",
                                  "the count awaits its close")]
