"""The regulator's reads of the slot floor, ``/api/regulator/v1/casinos/<casino>/machines/…``
(GET only, scoped to the inspector's jurisdiction, logged: ``regulator.base.RegulatorApi``):
the machines with their configuration history, their readings, the daily results by meters,
the tickets and the hand pays."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.urls import URLPattern, path
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.request import Request
from rest_framework.response import Response

from edge.api.schema import answer_serializer
from machines import answers, selectors

from .base import RegulatorApi

DAY = OpenApiParameter("day", str, description="the gaming day, ISO (default: today)")


class MachineListApi(RegulatorApi):
    """Every machine of the casino, now: place, configuration, status, return against certified."""

    @extend_schema(responses=answer_serializer(answers.MachineRow)(many=True),
                   operation_id="regulator_machine_list")
    def get(self, request: Request, casino: str) -> Response:
        found = self.casino(casino)
        day = found.gaming_day(timezone.now())
        rows = [dataclasses.asdict(r) for r in selectors.floor_rows(found.code, day)]
        return self.answer(rows, rows=len(rows))


class MachineDetailApi(RegulatorApi):
    """A machine with its whole configuration history and its last readings."""

    @extend_schema(responses=answer_serializer(answers.MachineDetail),
                   operation_id="regulator_machine_detail")
    def get(self, request: Request, casino: str, machine: str) -> Response:
        found = self.casino(casino)
        row = selectors.machine_get(found.code, machine)
        return self.answer(dataclasses.asdict(selectors.machine_detail(
            row, found.gaming_day(timezone.now()), readings=500)))


class MachineDayListApi(RegulatorApi):
    """The daily results by meters of every machine read on ``day``."""

    params = frozenset({"day"})

    @extend_schema(parameters=[DAY], responses=answer_serializer(answers.MachineDayRow)(many=True),
                   operation_id="regulator_machine_daily_results")
    def get(self, request: Request, casino: str) -> Response:
        found = self.casino(casino)
        text = request.query_params.get("day")
        try:
            day = dt.date.fromisoformat(text) if text else found.gaming_day(timezone.now())
        except ValueError:
            raise exceptions.ValidationError({"day": ["a date such as 2026-12-07"]}) from None
        rows = [dataclasses.asdict(r) for r in selectors.day_rows(found.code, day)]
        return self.answer(rows, rows=len(rows))


class TicketListApi(RegulatorApi):
    @extend_schema(responses=answer_serializer(answers.TicketRow)(many=True),
                   operation_id="regulator_machine_ticket_list")
    def get(self, request: Request, casino: str) -> Response:
        rows = [dataclasses.asdict(t) for t in selectors.ticket_rows(self.casino(casino).code)]
        return self.answer(rows, rows=len(rows))


class HandPayListApi(RegulatorApi):
    @extend_schema(responses=answer_serializer(answers.HandPayRow)(many=True),
                   operation_id="regulator_machine_hand_pay_list")
    def get(self, request: Request, casino: str) -> Response:
        rows = [dataclasses.asdict(h) for h in selectors.hand_pay_rows(self.casino(casino).code)]
        return self.answer(rows, rows=len(rows))


urlpatterns: list[URLPattern] = [
    path("", MachineListApi.as_view(), name="regulator-machine-list"),
    path("daily-results/", MachineDayListApi.as_view(), name="regulator-machine-days"),
    path("tickets/", TicketListApi.as_view(), name="regulator-machine-tickets"),
    path("hand-pays/", HandPayListApi.as_view(), name="regulator-machine-hand-pays"),
    path("<str:machine>/", MachineDetailApi.as_view(), name="regulator-machine-detail"),
]
