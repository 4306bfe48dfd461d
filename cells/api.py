"""``GET /api/regulator/v1/store/lag/``: each casino of the inspector's jurisdiction, as the
regulator's store holds it: the last event received, the last applied, the replication's lag
(p50/p99 of the last hour, seconds) and the alarms raised (docs/cells.md)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from regulator.base import RegulatorApi

from .lag import store_lag


class CasinoLagSerializer(serializers.Serializer):  # type: ignore[type-arg]
    casino = serializers.CharField()
    received = serializers.IntegerField(help_text="the casino's last event the store holds")
    applied = serializers.IntegerField(help_text="the last one its projections applied")
    behind = serializers.IntegerField()
    lag_p50 = serializers.DecimalField(max_digits=12, decimal_places=3)
    lag_p99 = serializers.DecimalField(max_digits=12, decimal_places=3)
    alarms = serializers.IntegerField(help_text="gaps, broken links, altered events, bad seals")
    stopped = serializers.CharField(help_text="why the follower stopped, if it did")


class StoreLagApi(RegulatorApi):
    serializer_class = CasinoLagSerializer

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        codes = [c.code for c in self.casinos()]
        rows = store_lag(codes) if codes else []
        return self.answer(CasinoLagSerializer(rows, many=True).data, rows=len(rows))
