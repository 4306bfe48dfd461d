"""One error family for every refusal, mapped to HTTP by one exception handler.

``code`` is what a program acts on; ``message`` says what was wrong in words a cashier or a pit
boss understands; ``extra`` carries the details (the field, the article of the regulation...).

A message is written as a template with ``{name}`` placeholders and its values in ``params``:
``message`` is the English text (what the API answers, beside ``code``), ``template`` and
``params`` are what a screen translates into the page's language (``edge.web.refusals``). The
templates are collected into the catalogue by ``makemessages`` (``casino/management/commands/
makemessages.py`` names the raise helpers as keywords); a template kept in a constant is marked
with :func:`gettext_noop`, which pure code may call too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def gettext_noop(message: str) -> str:
    """Mark a message for the catalogue and return it unchanged (Django's ``gettext_noop``,
    without Django, so that the pure cores can mark theirs): it is translated where it is shown."""
    return message


def fill(template: str, params: dict[str, Any] | None) -> str:
    """A template with its values: ``str.format`` when there are values, the template as it is
    when there are none (a message without placeholders may hold a brace)."""
    return template if params is None else template.format(**params)


class Words(str):
    """A text built from a template and its values: the English text itself (a ``str``, as
    stored, compared and written to files), keeping ``template`` and ``params`` so that a screen
    says it in its language (``edge.web.refusals.said``), as a refusal's message is."""

    template: str
    params: dict[str, Any] | None
    context: str | None = None  # the catalogue's context of ``template`` (pgettext), if any

    def __new__(cls, template: str, **params: Any) -> Words:
        text = super().__new__(cls, fill(template, params or None))
        text.template, text.params = template, params or None
        return text

    @classmethod
    def stored_as(cls, stored: str, template: str, *, context: str | None = None,
                  **params: Any) -> Words:
        """A text stored as ``stored`` (a code kept in an older English text, ``blind_count``)
        that a screen says by ``template`` ("blind count"), in the catalogue's ``context``."""
        text = str.__new__(cls, stored)
        text.template, text.params, text.context = template, params or None, context
        return text

    def as_data(self) -> dict[str, Any]:
        """The template and its values as JSON keeps them: a value that is itself ``Words`` by
        its own data, any other as its text; ``text`` when the text is not the template filled."""
        params = {name: value.as_data() if isinstance(value, Words) else str(value)
                  for name, value in (self.params or {}).items()}
        data: dict[str, Any] = {"template": self.template, "params": params}
        if str(self) != fill(self.template, self.params):
            data["text"] = str(self)
        if self.context:
            data["context"] = self.context
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], text: str | None = None) -> Words:
        """``as_data``'s words again (``text``: the English as stored, which wins)."""
        params = {name: cls.from_data(value) if isinstance(value, dict) else str(value)
                  for name, value in dict(data.get("params") or {}).items()}
        template = str(data["template"])
        stored = text if text is not None else data.get("text")
        context = data.get("context")
        if stored is None and context is None:
            return cls(template, **params)
        return cls.stored_as(fill(template, params or None) if stored is None else str(stored),
                             template, context=context, **params)


def pgettext_noop(context: str, message: str) -> str:
    """:func:`gettext_noop` with the catalogue's ``context`` (``makemessages`` knows it)."""
    return message


# A status inside a refusal's words, by its label under the context of its kind (the screens'
# labels of shifts and slips are the same entries): "o turno X está aberto", never "está open";
# each context says it in the gender of its thing in Portuguese (a report is feminine).
STATUS_WORDS: dict[str, dict[str, str]] = {
    "shift status": {"open": pgettext_noop("shift status", "open"),
                     "counted": pgettext_noop("shift status", "counted"),
                     "closed": pgettext_noop("shift status", "closed")},
    "slip status": {"requested": pgettext_noop("slip status", "requested"),
                    "issued": pgettext_noop("slip status", "issued by the cage"),
                    "received": pgettext_noop("slip status", "received by the cage"),
                    "refused": pgettext_noop("slip status", "refused by the cage"),
                    "voided": pgettext_noop("slip status", "voided")},
    "adjustment status": {"approved": pgettext_noop("adjustment status", "approved"),
                          "rejected": pgettext_noop("adjustment status", "rejected")},
    "slip kind": {"fill": pgettext_noop("slip kind", "fill"),
                  "credit": pgettext_noop("slip kind", "credit")},
    "report status": {"drafted": pgettext_noop("report status", "drafted"),
                      "reviewed": pgettext_noop("report status", "reviewed"),
                      "sent": pgettext_noop("report status", "sent")},
}


