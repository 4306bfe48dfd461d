"""What every command API shares: who is acting, in which role, with which idempotency key.

A command API names the roles that may call it. The caller says which casino it acts in (URL
or body) and may send an ``Idempotency-Key`` header; the metadata of the events it records
then carries the user, the role they act in, the casino, the request id and that key.
``CommandApi`` is the one base of the command endpoints (the cage's, the compliance officer's).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.context import person_metadata
from casino.errors import InvalidCommand, NotAllowed
from casino.models import Membership
from eventstore.answers import as_data
from eventstore.store import Metadata

from .schema import answer_serializer

IDEMPOTENCY_HEADER = "Idempotency-Key"


def acting_role(request: Request, casino: str, roles: Sequence[str]) -> str:
    """The role in which the user may act here, or NotAllowed naming what is missing."""
    user = request.user
    if not user.is_authenticated:
        raise NotAllowed("log in first")
    remembered = getattr(request, "casino_roles", None)
    if remembered is not None and remembered[0] == casino:
        held = set(remembered[1])
    else:
        held = set(Membership.objects.filter(user_id=user.pk, casino_id=casino)
                   .values_list("role", flat=True))
    asked = request.headers.get("X-Casino-Role")
    if asked:
        if asked not in roles:
            raise NotAllowed("this action is not for the {asked} role "
                             "(it needs one of: {roles})",
                             params={"asked": asked, "roles": ', '.join(roles)})
        if asked not in held:
            raise NotAllowed("you are not a {asked} in casino {casino!r}",
                             params={"asked": asked, "casino": casino})
        return asked
    for role in roles:
        if role in held:
            return role
    raise NotAllowed("you need one of these roles in casino {casino!r}: {roles}",
                     params={"casino": casino, "roles": ', '.join(roles)})


def remember_roles(request: Request, casino: str, roles: Iterable[str]) -> None:
    """The roles the user holds in ``casino``, read already with the object the request names
    (one statement for both): ``acting_role`` uses them instead of asking again."""
    request.casino_roles = (casino, frozenset(roles))  # type: ignore[attr-defined]


def request_metadata(request: Request, casino: str, roles: Sequence[str]) -> Metadata:
    role = acting_role(request, casino, roles)
    key = request.headers.get(IDEMPOTENCY_HEADER, "").strip()
    if len(key) > 200:
        raise InvalidCommand("the Idempotency-Key header is longer than 200 characters")
    return person_metadata(
        username=request.user.get_username(),
        role=role,
        casino=casino,
        request_id=request.headers.get("X-Request-Id", "") or uuid.uuid4().hex,
        idempotency_key=key,
        correlation_id=request.headers.get("X-Correlation-Id", ""),
    )


class CommandApi(APIView):
    """Base of the command APIs of every app: the input's shape (``InputSerializer``), the role
    and the metadata, then one service call (``command``); 201 with its answer. Each app's base
    names the roles that may call it (``roles``); a refusal is the one error body
    (``edge.api.errors``)."""

    roles: ClassVar[tuple[str, ...]] = ()
    # the answer's type (a frozen dataclass): its schema is the operation's 201 response
    answer: ClassVar[type | None] = None

    class InputSerializer(serializers.Serializer[Any]):
        pass

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: Any) -> Any:
        """The service's answer: a frozen dataclass of type ``answer`` (sent as its fields)."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give each command's POST its own schema (its input serializer) in the OpenAPI."""
        super().__init_subclass__(**kwargs)

        def post(self: CommandApi, request: Request, casino: str, **kw: Any) -> Response:
            return self.run(request, casino, **kw)

        post.__doc__ = cls.__doc__
        # the OpenAPI component is named after the operation (``ChipsSellInput``)
        named = type(f"{cls.__name__.removesuffix('Api')}InputSerializer",
                     (cls.InputSerializer,), {"__module__": cls.__module__})
        answer = answer_serializer(cls.answer) if cls.answer is not None else dict
        cls.post = extend_schema(request=named,  # type: ignore[method-assign]
                                 responses={201: answer})(post)

    def post(self, request: Request, casino: str, **kwargs: Any) -> Response:
        return self.run(request, casino, **kwargs)

    def run(self, request: Request, casino: str, **kwargs: Any) -> Response:
        metadata = request_metadata(request, casino, self.roles)
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        result = self.command(dict(params.validated_data), metadata,
                              **{k: str(v) for k, v in kwargs.items()})
        return Response(as_data(result), status=status.HTTP_201_CREATED)
