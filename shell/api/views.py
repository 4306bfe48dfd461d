"""Read-only API of the core: casinos and the event stream with its hashes (regulator)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.errors import NotAllowed
from casino.models import Role
from casino.selectors import casino_codes_for, casino_list_for, chain_verification_for, seal_list
from edge.api.schema import answer_serializer
from eventstore import read_page
from eventstore.records import Metadata
from reporting.answers import SealPayload
from reporting.seals import seal_public_key

READ_ROLES = (Role.REGULATOR, Role.ADMINISTRATOR, Role.ACCOUNTANT)


class CasinoListApi(APIView):
    class OutputSerializer(serializers.Serializer[Any]):
        code = serializers.CharField()
        name = serializers.CharField()
        currency = serializers.CharField()
        time_zone = serializers.CharField()
        gaming_day_closes_at = serializers.IntegerField()

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        casinos = casino_list_for(request.user)
        return Response(self.OutputSerializer(casinos, many=True).data)


@dataclass(frozen=True)
class ExportedEvent:
    """An event as exported and hashed (docs/event-hash.md); ``data``: the event type's own
    fields (docs/events.md)."""

    position: int
    stream: str
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    metadata: Metadata  # who did it, for which casino, and why
    recorded_at: str
    prev_hash: str
    hash: str
    sequence: int
    # Only on an event carried from another cell with its casino: its position in this cell,
    # where ``position`` is the one it was appended at, which its hash covers
    # (docs/event-hash.md, § Cells). ``next_after`` is in this cell's positions.
    cell_position: int | None = None


@dataclass(frozen=True)
class EventPage:
    events: list[ExportedEvent]
    next_after: int


class EventListApi(APIView):
    """The event stream by position, with each event's hash: a follower pages with ``after``."""

    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        after = serializers.IntegerField(min_value=0, default=0)
        limit = serializers.IntegerField(min_value=1, max_value=5000, default=500)

    @extend_schema(
        parameters=[
            OpenApiParameter("casino", str, required=True),
            OpenApiParameter("after", int, description="return events with a larger position"),
            OpenApiParameter("limit", int),
        ],
        responses={200: answer_serializer(EventPage)},
    )
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        if casino not in casino_codes_for(request.user, *READ_ROLES):
            raise NotAllowed("you may not read the events of casino {casino!r}",
                             params={"casino": casino})
        page = read_page(params.validated_data["after"], params.validated_data["limit"],
                         casino=casino)
        return Response({
            "events": [e.as_export() for e in page],
            "next_after": page[-1].position if page else params.validated_data["after"],
        })


class CasinoChainSerializer(serializers.Serializer[Any]):
    casino = serializers.CharField()
    ok = serializers.BooleanField()
    checked = serializers.IntegerField(help_text="the casino's events verified")
    last_hash = serializers.CharField(help_text="the casino's last verified event's hash")
    bad_position = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)


class EventChainVerifyApi(APIView):
    """Verify the hash chain of each of your casinos (one chain per casino) and say where it
    breaks, if it does: the events recorded since the last call are recomputed (the whole chain
    at least every ten minutes). Nobody sees another casino's figures."""

    class OutputSerializer(serializers.Serializer[Any]):
        ok = serializers.BooleanField()
        checked = serializers.IntegerField(help_text="events verified (of your casinos)")
        last_hash = serializers.CharField(
            allow_blank=True, help_text="the last verified event's hash, if you read one casino")
        bad_position = serializers.IntegerField(allow_null=True)
        reason = serializers.CharField(allow_blank=True)
        casinos = CasinoChainSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        casinos = casino_codes_for(request.user, *READ_ROLES)
        if not casinos:
            raise NotAllowed("only the regulator, an administrator or an accountant may verify")
        found = chain_verification_for(casinos)
        return Response(self.OutputSerializer(found).data)


def _may_read(request: Request, casino: str, what: str) -> None:
    if casino not in casino_codes_for(request.user, *READ_ROLES):
        raise NotAllowed("you may not read the {what} of casino {casino!r}",
                         params={"what": what, "casino": casino}, field="casino")


