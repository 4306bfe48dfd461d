"""Four eyes: money that moves after the fact needs a second person, with a reason.

A *kind* of approval names what is approved (a round voided after its outcome, a slip added to a
closed session, a jackpot meter corrected, a table variance...), the reasons a person may give
(a code from the kind's list, plus words), the roles that may ask and the roles that may approve.
The person who asks is the one logged in; the one who approves is another person, in one of the
approving roles. ``docs/approvals.md`` lists every kind.

Pure: no Django. ``casino.services.approvals`` records requests and decisions as events and runs
the approved change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from casino.errors import InvalidCommand, NotAllowed, gettext_noop

MAX_EXPLANATION = 2000

# Messages tests and screens rely on.
OWN_REQUEST = gettext_noop("you asked for this: another person must approve it (four eyes)")
NO_EXPLANATION = gettext_noop("say in words what happened (the reason's code alone is not enough)")


@dataclass(frozen=True)
class Reason:
    code: str
    label: str


@dataclass(frozen=True)
class Kind:
    """What one kind of approval is about, and who takes part in it."""

    name: str
    label: str
    reasons: tuple[Reason, ...]
    request_roles: frozenset[str]
    approve_roles: frozenset[str]

    def reason(self, code: str) -> Reason:
        for reason in self.reasons:
            if reason.code == code:
                return reason
        raise InvalidCommand(
            "{code!r} is not a reason for {label}: choose one of "
            "{value}",
            params={"code": code, "label": self.label, "value": ', '.join(r.code for r in self.reasons)}, field="reason")


def kind(name: str, label: str, reasons: Iterable[tuple[str, str]], *,
         request_roles: Iterable[str], approve_roles: Iterable[str]) -> Kind:
    listed = tuple(Reason(code, text) for code, text in reasons)
    if not listed:
        raise ValueError(f"approval kind {name} lists no reasons")
    return Kind(name, label, listed, frozenset(request_roles), frozenset(approve_roles))


def check_request(kind: Kind, *, role: str, reason: str, explanation: str) -> tuple[str, str]:
    """The reason's code and the words, checked; refuses a role that may not ask."""
    if role not in kind.request_roles:
        raise NotAllowed("asking for {label} needs one of these roles: "
                         "{request_roles} (you act as {value})",
                         params={"label": kind.label, "request_roles": ', '.join(sorted(kind.request_roles)), "value": role or 'nobody'})
    code = kind.reason(str(reason or "")).code
    words = " ".join(str(explanation or "").split())
    if not words:
        raise InvalidCommand(NO_EXPLANATION, field="explanation")
    if len(words) > MAX_EXPLANATION:
        raise InvalidCommand("the explanation is longer than {max_explanation} characters",
                             params={"max_explanation": MAX_EXPLANATION},
                             field="explanation")
    return code, words


def check_decider(kind: Kind, *, requested_by: str, actor: str, role: str) -> None:
    """The one who approves or refuses: another person, in an approving role."""
    if role not in kind.approve_roles:
        raise NotAllowed("approving {label} needs one of these roles: "
                         "{approve_roles} (you act as {value})",
                         params={"label": kind.label, "approve_roles": ', '.join(sorted(kind.approve_roles)), "value": role or 'nobody'})
    if actor == requested_by:
        raise NotAllowed(OWN_REQUEST, code="four_eyes")
