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

from casino.errors import InvalidCommand, NotAllowed, Words, gettext_noop

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
            params={"code": code, "label": Words(self.label),
                    "value": listed_words([Words(r.label) for r in self.reasons])},
            field="reason")


def kind(name: str, label: str, reasons: Iterable[tuple[str, str]], *,
         request_roles: Iterable[str], approve_roles: Iterable[str]) -> Kind:
    listed = tuple(Reason(code, text) for code, text in reasons)
    if not listed:
        raise ValueError(f"approval kind {name} lists no reasons")
    return Kind(name, label, listed, frozenset(request_roles), frozenset(approve_roles))


# The roles by the names people read (``casino.models.Role``'s labels, the catalogue's context
# "role"): a refusal names them so, never by their codes (issue 36). This module stays pure.
ROLE_NAMES = {"cashier": "Cashier", "cage_supervisor": "Cage supervisor", "pit_boss": "Pit boss",
              "accountant": "Accountant", "regulator": "Regulator",
              "compliance_officer": "Compliance officer", "administrator": "Administrator"}


def role_words(role: str) -> Words:
    name = ROLE_NAMES.get(role)
    if name is None:
        return Words(role or gettext_noop("nobody"))
    return Words.stored_as(name, name, context="role")


def listed_words(names: list[Words]) -> Words:
    """Phrases one after the other, each said in the page's language."""
    return Words(", ".join(f"{{r{i}}}" for i in range(len(names))),
                 **{f"r{i}": n for i, n in enumerate(names)})


def roles_words(roles: Iterable[str]) -> Words:
    """``accountant, administrator`` as "Accountant, Administrator", each in the page's language."""
    return listed_words([role_words(r)
                         for r in sorted(roles, key=lambda r: ROLE_NAMES.get(r, r))])


def check_request(kind: Kind, *, role: str, reason: str, explanation: str) -> tuple[str, str]:
    """The reason's code and the words, checked; refuses a role that may not ask."""
    if role not in kind.request_roles:
        raise NotAllowed("asking for {label} needs one of these roles: "
                         "{request_roles} (you act as {value})",
                         params={"label": Words(kind.label),
                                 "request_roles": roles_words(kind.request_roles),
                                 "value": role_words(role)})
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
                         params={"label": Words(kind.label),
                                 "approve_roles": roles_words(kind.approve_roles),
                                 "value": role_words(role)})
    if actor == requested_by:
        raise NotAllowed(OWN_REQUEST, code="four_eyes")