class CasinoSealKeyApi(APIView):
    """The casino's public seal key (PEM) and its key id, as given to the regulator."""

    class OutputSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()
        algorithm = serializers.CharField()
        key_id = serializers.CharField()
        public_key = serializers.CharField(help_text="SubjectPublicKeyInfo, PEM")

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request, code: str) -> Response:
        _may_read(request, code, "seal key")
        return Response(self.OutputSerializer(seal_public_key(code)).data)


class SealListApi(APIView):
    """The casino's seals: each one's payload as signed and its signature (docs/event-hash.md)."""

    class FilterSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField()

    class OutputSerializer(serializers.Serializer[Any]):
        casino = serializers.CharField(source="casino_id")
        gaming_day = serializers.DateField()
        first_position = serializers.IntegerField()
        last_position = serializers.IntegerField()
        last_hash = serializers.CharField()
        key_id = serializers.CharField()
        signature = serializers.CharField()
        payload = serializers.SerializerMethodField()
        position = serializers.IntegerField()
        sealed_at = serializers.DateTimeField()

        @extend_schema_field(answer_serializer(SealPayload))
        def get_payload(self, seal: Any) -> dict[str, Any]:
            """The seal event's data without its signature: the object whose canonical JSON
            is signed."""
            return {k: v for k, v in seal.payload.items() if k != "signature"}

    @extend_schema(parameters=[OpenApiParameter("casino", str, required=True)],
                   responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        params = self.FilterSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        casino = params.validated_data["casino"]
        _may_read(request, casino, "seals")
        return Response(self.OutputSerializer(seal_list(casino=casino), many=True).data)


# The sections of /api/v1/: name, path under the root (``{casino}``: a casino's code), what it is.
API_SECTIONS = [
    ("casinos", "casinos/", "the casinos you may see"),
    ("events", "events/?casino={casino}", "the event stream with its hashes (regulator)"),
    ("events-verify", "events/verify/", "recompute the hash chain now"),
    ("seals", "seals/", "each closed gaming day's seal"),
    ("approvals", "approvals/", "changes after the fact waiting for a second person"),
    ("pit", "pit/tables/", "tables, sessions, rounds, slips (pit boss)"),
    ("cage", "cage/{casino}/shifts/", "cage shifts, chip sales, fills, credits, counts (cashier)"),
    ("ledger", "ledger/{casino}/trial-balance/", "trial balance, journal, results (accountant)"),
    ("jackpots", "jackpots/{casino}/pools/", "jackpot pools and their meters"),
    ("poker-room", "poker-room/{casino}/tables/",
     "poker tables, hands, rake, chemin de fer coups; tournaments at poker-room/{casino}/tournaments/"),
    ("tips", "tips/{casino}/boxes/", "tip boxes and their counts, corrections, periods shared"),
    ("exchange", "exchange/{casino}/deals/",
     "foreign notes bought and sold at the cage; rates, holdings, revaluations"),
]


class ApiSectionSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    url = serializers.CharField(help_text="{casino}: a casino's code")
    what = serializers.CharField()


class ApiRootApi(APIView):
    """The API's front door: its sections, the schema and the docs. Open to anyone (it holds
    no casino data); every section asks for a login or a token."""

    permission_classes: list[type] = []

    class OutputSerializer(serializers.Serializer[Any]):
        title = serializers.CharField()
        version = serializers.CharField()
        schema = serializers.URLField()
        docs = serializers.URLField()
        authentication = serializers.CharField()
        sections = ApiSectionSerializer(many=True)

    @extend_schema(responses=OutputSerializer)
    def get(self, request: Request) -> Response:
        root = request.build_absolute_uri(reverse("api-root"))
        return Response(self.OutputSerializer({
            "title": "Casino back office API",
            "version": "v1",
            "schema": request.build_absolute_uri(reverse("api-schema")),
            "docs": request.build_absolute_uri(reverse("api-docs")),
            "authentication": "a session (log in at /accounts/login/) or "
                              "'Authorization: Token <key>'",
            "sections": [{"name": name, "url": root + path, "what": what}
                         for name, path, what in API_SECTIONS],
        }).data)
