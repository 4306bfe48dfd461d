"""Who may do what at the exchange desk (read by its services, API and screens)."""

from __future__ import annotations

from casino.models import Role

READ_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.REGULATOR,
              Role.ADMINISTRATOR)
CONFIGURE_ROLES = (Role.ADMINISTRATOR,)
# who posts a rate, and who approves one beyond the band (another person)
RATE_ROLES = (Role.CAGE_SUPERVISOR, Role.ACCOUNTANT, Role.ADMINISTRATOR)
# who buys and sells foreign notes over the counter, and opens the desk
DESK_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
# who revalues the holdings at the day's closing rate
REVALUE_ROLES = (Role.ACCOUNTANT, Role.ADMINISTRATOR)
