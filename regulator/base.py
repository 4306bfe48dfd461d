"""What every view of the regulator's API shares.

Read-only by construction: a write method is refused (405) before anything else is looked at;
the views implement ``get`` only. Only a regulator's inspector passes (``IsRegulator``), and
only for the casinos of their jurisdiction: any other casino is not found (404), as if it did
not exist. Every request is written to the access log, with how many rows it answered. An
unknown query parameter is refused (400), never ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.openapi import AutoSchema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import CursorPagination
from rest_framework.permissions import SAFE_METHODS, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from access.services import access_record
from casino.errors import NotFound
from casino.models import Casino
from casino.selectors import casino_codes_for
from edge.api.permissions import IsRegulator, is_regulator
from edge.api.schema import CasinoAutoSchema, Error

PAGING_PARAMS = frozenset({"cursor", "page_size"})


ERRORS = {400: "the request is not valid (an unknown filter, a bad value)",
          401: "no token, or an unknown, expired or revoked one",
          403: "not a regulator's inspector",
          404: "no such thing in the casinos of your jurisdiction",
          405: "the regulator's API only reads",
          409: "it cannot be answered now (e.g. the casino has no seal key yet)",
          429: "too many requests: wait and try again"}


class RegulatorAutoSchema(CasinoAutoSchema):
    """Every operation documents its errors, in the one error shape; the components are named
    ``Regulator…``, apart from the other APIs' ones."""

    def _get_serializer_name(self, serializer: Any, direction: str,
                             bypass_extensions: bool = False) -> str:
        name = super()._get_serializer_name(serializer, direction, bypass_extensions)
        return name if name.startswith("Regulator") else f"Regulator{name}"

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        bodies: dict[str, Any] = super()._get_response_bodies(direction)
        for status, description in ERRORS.items():  # the one error shape (edge.api.schema)
            if str(status) not in bodies:
                bodies[str(status)] = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    Error, str(status), direction=direction)
            bodies[str(status)]["description"] = description
        return bodies


def cursor(ordering: str | tuple[str, ...], *, size: int = 100, largest: int = 1000
           ) -> type[CursorPagination]:
    """Cursor pagination on a stable order (a unique key last)."""
    return type("Cursor", (CursorPagination,), {
        "ordering": ordering, "page_size": size, "page_size_query_param": "page_size",
        "max_page_size": largest})


class RegulatorApi(GenericAPIView):  # type: ignore[type-arg]
    permission_classes = [IsAuthenticated, IsRegulator]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "regulator"
    schema: ClassVar[AutoSchema] = RegulatorAutoSchema()  # type: ignore[misc]
    filter_backends: list[Any] = []
    pagination_class: type[CursorPagination] | None = None
    params: ClassVar[frozenset[str]] = frozenset()  # query parameters other than the filters
    rows: int | None = None

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if request.method not in SAFE_METHODS:
            raise exceptions.MethodNotAllowed(request.method or "")
        super().initial(request, *args, **kwargs)
        self._refuse_unknown_params(request)

    def _refuse_unknown_params(self, request: Request) -> None:
        known = set(self.params)
        if self.pagination_class is not None:
            known |= PAGING_PARAMS
        filterset = getattr(self, "filterset_class", None)
        if filterset is not None:
            known |= set(filterset.base_filters)
        unknown = sorted(set(request.query_params) - known)
        if unknown:
            raise exceptions.ValidationError({name: [
                f"unknown parameter (this endpoint takes: {', '.join(sorted(known)) or 'none'})"]
                for name in unknown})

    def jurisdiction(self) -> str:
        return self.request._regulator_account.jurisdiction  # type: ignore[attr-defined,no-any-return]

    def casino(self, code: str) -> Casino:
        """The casino, if it is one of the inspector's jurisdiction; else not found."""
        found = Casino.objects.filter(code=code).first()
        if found is None or found.code not in casino_codes_for(self.request.user):
            raise NotFound("there is no casino {code!r} in your jurisdiction",
                           params={"code": code})
        return found

    def casinos(self) -> list[Casino]:
        # the one rule of who sees which casino (casino.selectors.casino_roles), as the web's
        return list(Casino.objects.filter(code__in=casino_codes_for(self.request.user))
                    .order_by("code"))

    def answer(self, data: Any, rows: int = 1) -> Response:
        self.rows = rows
        return Response(data)

    def finalize_response(self, request: Request, response: Response, *args: Any,
                          **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        self._log(request, response)
        return response

    def _log(self, request: Request, response: Response) -> None:
        try:
            user = request.user
        except exceptions.APIException:
            return  # a bad token: nobody to log
        if not (user and user.is_authenticated and is_regulator(request)):
            return
        token = getattr(request, "auth", None)
        access_record(user=user, jurisdiction=self.jurisdiction(),
                      token_key=str(getattr(token, "token_key", "") or ""),
                      method=request.method or "", path=request.path,
                      query=request.META.get("QUERY_STRING", ""),
                      status=response.status_code,
                      rows=self.rows if response.status_code < 400 else None)


class RegulatorListApi(RegulatorApi):
    """A collection: filtered (django-filter), cursor-paginated, in a stable order."""

    filter_backends: list[Any] = [DjangoFilterBackend]
    output: ClassVar[type[serializers.BaseSerializer[Any]]]

    rows_of: Callable[..., QuerySet[Any]]  # the collection, from the URL's arguments

    def get_queryset(self) -> QuerySet[Any]:
        if getattr(self, "swagger_fake_view", False):  # the schema's generation
            model = getattr(self, "model", None) or self.output.Meta.model  # type: ignore[attr-defined]
            return model.objects.none()  # type: ignore[no-any-return]
        return self.rows_of(**self.kwargs)

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return self.output

    def list(self) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        assert page is not None
        self.rows = len(page)
        return self.get_paginated_response(self.output(page, many=True).data)
