"""Who may do what at the pit: each role rule of the area written once, read by its services,
its API and its screens (and the shell's navigation)."""

from __future__ import annotations

from casino.models import Role

# who records at the tables
COMMAND_ROLES = (Role.PIT_BOSS,)
# who counts the drop boxes in the count room
COUNTER_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
# who reads the pit: tables, sessions, rounds, slips, gaming days
READ_ROLES = (Role.PIT_BOSS, Role.ACCOUNTANT, Role.REGULATOR, Role.ADMINISTRATOR)
# who records the capital em giro inicial the gaming inspection approved for a table (its
# reference: the inspection's act, letter or order; issue 34)
CAPITAL_ROLES = (Role.ADMINISTRATOR, Role.ACCOUNTANT)
