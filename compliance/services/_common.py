"""What the compliance services share: roles, reading a patron reference, the jurisdiction."""

from __future__ import annotations

import uuid

from casino.errors import InvalidCommand, NotFound
from casino.models import Casino, Role

from ..models import Patron

# Who registers and verifies patrons: the cage (and the entrance, staffed by the cage), the pit
# boss (a buy-in at the table at the threshold) and the compliance officer.
REGISTER_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR, Role.PIT_BOSS, Role.COMPLIANCE_OFFICER)
# Who sees alerts, reports and personal data: the compliance officer only (no tipping off).
COMPLIANCE_ROLES = (Role.COMPLIANCE_OFFICER,)


def casino_get(code: str) -> Casino:
    casino = Casino.objects.filter(code=code).first()
    if casino is None:
        raise NotFound("there is no casino {code!r}", params={"code": code})
    return casino


# The rule the gaming tax uses too (``ledger``): a casino in euros answers to Portugal, one in
# patacas to Macau. Kept here, not imported, because the ledger's function is changing shape
# (issue 15); after the merge both should call one.
JURISDICTIONS = {"EUR": "PT", "MOP": "MO"}


def jurisdiction(casino: Casino) -> str:
    return JURISDICTIONS.get(casino.currency, "")


def patron_key(value: object, *, field: str = "patron") -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidCommand("{value!r} is not a patron reference (a patron id, as the patron "
                             "search or registration gives it)",
                             params={"value": value}, field=field) from None


def patron_get(casino: str, value: object, *, field: str = "patron") -> Patron:
    """The patron ``value`` names in ``casino``: an unknown reference is refused."""
    key = patron_key(value, field=field)
    patron = Patron.objects.filter(patron_id=key, casino=casino).first()
    if patron is None:
        raise NotFound("there is no patron {key} in {casino}",
                       params={"key": key, "casino": casino}, code="unknown_patron",
                       field=field)
    return patron
