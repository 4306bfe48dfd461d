"""The permission matrix: every endpoint of the API × every role, the exact status each gets.

The endpoints come from the URL configuration (``matrix.endpoints``): a new endpoint, or a new
method of one, without a row here fails the test, naming it. To add a row, copy the line the
failure prints into ``EXPECTED`` and correct the statuses to what each role must get.

Each request is sent on a played demo day (Lisbon's tables, one of Macau's), with what it
changes rolled back, as the people of ``conftest.make_people``: a member of both casinos per
staff role, Portugal's inspector (``srij``) and Macau's (``dicj``). Writes send ``{}``: a role
that may write gets the refusal of the empty command (400, 404 or 409), one that may not, 403.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from .conftest import Demo
from .matrix import ROLES, endpoints, sample_path, status_of

pytestmark = pytest.mark.django_db

# anonymous, cashier, cage_supervisor, pit_boss, accountant, srij (PT), dicj (MO), administrator
EXPECTED: dict[str, list[int]] = {
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/archive/': [401, 403, 403, 403, 403, 404, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/archive/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/regulator-file/': [401, 403, 403, 403, 403, 404, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/regulator-file/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/v1/': [200, 200, 200, 200, 200, 200, 200, 200],
    'GET api/v1/casinos/<str:code>/days/<str:day>/archive/': [401, 403, 403, 403, 404, 403, 403, 404],
    'GET api/v1/casinos/<str:code>/days/<str:day>/regulator-file/': [401, 403, 403, 403, 404, 403, 403, 404],
    'POST api/v1/compliance/<slug:casino>/patrons/find/': [401, 400, 400, 400, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/patrons/': [401, 400, 400, 400, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/patrons/<str:patron>/': [401, 403, 403, 403, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/patrons/<str:patron>/verify/': [401, 400, 400, 400, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/patrons/<str:patron>/shred/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/alerts/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/linking-period/': [401, 403, 403, 403, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/linking-period/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/reports/': [401, 403, 403, 403, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/reports/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/reports/<str:report>/': [401, 403, 403, 403, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/reports/<str:report>/review/': [401, 403, 403, 403, 403, 403, 403, 403],
    'POST api/v1/compliance/<slug:casino>/reports/<str:report>/send/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/large-transactions/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/identifications/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/v1/compliance/<slug:casino>/reports-sent/': [401, 403, 403, 403, 403, 403, 403, 403],
    'GET api/regulator/v1/casinos/<slug:casino>/large-transactions/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/large-transactions/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/identifications/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/identifications/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/suspicious-reports-sent/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/suspicious-reports-sent/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/schema/': [200, 200, 200, 200, 200, 200, 200, 200],
    'GET api/docs/': [200, 200, 200, 200, 200, 200, 200, 200],
    'GET api/redoc/': [200, 200, 200, 200, 200, 200, 200, 200],
    'GET api/regulator/v1/schema/': [200, 200, 200, 200, 200, 200, 200, 200],
    'POST api/regulator/v1/schema/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/docs/': [200, 200, 200, 200, 200, 200, 200, 200],
    'POST api/regulator/v1/docs/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/redoc/': [200, 200, 200, 200, 200, 200, 200, 200],
    'POST api/regulator/v1/redoc/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/access-log/': [401, 403, 403, 403, 403, 200, 200, 403],
    'POST api/regulator/v1/access-log/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/': [401, 403, 403, 403, 403, 200, 200, 403],
    'POST api/regulator/v1/casinos/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/seal-key/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/seal-key/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-days/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-days/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/': [401, 403, 403, 403, 403, 404, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/seal/verification/': [401, 403, 403, 403, 403, 404, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-days/<str:day>/seal/verification/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/tables/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/tables/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/tables/<slug:code>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/tables/<slug:code>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/tables/<slug:code>/as-of/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/tables/<slug:code>/as-of/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/sessions/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/sessions/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/sessions/<uuid:session_id>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/sessions/<uuid:session_id>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/rounds/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/rounds/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/rounds/<uuid:round_id>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/rounds/<uuid:round_id>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/rounds/<uuid:round_id>/replay/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/rounds/<uuid:round_id>/replay/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/slips/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/slips/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/shifts/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/shifts/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/shifts/<uuid:shift>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/shifts/<uuid:shift>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/cages/<slug:cage>/as-of/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/cages/<slug:cage>/as-of/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/chips-in-circulation/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/chips-in-circulation/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/jackpot-pools/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/jackpot-pools/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/jackpot-pools/<slug:pool>/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/jackpot-pools/<slug:pool>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/jackpot-pools/<slug:pool>/as-of/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/jackpot-pools/<slug:pool>/as-of/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/machines/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/machines/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/machines/daily-results/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/machines/daily-results/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/machines/tickets/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/machines/tickets/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/machines/hand-pays/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/machines/hand-pays/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/machines/<str:machine>/': [401, 403, 403, 403, 403, 404, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/machines/<str:machine>/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/trial-balance/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/trial-balance/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/gaming-tax/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/gaming-tax/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/bank-clearing/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/bank-clearing/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/events/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/events/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/chain/verification/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/chain/verification/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/v1/casinos/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/casinos/<str:code>/seal-key/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/seals/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/events/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/events/verify/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/approvals/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/approvals/': [401, 400, 400, 400, 400, 403, 403, 400],
    'GET api/v1/approvals/kinds/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/approvals/<str:approval_id>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/approvals/<str:approval_id>/grant/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/approvals/<str:approval_id>/refuse/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/approvals/<str:approval_id>/withdraw/': [401, 404, 404, 404, 404, 403, 403, 404],
    'GET api/v1/pit/tables/': [401, 403, 403, 200, 200, 403, 403, 200],
    'GET api/v1/pit/tables/<slug:casino>/<slug:code>/': [401, 403, 403, 200, 200, 403, 403, 200],
    'POST api/v1/pit/tables/<slug:casino>/<slug:code>/sessions/': [401, 403, 403, 201, 403, 403, 403, 403],
    'POST api/v1/pit/tables/<slug:casino>/<slug:code>/capital/': [401, 403, 403, 403, 400, 403, 403, 400],
    'GET api/v1/pit/sessions/': [401, 403, 403, 200, 200, 403, 403, 200],
    'GET api/v1/pit/sessions/<uuid:session_id>/': [401, 403, 403, 200, 200, 403, 403, 200],
    'POST api/v1/pit/sessions/<uuid:session_id>/close/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/drop-box/count/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/drop-box/confirm/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/pit/drop-boxes/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/pit/sessions/<uuid:session_id>/fills/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/credits/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/drops/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/colour-chips/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/colour-chips/exchange/': [401, 403, 403, 400, 403, 403, 403, 403],
    'GET api/v1/pit/sessions/<uuid:session_id>/rounds/': [401, 403, 403, 200, 200, 403, 403, 200],
    'POST api/v1/pit/sessions/<uuid:session_id>/rounds/open/': [401, 403, 403, 409, 403, 403, 403, 403],
    'POST api/v1/pit/sessions/<uuid:session_id>/rounds/whole/': [401, 403, 403, 400, 403, 403, 403, 403],
    'GET api/v1/pit/rounds/<uuid:round_id>/': [401, 403, 403, 200, 200, 403, 403, 200],
    'GET api/v1/pit/rounds/<uuid:round_id>/replay/': [401, 403, 403, 200, 200, 403, 403, 200],
    'POST api/v1/pit/rounds/<uuid:round_id>/bets/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/jackpot-bets/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/bets/<str:bet_id>/withdraw/': [401, 403, 403, 409, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/close-betting/': [401, 403, 403, 409, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/deal/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/decisions/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/outcome/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/settle/': [401, 403, 403, 409, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/void/': [401, 403, 403, 400, 403, 403, 403, 403],
    'POST api/v1/pit/rounds/<uuid:round_id>/correct/': [401, 403, 403, 400, 403, 403, 403, 403],
    'GET api/v1/pit/slips/': [401, 403, 403, 200, 200, 403, 403, 200],
    'GET api/v1/pit/slips/missing/': [401, 403, 403, 200, 200, 403, 403, 200],
    'POST api/v1/pit/slips/<slug:casino>/<str:kind>/<str:number>/void/': [401, 403, 403, 400, 403, 403, 403, 403],
    'GET api/v1/pit/gaming-days/': [401, 403, 403, 200, 200, 403, 403, 200],
    'GET api/v1/pit/variances/': [401, 400, 400, 400, 400, 403, 403, 400],
    'GET api/v1/cage/<slug:casino>/cages/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/cages/': [401, 403, 400, 403, 403, 403, 403, 400],
    'POST api/v1/cage/<slug:casino>/cages/<slug:code>/minimum-cash/': [401, 403, 400, 403, 403, 403, 403, 400],
    'GET api/v1/cage/<slug:casino>/cages/<slug:code>/previous-count/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/cages/<slug:code>/opening-disputes/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/cage/<slug:casino>/shifts/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/shifts/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/cage/<slug:casino>/shifts/<uuid:shift>/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/chip-sales/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/chip-redemptions/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/fills/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/credits/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/slip-refusals/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/transfers/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/jackpot-payouts/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/drop-boxes/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/adjustments/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/chips-into-service/': [401, 403, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/chips-out-of-service/': [401, 403, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/count/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/variance/explanation/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/variance/approval/': [401, 403, 409, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/variance/refusal/': [401, 403, 400, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/close/': [401, 409, 409, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/shifts/<uuid:shift>/opening-dispute/resolution/': [401, 403, 400, 403, 403, 403, 403, 403],
    'GET api/v1/cage/<slug:casino>/shifts/<uuid:shift>/reconciliation/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/adjustments/<uuid:adjustment>/approval/': [401, 403, 404, 403, 403, 403, 403, 403],
    'POST api/v1/cage/<slug:casino>/adjustments/<uuid:adjustment>/rejection/': [401, 403, 400, 403, 403, 403, 403, 403],
    'GET api/v1/cage/<slug:casino>/chips-in-circulation/': [401, 403, 200, 403, 200, 403, 403, 200],
    'GET api/v1/cage/<slug:casino>/gaming-days/<str:day>/chips-in-circulation/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/cage/<slug:casino>/gaming-days/<str:day>/chips-in-circulation/': [401, 403, 409, 403, 403, 403, 403, 409],
    'GET api/v1/cage/<slug:casino>/gaming-days/<str:day>/reconciliation/': [401, 403, 200, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/accounts/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/journal/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/journal/<int:number>/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/journal.csv': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/journal.xlsx': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/trial-balance/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/trial-balance.csv': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/trial-balance.xlsx': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/results/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/gross-gaming-revenue/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/periods/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/close-report/<str:day>.csv': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/close-report/<str:day>.pdf': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/close-report/<str:day>/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/bank/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/ledger/<slug:casino>/reconciliation/<str:day>/': [401, 403, 403, 403, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/hits/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/history/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/configurations/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/coups/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/jackpots/<slug:casino>/pools/<slug:pool>/coups/<str:round_id>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'GET api/v1/jackpots/<slug:casino>/prizes/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/jackpots/<slug:casino>/prizes/<str:prize>/payment/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/jackpots/<slug:casino>/tables/<slug:table>/jackpot/': [401, 200, 200, 200, 200, 403, 403, 200],
    # the tips and the exchange at the cage (issue 39)
    'GET api/regulator/v1/casinos/<slug:casino>/tip-periods/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/tip-periods/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/exchange/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/exchange/': [405, 405, 405, 405, 405, 405, 405, 405],
    'POST api/v1/tips/<slug:casino>/rule/': [401, 403, 403, 403, 403, 403, 403, 400],
    'GET api/v1/tips/<slug:casino>/staff/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/tips/<slug:casino>/staff/register/': [401, 403, 403, 403, 403, 403, 403, 400],
    'POST api/v1/tips/<slug:casino>/staff/<str:staff>/change/': [401, 403, 403, 403, 403, 403, 403, 404],
    'GET api/v1/tips/<slug:casino>/staff/<str:staff>/shares/': [401, 404, 404, 404, 404, 403, 403, 404],
    'GET api/v1/tips/<slug:casino>/boxes/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/tips/<slug:casino>/boxes/drop/': [401, 400, 400, 400, 403, 403, 403, 403],
    'POST api/v1/tips/<slug:casino>/boxes/<str:day>/<str:box>/count/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/tips/<slug:casino>/boxes/<str:day>/<str:box>/confirm/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/tips/<slug:casino>/corrections/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/tips/<slug:casino>/corrections/report/': [401, 400, 400, 400, 403, 403, 403, 403],
    'POST api/v1/tips/<slug:casino>/corrections/<str:correction>/confirm/': [401, 404, 404, 404, 403, 403, 403, 403],
    'GET api/v1/tips/<slug:casino>/periods/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/tips/<slug:casino>/periods/<str:period>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/tips/<slug:casino>/periods/<str:period>/distribute/': [401, 403, 403, 403, 400, 403, 403, 400],
    'GET api/v1/exchange/<slug:casino>/currencies/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/exchange/<slug:casino>/currencies/accept/': [401, 403, 403, 403, 403, 403, 403, 400],
    'POST api/v1/exchange/<slug:casino>/currencies/<str:currency>/rate/': [401, 403, 400, 403, 400, 403, 403, 400],
    'POST api/v1/exchange/<slug:casino>/rates/<str:proposal>/approve/': [401, 403, 404, 403, 404, 403, 403, 404],
    'POST api/v1/exchange/<slug:casino>/desk/open/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/exchange/<slug:casino>/holdings/': [401, 200, 200, 403, 200, 403, 403, 200],
    'GET api/v1/exchange/<slug:casino>/deals/': [401, 200, 200, 403, 200, 403, 403, 200],
    'POST api/v1/exchange/<slug:casino>/deals/buy/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/exchange/<slug:casino>/deals/sell/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/exchange/<slug:casino>/revaluations/': [401, 403, 403, 403, 409, 403, 403, 409],
    # the poker room (issue 38)
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/tables/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/tables/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/hands/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/hands/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/rake-box-counts/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/rake-box-counts/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/coups/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/coups/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/tournaments/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/tournaments/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/regulator/v1/casinos/<slug:casino>/poker-room/tournaments/<slug:tournament>/entries/': [401, 403, 403, 403, 403, 200, 404, 403],
    'POST api/regulator/v1/casinos/<slug:casino>/poker-room/tournaments/<slug:tournament>/entries/': [405, 405, 405, 405, 405, 405, 405, 405],
    'GET api/v1/poker-room/<slug:casino>/tables/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/poker-room/<slug:casino>/tables/<slug:table>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/poker-room/<slug:casino>/tables/<slug:table>/hands/': [401, 403, 403, 400, 403, 403, 403, 400],
    'POST api/v1/poker-room/<slug:casino>/tables/<slug:table>/coups/': [401, 403, 403, 400, 403, 403, 403, 400],
    'GET api/v1/poker-room/<slug:casino>/tournaments/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/poker-room/<slug:casino>/tournaments/<slug:tournament>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/poker-room/<slug:casino>/tournaments/<slug:tournament>/prizes/<int:entry>/payment/': [401, 404, 404, 403, 403, 403, 403, 403],
    'GET api/v1/machines/<slug:casino>/machines/': [401, 200, 200, 200, 200, 403, 403, 200],
    'GET api/v1/machines/<slug:casino>/machines/<str:machine>/': [401, 404, 404, 404, 404, 403, 403, 404],
    'POST api/v1/machines/<slug:casino>/readings/': [401, 403, 403, 400, 403, 403, 403, 400],
    'GET api/v1/machines/<slug:casino>/tickets/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/machines/<slug:casino>/tickets/<str:validation>/redemption/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/v1/machines/<slug:casino>/hand-pays/': [401, 200, 200, 200, 200, 403, 403, 200],
    'POST api/v1/machines/<slug:casino>/hand-pays/<str:handpay>/payment/': [401, 400, 400, 403, 403, 403, 403, 403],
    'GET api/regulator/v1/store/lag/': [401, 403, 403, 403, 403, 200, 200, 403],
    'POST api/regulator/v1/store/lag/': [405, 405, 405, 405, 405, 405, 405, 405],
    'POST api/v1/machines/<slug:casino>/boxes/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/boxes/<str:drop_id>/confirmation/': [401, 404, 404, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/boxes/<str:drop_id>/explanation/': [401, 400, 400, 400, 403, 403, 403, 400],
    'POST api/v1/machines/<slug:casino>/machines/<str:machine>/resets/': [401, 403, 403, 400, 403, 403, 403, 400],
    'POST api/v1/machines/<slug:casino>/cash-counts/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/parameters/': [401, 403, 403, 403, 400, 403, 403, 400],
    # the slot cashier's shift: the screen's roles (commands: cashier, cage supervisor; the list: the floor's readers)
    'POST api/v1/machines/<slug:casino>/shifts/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/shifts/<str:shift_id>/count/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/shifts/<str:shift_id>/explanation/': [401, 400, 400, 403, 403, 403, 403, 403],
    'POST api/v1/machines/<slug:casino>/shifts/<str:shift_id>/close/': [401, 404, 404, 403, 403, 403, 403, 403],
    'GET api/v1/machines/<slug:casino>/windows/<str:window>/shifts/': [401, 200, 200, 200, 200, 403, 403, 200],
}

QUERY = "?casino=lisboa&from={day}&to={day}"  # what the staff's lists and reports ask for
REGULATOR_QUERY = {"chain/verification/": "?from=1&to=50", "trial-balance/": "?from={day}&to={day}",
                   "gaming-tax/": "?from={day}&to={day}", "as-of/": "?at=2099-01-01T00:00:00Z",
                   "large-transactions/": "?day={day}", "identifications/": "?day={day}"}


def samples(demo: Demo) -> dict[str, str]:
    """A real thing of Lisbon's demo day for each argument of the URL configuration."""
    from cage.models import Shift
    from games.models import Bet, Round, Slip
    from jackpots.models import JackpotPool

    bet = Bet.objects.filter(round_id__in=Round.objects.filter(
        casino_id="lisboa", status="settled").values("round_id")).order_by(
            "bet_id").first()
    assert bet is not None
    the_round = Round.objects.get(round_id=bet.round_id)
    slip = Slip.objects.filter(casino_id="lisboa").order_by("id").first()
    shift = Shift.objects.filter(casino_id="lisboa", cage="main").order_by("opened_at").first()
    pool = JackpotPool.objects.filter(casino_id="lisboa").order_by("pool_id").first()
    assert slip is not None
    assert shift is not None
    assert pool is not None
    return {"casino": "lisboa", "table_code": "rf1", "cage_code": "main", "cage": "main",
            "table": "sp1", "session_id": str(the_round.session_id),
            "round_id": str(the_round.round_id), "bet_id": bet.bet_id, "kind": slip.kind,
            "number": slip.number, "shift": str(shift.id), "pool": pool.pool_id,
            "day": demo.day.isoformat(), "prize": "none", "entry_number": "1"}


