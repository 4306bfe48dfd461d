"""The refusal of a poker-room rule, in plain values (no Django, no platform code).

As the pit's ``games.rules.errors``: ``code`` names the rule broken, ``message`` is ``template``
filled with ``params`` (``{name}`` placeholders), ``extra`` travels with it. The services turn a
:class:`RuleError` into the platform's ``InvalidCommand`` with the same code and words
(``pokerroom.services._common.refused``); this package knows nothing of the platform's errors.
"""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A rule of the poker room refused: ``code`` is the rule, the message names its número."""

    code: str
    message: str
    template: str
    params: dict[str, Any]
    extra: dict[str, Any]

    def __init__(self, code: str, template: str, params: dict[str, Any] | None = None,
                 **extra: Any) -> None:
        self.code = code
        self.template = template
        self.params = dict(params or {})
        self.message = template.format(**self.params)
        self.extra = extra
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