# A kind (a code a form or the API sends) inside a refusal's words, by its label under the
# context of its kind, as ``STATUS_WORDS``: "cheque 123 was issued already (jackpot payout ...)",
# never "(jackpot ...)"; "the drop is the drop box as counted ..., not 'x'" (issue 36).
KIND_WORDS: dict[str, dict[str, str]] = {
    "cheque kind": {"redemption": pgettext_noop("cheque kind", "redemption"),
                    "jackpot": pgettext_noop("cheque kind", "jackpot payout")},
    "drop basis": {"counted": pgettext_noop("drop basis", "the drop box as counted at the close"),
                   "recorded": pgettext_noop("drop basis", "the cash recorded at the table")},
    "hand pay kind": {"jackpot": pgettext_noop("hand pay kind", "a jackpot"),
                      "cancelled_credits": pgettext_noop("hand pay kind", "cancelled credits")},
    "meter reset kind": {"rollover": pgettext_noop("meter reset kind", "a rollover"),
                         "ram_clear": pgettext_noop("meter reset kind", "a RAM clear")},
    "meter source": {"sds": pgettext_noop("meter source", "by the slot data system"),
                     "file": pgettext_noop("meter source", "from a file"),
                     "hand": pgettext_noop("meter source", "by hand")},
    "ticket place": {"machine": pgettext_noop("ticket place", "at a machine"),
                     "cage": pgettext_noop("ticket place", "at the cage"),
                     "kiosk": pgettext_noop("ticket place", "at a kiosk")},
    "cage kind": {"main": pgettext_noop("cage kind", "main cage"),
                  "window": pgettext_noop("cage kind", "cashier window"),
                  "vault": pgettext_noop("cage kind", "vault")},
    "tip period": {"month": pgettext_noop("tip period", "month"),
                   "day": pgettext_noop("tip period", "day")},
    "tournament entry": {"rebuy": pgettext_noop("tournament entry", "re-buy"),
                         "addon": pgettext_noop("tournament entry", "add-on")},
    "identification place": {"cage": pgettext_noop("identification place", "at the cage"),
                             "entrance": pgettext_noop("identification place",
                                                       "at the entrance"),
                             "table": pgettext_noop("identification place", "at a table")},
    "misplacement": {"drop_to_tips": pgettext_noop("misplacement",
                                                   "a tip found in the drop box"),
                     "tips_to_drop": pgettext_noop("misplacement",
                                                   "a drop found in the tip box")},
    "poker charge": {"rake": pgettext_noop("poker charge", "a rake"),
                     "time_charge": pgettext_noop("poker charge", "a time charge")},
}
# A list of choices in words: "{c0} or {c1}", "{c0}, {c1} or {c2}"... (each said in the page's
# language; the catalogue has each length up to six).
CHOICES = {2: gettext_noop("{c0} or {c1}"), 3: gettext_noop("{c0}, {c1} or {c2}"),
           4: gettext_noop("{c0}, {c1}, {c2} or {c3}"),
           5: gettext_noop("{c0}, {c1}, {c2}, {c3} or {c4}"),
           6: gettext_noop("{c0}, {c1}, {c2}, {c3}, {c4} or {c5}")}


def status_words(status: object, of: str, stored: object = None) -> Words | str:
    """``status`` (a code) of a thing ``of`` ("shift status"), as a refusal's value: its text
    ``stored`` (the code by default) in English, its label on a screen."""
    code = str(status)
    label = STATUS_WORDS.get(of, {}).get(code)
    text = code if stored is None else str(stored)
    return Words.stored_as(text, label, context=of) if label else text


def kind_words(kind: object, of: str, labels: dict[str, str] | None = None) -> Words | str:
    """``kind`` (a code) of a thing ``of`` ("cheque kind"), as a refusal's value: its label in
    English and on a screen in the page's language; a code without a label as it is. The label
    is ``KIND_WORDS[of]``'s or ``STATUS_WORDS[of]``'s (the catalogue's context ``of``), or an
    area's own ``labels`` (catalogue entries without a context)."""
    code = str(kind)
    context: str | None = of
    if labels is None:
        labels = {**STATUS_WORDS.get(of, {}), **KIND_WORDS.get(of, {})}
    else:
        context = None
    label = labels.get(code)
    return Words.stored_as(label, label, context=context) if label else code


def choice_words(kinds: Iterable[object], of: str, labels: dict[str, str] | None = None
                 ) -> Words | str:
    """The choices ``kinds`` (codes) of a thing ``of`` in words, "a jackpot or cancelled
    credits", each by :func:`kind_words`."""
    said = [kind_words(k, of, labels) for k in kinds]
    if len(said) == 1:
        return said[0]
    template = CHOICES.get(len(said)) or ", ".join(f"{{c{i}}}" for i in range(len(said)))
    return Words(template, **{f"c{i}": w for i, w in enumerate(said)})