def query_for(route: str, day: str) -> str:
    if not route.startswith("api/regulator/"):
        return QUERY.format(day=day)
    for ending, query in REGULATOR_QUERY.items():
        if route.endswith(ending):
            return query.format(day=day)
    return ""


def test_every_endpoint_has_a_row_and_each_role_gets_exactly_its_status(demo: Demo) -> None:
    found = endpoints()
    missing = [e.key for e in found if e.key not in EXPECTED]
    assert not missing, ("endpoints without a row in EXPECTED (add one per line, with the "
                         "status of each of " + ", ".join(ROLES) + "):\n" + "\n".join(
                             f"    {key!r}: [...]," for key in missing))
    gone = sorted(set(EXPECTED) - {e.key for e in found})
    assert not gone, f"rows of endpoints that no longer exist: {gone}"
    sample = samples(demo)
    clients: dict[str, Any] = {r: demo.client(None if r == "anonymous" else r) for r in ROLES}
    wrong = []
    for endpoint in found:
        path = sample_path(endpoint, sample)
        query = query_for(endpoint.route, demo.day.isoformat())
        got = [status_of(clients[role], endpoint, path, query) for role in ROLES]
        if got != EXPECTED[endpoint.key]:
            wrong.append(f"{endpoint.key}: expected {EXPECTED[endpoint.key]}, got {got}")
    assert not wrong, "\n".join(wrong)

    # PUT, PATCH and DELETE on every endpoint of /api/regulator/v1/, as Portugal's inspector
    # (POST is in the matrix, for every role): refused before anything is looked at
    srij = clients["srij"]
    regulator = [e for e in endpoints() if e.route.startswith("api/regulator/")
                 and e.method == "GET"]
    assert len(regulator) > 20
    for endpoint in regulator:
        for method in ("PUT", "PATCH", "DELETE"):
            write = replace(endpoint, method=method)
            got = status_of(srij, write, sample_path(write, sample), "")
            assert got == 405, f"{write.key}: {got}"
