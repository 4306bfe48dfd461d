"""Where each person may go: the areas of the web admin their roles open, per casino.

One place decides the links of the landing page and of the header, with the same role rules as
the screens they lead to (the pit's, the cage's and the ledger's own checks), so nobody is shown
a link that ends in "403 Forbidden".
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from cage import roles as cage_roles
from casino.models import Casino, Role
from casino.selectors import casino_codes_for, casino_roles
from exchange import roles as exchange_roles
from games import roles as games_roles
from jackpots import roles as jackpots_roles
from machines import roles as machines_roles
from pokerroom import roles as pokerroom_roles
from tips import roles as tips_roles

# who sees an area's link: who may read it (the area's own rule)
PIT_ROLES = games_roles.READ_ROLES
CAGE_ROLES = cage_roles.READ_ROLES
LEDGER_ROLES = (Role.ACCOUNTANT, Role.REGULATOR, Role.ADMINISTRATOR)
API_DOCS_ROLES = (Role.REGULATOR, Role.ADMINISTRATOR)
JACKPOT_ROLES = jackpots_roles.READ_ROLES
POKER_ROOM_ROLES = pokerroom_roles.READ_ROLES
MACHINE_ROLES = tuple(r for r in machines_roles.READ_ROLES if r != Role.REGULATOR)
EXCHANGE_ROLES = exchange_roles.READ_ROLES
TIPS_ROLES = tips_roles.READ_ROLES

ROLE_LABELS: dict[str, Promise] = {
    Role.CASHIER: pgettext_lazy("role", "Cashier"),
    Role.CAGE_SUPERVISOR: pgettext_lazy("role", "Cage supervisor"),
    Role.PIT_BOSS: pgettext_lazy("role", "Pit boss"),
    Role.ACCOUNTANT: pgettext_lazy("role", "Accountant"),
    Role.REGULATOR: pgettext_lazy("role", "Regulator"),
    Role.ADMINISTRATOR: pgettext_lazy("role", "Administrator"),
    Role.COMPLIANCE_OFFICER: pgettext_lazy("role", "Compliance officer"),
}


@dataclasses.dataclass(frozen=True)
class Link:
    area: str
    label: Promise | str
    url: str
    about: Promise | str = ""


@dataclasses.dataclass(frozen=True)
class CasinoLinks:
    casino: Casino
    roles: list[Promise | str]
    links: list[Link]


def _area_links(casino: str, roles: set[str], superuser: bool) -> list[Link]:
    """The areas of one casino. A superuser reads the pit and the ledger everywhere (their
    selectors say so); the cage checks memberships only, so it needs a role there."""
    links = []
    # each role's home first: the pit boss's floor, the accountant's desk
    if Role.PIT_BOSS in roles:
        links.append(Link("floor", _("The floor"), reverse("pit-floor", args=[casino]),
                          _("Every open table's result, drop and hold, as rounds arrive")))
    if Role.ACCOUNTANT in roles:
        links.append(Link("desk", _("The desk"), reverse("ledger:desk", args=[casino]),
                          _("Gaming days and their closes, results, the gaming tax, exports")))
    if superuser or roles & set(PIT_ROLES):
        links.append(Link("pit", _("Pit"), reverse("pit-casino", args=[casino]),
                          _("Tables, sessions and rounds")))
    if roles & set(CAGE_ROLES):
        links.append(Link("cage", _("Cage"), reverse("cage:overview", args=[casino]),
                          _("Shifts, counts and reconciliation")))
    if superuser or roles & set(LEDGER_ROLES):
        links.append(Link("ledger", _("Ledger"), reverse("ledger:overview", args=[casino]),
                          _("Trial balance, journal and exports")))
        links.append(Link("seals", _("Seals"), reverse("seals", args=[casino]),
                          _("Sealed gaming days and the public key that checks them")))
    if roles & set(JACKPOT_ROLES):
        links.append(Link("jackpots", _("Jackpots"), reverse("jackpots:pools", args=[casino]),
                          _("Pools, meters, hits owed and meter corrections")))
    if roles & set(POKER_ROOM_ROLES):
        links.append(Link("pokerroom", _("Poker room"), reverse("pokerroom:room", args=[casino]),
                          _("Cash tables, waiting lists, tournaments and chemin de fer")))
    if roles & set(MACHINE_ROLES):
        links.append(Link("machines", _("Slot floor"), reverse("machines:floor", args=[casino]),
                          _("Machines, meters, the count room, tickets and hand pays")))
    if roles & set(EXCHANGE_ROLES):
        links.append(Link("exchange", _("Exchange"), reverse("exchange:desk", args=[casino]),
                          _("Foreign currencies: rates, the desk's deals, holdings, "
                            "revaluation")))
    if roles & set(TIPS_ROLES):
        links.append(Link("tips", _("Tips"), reverse("tips:tips", args=[casino]),
                          _("Tip boxes, their count, misplaced tips and each period's "
                            "distribution")))
    if Role.COMPLIANCE_OFFICER in roles:
        links.append(Link("compliance", _("Compliance"),
                          reverse("compliance:alerts", args=[casino]),
                          _("Anti-money-laundering alerts, suspicious-transaction reports, "
                            "patrons")))
    if Role.ADMINISTRATOR in roles:
        links.append(Link("roles", _("Roles"), reverse("roles", args=[casino]),
                          _("Who holds which role here: grant and remove them")))
    if roles:
        links.append(Link("approvals", _("Approvals"), reverse("approvals", args=[casino]),
                          _("Changes after the fact awaiting a second person")))
    return links


class Navigation:
    """Computed on first use only: a page that never shows the navigation pays nothing."""

    def __init__(self, user: AbstractBaseUser | AnonymousUser) -> None:
        self.user = user

    @cached_property
    def _roles(self) -> dict[str, set[str]]:
        if not self.user.is_authenticated:
            return {}
        return {casino: set(roles) for casino, roles in casino_roles(self.user).items()}

    def roles_in(self, casino: str) -> set[str]:
        return set(self._roles.get(casino, set()))

    @property
    def _superuser(self) -> bool:
        return bool(getattr(self.user, "is_superuser", False))

    @cached_property
    def casinos(self) -> list[CasinoLinks]:
        """Each casino the person works in, with their roles there and the areas they open."""
        if not self.user.is_authenticated:
            return []
        codes = Casino.objects.filter(code__in=casino_codes_for(self.user))
        out = []
        for casino in codes.order_by("code"):
            roles = self._roles.get(casino.code, set())
            out.append(CasinoLinks(
                casino=casino,
                roles=[ROLE_LABELS.get(r, r) for r in sorted(roles)],
                links=_area_links(casino.code, roles, self._superuser)))
        return out

    @cached_property
    def areas(self) -> list[Link]:
        """The header's links: each area once (its page lists the casinos), then the tools."""
        seen: dict[str, Link] = {}
        for entry in self.casinos:
            for link in entry.links:
                seen.setdefault(link.area, link)
        index = {"pit": reverse("pit-tables"), "cage": reverse("cage:casinos"),
                 "ledger": reverse("ledger:casinos")}
        links = [Link(a, seen[a].label, index[a]) for a in ("pit", "cage", "ledger") if a in seen]
        links += self.tools
        return links

    @cached_property
    def tools(self) -> list[Link]:
        links = []
        if getattr(self.user, "is_staff", False):
            links.append(Link("admin", _("Admin"), reverse("admin:index"),
                              _("Casinos, tables, limits, users")))
        all_roles = set().union(*self._roles.values()) if self._roles else set()
        if self._superuser or all_roles & set(API_DOCS_ROLES):
            links.append(Link("api", _("API docs"), reverse("api-docs"),
                              _("The regulator's read-only API")))
        return links


def navigation(request: Any) -> dict[str, Any]:
    """Context processor: ``nav`` (areas, casinos, tools) and the area the page belongs to."""
    path = getattr(request, "path", "") or ""
    first = path.strip("/").split("/", 1)[0]
    return {"nav": Navigation(request.user) if hasattr(request, "user") else None,
            "nav_active": first if first in ("pit", "cage", "ledger", "admin", "api") else ""}
