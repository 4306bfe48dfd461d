"""What the compliance screens show a person: patrons by name and a short number, alerts in
words with the law they apply, never a UUID (issue 36).

A patron's name is in the patron vault only (encrypted, ``compliance.vault``); it is decrypted
here for a compliance officer's screen, never written to an event or a projection. The search
by name decrypts the casino's vault rows one by one and compares (a casino holds thousands of
patrons, not millions: milliseconds each); a shredded patron has no name any more.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from . import rules, thresholds, vault
from .models import Patron, PatronVault
from .services.keys import data_key_of

KIND_TEXT = {  # in English (a refusal's words: ``compliance.selectors.alert_list``)
    rules.LINKED: gettext_noop("Linked movements reached the threshold"),
    rules.STRUCTURING: gettext_noop("Structuring: movements just below the threshold"),
    rules.ANONYMOUS_STRUCTURING: gettext_noop("Anonymous structuring at one window or table"),
    rules.LARGE: gettext_noop("Large cash transaction (to report)"),
}
KIND_WORDS = {kind: _(text) for kind, text in KIND_TEXT.items()}
MOVEMENT_WORDS = {
    thresholds.PURCHASE: _("purchase of chips"),
    thresholds.REDEMPTION: _("redemption of chips"),
    thresholds.PAYOUT: _("payment of winnings"),
    thresholds.BUY_IN: _("buy-in at the table"),
}


def number(value: object, prefix: str) -> str:
    """A short number a person reads and says (``P-3F2A91C0``): the first eight hexadecimal
    digits of the id, upper case, after a letter saying what it is (P patron, R report)."""
    return f"{prefix}-{uuid.UUID(str(value)).hex[:8].upper()}"


def _name(row: PatronVault) -> str | None:
    try:
        identity = vault.open_sealed(data_key_of(row), row.nonce, row.ciphertext,
                                     context=str(row.patron_id))
    except vault.VaultError:
        return None
    return str(identity.get("name") or "") or None


def names(ids: Iterable[object]) -> dict[str, str]:
    """Each patron's name by id (str), for those whose data is still held."""
    wanted = {str(i) for i in ids if i}
    return {str(row.patron_id): name for row in PatronVault.objects.filter(patron_id__in=wanted)
            if (name := _name(row))}


def _folded(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold()


def search(casino: str, text: str, *, limit: int = 50) -> list[Patron]:
    """The casino's patrons whose name holds ``text`` (case and accents aside), at most
    ``limit``, newest first."""
    wanted = _folded(text.strip())
    if not wanted:
        return []
    found = [row.patron_id for row in PatronVault.objects.filter(casino=casino)
             if (name := _name(row)) and wanted in _folded(name)]
    return list(Patron.objects.filter(patron_id__in=found)[:limit])


def shown(rows: Iterable[Any], *, patron_field: str = "patron_id") -> list[Any]:
    """``rows`` (alerts, reports, patrons) with what a person reads set on each:
    ``patron_name``, ``patron_number``, and for an alert ``kind_words``, ``movement_words``,
    ``law`` (the rule's citation) and ``law_currency`` (the currency of its thresholds: an
    alert of a table in another currency shows its figure in both, issue 39)."""
    listed = list(rows)
    found = names(getattr(r, patron_field) for r in listed)
    for row in listed:
        patron = getattr(row, patron_field)
        row.patron_name = found.get(str(patron), "") if patron else ""
        row.patron_number = number(patron, "P") if patron else ""
        if hasattr(row, "report_id") and row.report_id:
            row.report_number = number(row.report_id, "R")
        if hasattr(row, "kind") and hasattr(row, "rule"):
            row.kind_words = KIND_WORDS.get(row.kind, row.kind)
            row.movement_words = MOVEMENT_WORDS.get(row.movement, row.movement)
            try:
                rule = thresholds.rule_by_code(row.rule)
                row.law, row.law_currency = rule.citation, rule.currency
            except (KeyError, LookupError, thresholds.NoRule):
                row.law, row.law_currency = row.rule, ""
    return listed
