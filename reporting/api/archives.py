"""Downloads of a sealed gaming day: its archive and its regulator file (reads only).

A module of its own, so that the regulator's read-only API can mount the same views: today under
``/api/v1/casinos/<code>/days/<day>/archive/`` and ``…/regulator-file/``, for the casino's
regulators, administrators and accountants.
"""

from __future__ import annotations

import datetime as dt
import tempfile

from django.http import FileResponse, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from casino.errors import InvalidCommand
from casino.models import Role
from ledger import selectors

from ..archives import archive_name, day_archive
from ..regulator_file import filename, regulator_file

DAY_READERS = (Role.REGULATOR, Role.ADMINISTRATOR, Role.ACCOUNTANT)


def _gaming_day(day: str) -> dt.date:
    try:
        return dt.date.fromisoformat(day)
    except ValueError:
        raise InvalidCommand("{day!r} is not a gaming day such as 2025-03-01", params={"day": day},
                             field="day") from None


class GamingDayArchiveApi(APIView):
    """The sealed gaming day as one zip that ``tools/verify_events.py`` verifies alone: the
    casino's events the seal covers, the seal, the public key, the results, the close report,
    the regulator file and a manifest (``docs/event-hash.md`` § A day's archive)."""

    @extend_schema(responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, code: str, day: str) -> FileResponse:
        selectors.casino_get_for(request.user, code, DAY_READERS)
        gaming_day = _gaming_day(day)
        spool = tempfile.TemporaryFile()  # noqa: SIM115  (the response closes it once sent)
        try:
            day_archive(casino=code, gaming_day=gaming_day, out=spool)
        except BaseException:
            spool.close()
            raise
        spool.seek(0)
        return FileResponse(spool, as_attachment=True, content_type="application/zip",
                            filename=archive_name(code, gaming_day))


class GamingDayRegulatorFileApi(APIView):
    """The gaming day's regulator file (XML, ``reporting/xsd/regulator-day-1.xsd``)."""

    @extend_schema(responses={(200, "application/xml"): OpenApiResponse(OpenApiTypes.BINARY)})
    def get(self, request: Request, code: str, day: str) -> HttpResponse:
        selectors.casino_get_for(request.user, code, DAY_READERS)
        gaming_day = _gaming_day(day)
        response = HttpResponse(regulator_file(code, gaming_day),
                                content_type="application/xml; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename(code, gaming_day)}"'
        return response
