"""Four eyes, recorded: a change after the fact is asked for, then approved (and applied) or
refused by another person.

An approval procedure is a pair of commands: ``approval_request`` (the first person) and
``approval_grant`` (the second), with ``approval_refuse`` and ``approval_withdraw`` beside them.
Each kind of change registers its two steps here (``procedure(KIND, prepare=…, apply=…)``), from
its own app's services; both are in-command helpers (``eventstore.commands.in_command``), never
commands of their own. ``prepare``, a step of ``approval_request``, checks the request (the thing
exists in this casino, it needs an approval now) and says what will happen; ``apply``, a step of
``approval_grant``, records the change itself, with the approval's id, when the second person
approves. Applying runs inside the approval's unit of work: if the change is refused at that
moment (the thing moved on meanwhile), the approval is not recorded either.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from casino import approvals as rules
from casino.answers import ApprovalAnswer
from casino.errors import Conflict, InvalidCommand, NotAllowed, NotFound, Words
from casino.events import ApprovalGranted, ApprovalRefused, ApprovalRequested, ApprovalWithdrawn
from casino.models import Approval, ApprovalStatus
from eventstore import store
from eventstore.answers import as_data
from eventstore.commands import command, in_command
from eventstore.records import Metadata


@dataclass(frozen=True)
class Prepared:
    """What a request will change, as its kind's ``prepare`` worked it out."""

    subject: str
    summary: str
    amount: Decimal | None = None
    details: dict[str, Any] = field(default_factory=dict)  # JSON values, no personal data
    # a patron's personal data the request is about: whole values (a document's number, a date
    # of birth, an address) and names, whose every word of four letters or more counts; the
    # request's free text (its explanation), which goes into an event, must not repeat them
    private: tuple[str, ...] = ()
    private_names: tuple[str, ...] = ()


# the step of ``approval_request``: (subject, details, metadata) -> what will change
Prepare = Callable[[str, Mapping[str, Any], Metadata], Prepared]
# the step of ``approval_grant``: (the approval, metadata) -> the change's answer (a dataclass
# of the kind's, or a mapping)
Apply = Callable[[Approval, Metadata], Any]


@dataclass(frozen=True)
class Procedure:
    """A kind of change and its two steps, each run inside its command of the pair."""

    kind: rules.Kind
    prepare: Prepare
    apply: Apply
    # the request's summary in the page's language (the stored one is English), if the kind
    # says it; None: the stored summary
    said: Callable[[Approval], str] | None = None


PROCEDURES: dict[str, Procedure] = {}


def procedure(kind: rules.Kind, *, prepare: Prepare, apply: Apply,
              said: Callable[[Approval], str] | None = None) -> rules.Kind:
    """Register ``kind``'s two steps; each runs only inside its command (``in_command``)."""
    if kind.name in PROCEDURES and PROCEDURES[kind.name].kind != kind:
        raise TypeError(f"approval kind {kind.name} is registered twice")
    PROCEDURES[kind.name] = Procedure(kind, in_command(prepare), in_command(apply), said)
    return kind


def approval_said(approval: Approval) -> str:
    """What ``approval`` asks for, as a screen shows it: in the page's language where its kind
    says it (``procedure(said=...)``), else its stored summary."""
    found = PROCEDURES.get(approval.kind)
    return found.said(approval) if found is not None and found.said is not None else (
        approval.summary)


def procedure_of(kind: str) -> Procedure:
    found = PROCEDURES.get(kind)
    if found is None:
        raise InvalidCommand("{kind!r} is not something that is approved: one of "
                             "{procedures}",
                             params={"kind": kind, "procedures": rules.listed_words(
                                 [Words(PROCEDURES[k].kind.label) for k in sorted(PROCEDURES)])},
                             field="kind")
    return found


def _approval(metadata: Metadata, approval_id: object) -> Approval:
    try:
        key = uuid.UUID(str(approval_id))
    except ValueError:
        raise InvalidCommand("{approval_id!r} is not an approval id",
                             params={"approval_id": approval_id}, field="approval") from None
    found = Approval.objects.filter(id=key, casino_id=metadata.casino).first()
    if found is None:
        raise NotFound("there is no approval {approval_id} in {casino}",
                       params={"approval_id": approval_id, "casino": metadata.casino})
    return found


def _still_open(approval: Approval) -> None:
    if approval.status != ApprovalStatus.REQUESTED:
        who = f" by {approval.decided_by}" if approval.decided_by else ""
        raise Conflict("this request was {approval} already{who}",
                       params={"approval": approval.get_status_display().lower(), "who": who},
                       code="approval_decided")


def _answer(approval_id: str, status: str, kind: str, subject: str, *, summary: str | None = None,
            applied: Any = None) -> ApprovalAnswer:
    return ApprovalAnswer(approval_id=approval_id, status=status, kind=kind, subject=subject,
                          summary=summary, applied=as_data(applied))


