"""Who may do what with the jackpots: each role rule of the area written once, read by its
services, its API and its screens (and the shell's navigation)."""

from __future__ import annotations

from casino.models import Role

# who reads the pools, their coups, prizes and meters
READ_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
              Role.REGULATOR, Role.ADMINISTRATOR)
# who pays a prize out of a window
PAY_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
