"""Who may do what on the slot floor: each role rule written once, read by the services, the
API and the screens."""

from __future__ import annotations

from casino.models import Role

# who reads the floor, its meters, tickets, hand pays and pools
READ_ROLES = (Role.PIT_BOSS, Role.CASHIER, Role.CAGE_SUPERVISOR, Role.ACCOUNTANT,
              Role.REGULATOR, Role.ADMINISTRATOR)
# who adds, configures, moves and retires machines, and sets up progressive pools
CONFIGURE_ROLES = (Role.ADMINISTRATOR,)
# who records meter readings (the slot data system, a system actor;, a file import, a meter read by hand)
# and the machines' own events (tickets printed and taken, hand pay lock-ups, progressive hits)
FLOOR_ROLES = (Role.PIT_BOSS, Role.ADMINISTRATOR, "system")
# who counts the bill validator boxes in the count room, and who pays at the cage
COUNT_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
PAY_ROLES = (Role.CASHIER, Role.CAGE_SUPERVISOR)
# who approves a count variance or witnesses a RAM clear or a large hand pay
SUPERVISOR_ROLES = (Role.CAGE_SUPERVISOR, Role.PIT_BOSS, Role.ADMINISTRATOR)