@command("approval_request")
def approval_request(*, kind: str, subject: str, reason: str, explanation: str,
                     metadata: Metadata, details: Mapping[str, Any] | None = None) -> ApprovalAnswer:
    """Ask for a change after the fact; nothing moves until another person approves."""
    found = procedure_of(kind)
    code, words = rules.check_request(found.kind, role=metadata.role, reason=reason,
                                      explanation=explanation)
    prepared = found.prepare(str(subject or ""), dict(details or {}), metadata)
    if _repeats(words, prepared.private, prepared.private_names):
        raise InvalidCommand("the explanation repeats the patron's personal data (a name, a "
                             "document's number, a date or an address): it is recorded in an "
                             "event that is never erased; say what kind of evidence was seen, "
                             "without names or numbers", field="explanation")
    waiting = Approval.objects.filter(casino_id=metadata.casino, kind=kind,
                                      subject=prepared.subject,
                                      status=ApprovalStatus.REQUESTED).first()
    if waiting is not None:
        raise Conflict("{label} of {subject} is awaiting approval already "
                       "(asked by {requested_by})",
                       params={"label": Words(found.kind.label), "subject": prepared.subject, "requested_by": waiting.requested_by}, code="approval_pending",
                       approval=str(waiting.id))
    approval_id = str(uuid.uuid4())
    store.append(f"approval/{approval_id}", [ApprovalRequested(
        approval_id=approval_id, casino=metadata.casino, kind=kind, subject=prepared.subject,
        reason=code, explanation=words, summary=prepared.summary, amount=prepared.amount,
        details=prepared.details)], expected_version=0, metadata=metadata)
    return _answer(approval_id, ApprovalStatus.REQUESTED, kind, prepared.subject,
                   summary=prepared.summary)


def _folded(text: str) -> str:
    """Letters and digits only, lower case: "12 345 678-ZZ" and "12345678zz" are the same."""
    return "".join(c for c in text.casefold() if c.isalnum())


def _repeats(explanation: str, private: tuple[str, ...], names: tuple[str, ...]) -> bool:
    """Whether ``explanation`` holds one of the private values whole, or begins a word with a
    word of four letters or more of one of the names."""
    said = _folded(explanation)
    words = {_folded(w) for w in explanation.split()}
    if any(len(_folded(v)) >= 4 and _folded(v) in said for v in private):
        return True
    parts = {_folded(w) for name in names for w in name.split()} - {""}
    return any(said_word.startswith(part) for part in parts if len(part) >= 4
               for said_word in words)  # "Maria's" names Maria


@command("approval_grant")
def approval_grant(*, approval_id: str, metadata: Metadata, note: str = "") -> ApprovalAnswer:
    """Another person, in an approving role, approves: the change is recorded now."""
    approval = _approval(metadata, approval_id)
    _still_open(approval)
    found = procedure_of(approval.kind)
    rules.check_decider(found.kind, requested_by=approval.requested_by, actor=metadata.actor,
                        role=metadata.role)
    applied = found.apply(approval, metadata)
    store.append(approval.stream, [ApprovalGranted(
        approval_id=str(approval.id), kind=approval.kind, subject=approval.subject,
        note=" ".join(str(note or "").split()))], expected_version=approval.version,
        metadata=metadata)
    return _answer(str(approval.id), ApprovalStatus.GRANTED, approval.kind, approval.subject,
                   applied=applied)


@command("approval_refuse")
def approval_refuse(*, approval_id: str, note: str, metadata: Metadata) -> ApprovalAnswer:
    approval = _approval(metadata, approval_id)
    _still_open(approval)
    found = procedure_of(approval.kind)
    rules.check_decider(found.kind, requested_by=approval.requested_by, actor=metadata.actor,
                        role=metadata.role)
    words = " ".join(str(note or "").split())
    if not words:
        raise InvalidCommand("say why the request is refused", field="note")
    store.append(approval.stream, [ApprovalRefused(
        approval_id=str(approval.id), kind=approval.kind, subject=approval.subject,
        note=words)], expected_version=approval.version, metadata=metadata)
    return _answer(str(approval.id), ApprovalStatus.REFUSED, approval.kind, approval.subject)


@command("approval_withdraw")
def approval_withdraw(*, approval_id: str, metadata: Metadata, note: str = "") -> ApprovalAnswer:
    """The person who asked takes it back (nobody else may)."""
    approval = _approval(metadata, approval_id)
    _still_open(approval)
    if metadata.actor != approval.requested_by:
        raise NotAllowed("only {requested_by}, who asked, may withdraw this request",
                         params={"requested_by": approval.requested_by},
                         code="not_requester")
    store.append(approval.stream, [ApprovalWithdrawn(
        approval_id=str(approval.id), kind=approval.kind, subject=approval.subject,
        note=" ".join(str(note or "").split()))], expected_version=approval.version,
        metadata=metadata)
    return _answer(str(approval.id), ApprovalStatus.WITHDRAWN, approval.kind, approval.subject)