class DomainError(Exception):
    code = "invalid"
    http_status = 400

    def __init__(self, message: str, *, code: str | None = None,
                 params: dict[str, Any] | None = None, **extra: Any) -> None:
        self.template = message
        self.params = params
        self.message = fill(message, params)
        super().__init__(self.message)
        if code is not None:
            self.code = code
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "extra": self.extra}

    def as_result(self) -> dict[str, Any]:
        """The refusal as a task's result keeps it (JSON): the API's body, and the template with
        its values as text (a value that is ``Words`` by its ``as_data``), so a page following
        the task says it in its language."""
        params = None if self.params is None else {
            k: v.as_data() if isinstance(v, Words) else str(v) for k, v in self.params.items()}
        return {**self.as_dict(), "template": self.template, "params": params}


class InvalidCommand(DomainError):
    """The request itself is wrong (bad amount, unknown denomination, impossible outcome)."""

    code = "invalid"
    http_status = 400


class NotFound(DomainError):
    code = "not_found"
    http_status = 404


class NotAllowed(DomainError):
    """The person may not do this (role, four eyes)."""

    code = "not_allowed"
    http_status = 403


class Conflict(DomainError):
    """The state does not allow it now (closed session, settled round, someone else was first)."""

    code = "conflict"
    http_status = 409


class CasinoMoved(DomainError):
    """The casino moved to another cell (``cells_move``, docs/cells.md § Moving a casino): this
    cell records no more of its events, and nothing of this request was recorded. The answer is
    a 410 (Gone): the request goes to the cell named, not here again."""

    code = "casino_moved"
    http_status = 410

    def __init__(self, casino: str, cell: str) -> None:
        super().__init__(gettext_noop("casino {casino!r} has moved to cell {cell!r}: this cell "
                                      "records no more of its events and nothing was recorded; "
                                      "send it to that cell"),
                         params={"casino": casino, "cell": cell}, casino=casino, cell=cell)


class ConcurrentChange(Conflict):
    """Another command changed the same records at the same moment and PostgreSQL stopped this
    one (a deadlock or a serialization failure). Nothing was recorded; sending it again works."""

    code = "concurrent_change"

    def __init__(self, message: str = "", **extra: Any) -> None:
        super().__init__(message or gettext_noop(
            "someone else recorded on the same records at the same time; nothing of yours was "
            "recorded: try again"), retryable=True, **extra)


class Unavailable(DomainError):
    """The database cannot be reached (restarting, failed over, overloaded). Nothing of this
    request was recorded; sending it again in a few seconds works."""

    code = "unavailable"
    http_status = 503

    def __init__(self, message: str = "", **extra: Any) -> None:
        super().__init__(message or gettext_noop(
            "the books cannot be reached just now; nothing of yours was recorded: try again in a "
            "few seconds"), retryable=True, **extra)


# Seconds a client waits before sending a refused request again (the Retry-After header).
RETRY_AFTER = {ConcurrentChange.code: 1, Unavailable.code: 5}


# PostgreSQL's SQLSTATEs for "your transaction lost a race; run it again".
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})  # deadlock_detected, serialization_failure


def is_retryable(error: BaseException) -> bool:
    """Whether a database error (Django's, or the driver's under it) is a lost race."""
    for candidate in (error, error.__cause__, error.__context__):
        if getattr(candidate, "sqlstate", None) in RETRYABLE_SQLSTATES:
            return True
    return False


# numeric_value_out_of_range: a figure too large for its column (a total grown over many
# movements; a single amount or count is refused at the edge first, ``casino.money``).
OUT_OF_RANGE_SQLSTATES = frozenset({"22003"})
TOO_LARGE = gettext_noop("a figure of this command is larger than the books can hold (a total or "
                                     "a number of pieces): nothing was recorded")


def is_out_of_range(error: BaseException) -> bool:
    """Whether a database error is a figure too large for its column."""
    for candidate in (error, error.__cause__, error.__context__):
        if getattr(candidate, "sqlstate", None) in OUT_OF_RANGE_SQLSTATES:
            return True
    return False


# A moved casino's event refused by its old cell's trigger (cells/migrations/0004): a code of
# its own, the cell it moved to as the error's DETAIL.
MOVED_SQLSTATE = "CM410"


def moved_to(error: BaseException) -> str | None:
    """The cell a casino moved to, when a database error is its old cell refusing its event."""
    for candidate in (error, error.__cause__, error.__context__):
        if getattr(candidate, "sqlstate", None) == MOVED_SQLSTATE:
            diag = getattr(candidate, "diag", None)
            return str(getattr(diag, "message_detail", None) or "")
    return None
