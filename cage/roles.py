"""Who may do what at the cage: each role rule of the area written once, read by its services,
its API and its screens (and the shell's navigation)."""

from __future__ import annotations

from casino.models import Role

# who works a window: sells and redeems chips, issues fills, counts
CAGE_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
SUPERVISOR_ROLES = (Role.CAGE_SUPERVISOR,)
# who reads the cage's shifts, counts and reports
READ_ROLES = (Role.CAGE_SUPERVISOR, Role.CASHIER, Role.ACCOUNTANT, Role.REGULATOR,
              Role.ADMINISTRATOR)
# who sees a shift's expected figures while it is open (its cashiers count blind)
SEES_EXPECTED = (Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.REGULATOR, Role.ADMINISTRATOR)
