"""Who may do what in the poker room: each role rule written once, read by its services, its
API and its screens."""

from __future__ import annotations

from casino.models import Role

# who reads the poker room's tables, hands, tournaments and coups
READ_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
              Role.ADMINISTRATOR)
# who runs the tables and tournaments: opens, seats, records hands and coups, counts the box
FLOOR_ROLES = (Role.PIT_BOSS, Role.ADMINISTRATOR)
# who pays a tournament prize at the cage
CAGE_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
