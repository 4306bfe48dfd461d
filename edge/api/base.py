"""What every command API shares: who is acting, in which role, with which idempotency key.

A command API names the roles that may call it. The caller says which casino it acts in (URL
or body) and may send an ``Idempotency-Key`` header; the metadata of the events it records
then carries the user, the role they act in, the casino, the request id and that key.
``CommandApi`` is the one base of every command endpoint (the cage's, the pit's, the
compliance officer's, ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.context import person_metadata
from casino.errors import InvalidCommand, NotAllowed
from casino.selectors import roles_in
from edge.bounds import request_token, scoped_key, text_refusal
from eventstore.answers import as_data
from eventstore.records import Metadata

from .schema import answer_serializer

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY = OpenApiParameter(IDEMPOTENCY_HEADER, str, OpenApiParameter.HEADER,
                               description="a retry with the same key answers as the first "
                                           "time and records nothing")


def acting_role(request: Request, casino: str, roles: Sequence[str]) -> str:
    """The role in which the user may act here, or NotAllowed naming what is missing."""
    user = request.user
    if not user.is_authenticated:
        raise NotAllowed("log in first")
    remembered = getattr(request, "casino_roles", None)
    if remembered is not None and remembered[0] == casino:
        held = set(remembered[1])
    else:
        held = roles_in(user, casino)
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
    if text_refusal(key):
        raise InvalidCommand("the Idempotency-Key header {why}",
                             params={"why": text_refusal(key)})
    return person_metadata(
        username=request.user.get_username(),
        role=role,
        casino=casino,
        # a client's ids kept if short tokens, else fresh ones (edge.bounds.request_token)
        request_id=request_token(request.headers.get("X-Request-Id")),
        idempotency_key=scoped_key(request.user.pk, key),
        correlation_id=(request_token(request.headers["X-Correlation-Id"])
                        if request.headers.get("X-Correlation-Id") else ""),
    )


class CommandApi(APIView):
    """The one base of the command endpoints of every app: the casino (``casino``), the role
    and the metadata, the input's shape (``InputSerializer``), then one service call
    (``command``); 201 with its answer (200 where ``created`` is False: a change to something
    that exists, as the pit's). Each app's base names the roles that may call it (``roles``);
    ``answer`` is the answer's type, whose schema the OpenAPI publishes; a refusal is the one
    error body (``edge.api.errors``). An operation without an ``InputSerializer`` of its own takes no body.
    """

    roles: ClassVar[tuple[str, ...]] = ()
    created: ClassVar[bool] = True
    # the answer's type (a frozen dataclass): its schema is the operation's response (every
    # operation names one; the bases that name none route nothing)
    answer: ClassVar[type | None] = None

    class InputSerializer(serializers.Serializer[Any]):
        pass

    def casino(self, request: Request, **kwargs: Any) -> str:
        """The casino the command acts in: the URL's, unless the operation reads it from the
        thing the URL names (the pit's session or round)."""
        return str(kwargs["casino"])

    def acting_roles(self, request: Request, **kwargs: Any) -> Sequence[str]:
        """The roles that may call it: ``roles``, unless they depend on what is asked (an
        approval's kind decides who may ask and who may decide)."""
        return self.roles

    def command(self, data: dict[str, Any], metadata: Metadata, **kwargs: str) -> Any:
        """The service's answer: a frozen dataclass of type ``answer`` (sent as its fields)."""
        raise NotImplementedError

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give each command's POST its own schema (its input, its answer) in the OpenAPI."""
        super().__init_subclass__(**kwargs)

        def post(self: CommandApi, request: Request, **kw: Any) -> Response:
            return self.run(request, **kw)

        post.__doc__ = cls.__doc__
        # the OpenAPI component is named after the operation (``ChipsSellApiInput``), as every
        # nested serializer is (``edge.api.schema``), even when the input is shared
        named = (None if cls.InputSerializer is CommandApi.InputSerializer else
                 type("InputSerializer", (cls.InputSerializer,),
                      {"__module__": cls.__module__,
                       "__qualname__": f"{cls.__qualname__}.InputSerializer"}))
        answered = status.HTTP_201_CREATED if cls.created else status.HTTP_200_OK
        answer = answer_serializer(cls.answer) if cls.answer is not None else dict
        cls.post = extend_schema(  # type: ignore[method-assign]
            request=named, responses={answered: answer}, parameters=[IDEMPOTENCY])(post)

    def post(self, request: Request, **kwargs: Any) -> Response:
        return self.run(request, **kwargs)

    def run(self, request: Request, **kwargs: Any) -> Response:
        casino = self.casino(request, **kwargs)
        metadata = request_metadata(request, casino, self.acting_roles(request, **kwargs))
        params = self.InputSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        result = self.command(dict(params.validated_data), metadata,
                              **{k: str(v) for k, v in kwargs.items() if k != "casino"})
        return Response(as_data(result), status=status.HTTP_201_CREATED if self.created
                        else status.HTTP_200_OK)
