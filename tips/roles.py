"""Who may do what with the tips: each role rule of the area written once, read by its
services, its API and its screens."""

from __future__ import annotations

from casino.models import Role

# who reads the boxes, the corrections and the distributions
READ_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
              Role.REGULATOR, Role.ADMINISTRATOR)
# who takes a tip box from its table or room for the count room
DROP_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR)
# who counts a tip box in the count room (two of them, one after the other)
COUNTER_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
# who reports a misplaced tip or drop, and who confirms it (another person)
CORRECTION_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR)
# who sets the rule and registers the staff
CONFIGURE_ROLES = (Role.ADMINISTRATOR,)
# who distributes a period
DISTRIBUTE_ROLES = (Role.ACCOUNTANT, Role.ADMINISTRATOR)
