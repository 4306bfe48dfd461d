"""``makemessages`` that also collects the refusals' templates.

The services, the pit's rules and the rules engine raise their refusals in English templates
(``casino.errors``: ``raise InvalidCommand("there is no table {code}", params=...)``); the pure
cores cannot call Django's gettext, so xgettext is told the raise helpers' names as keywords, as
Django documents for a custom ``makemessages`` ("Customizing the makemessages command"). The
screens translate them at the edge (``edge.web.refusals``). A template kept in a constant is
marked with ``casino.errors.gettext_noop``, which xgettext already knows.
"""

from __future__ import annotations

from django.core.management.commands import makemessages

# The first argument is the message, except for the two errors that take a code first.
REFUSALS = ("DomainError", "InvalidCommand", "NotFound", "NotAllowed", "Conflict",
            "ConcurrentChange", "Unavailable", "Words",
            # games.rules.errors, games.rules.bets, games.limits
            "invalid", "conflict", "over_limit", "LimitError",
            # games.engine.errors
            "invalid_option", "invalid_outcome", "invalid_bet", "malformed", "unknown_game",
            # ledger.tax_rules
            "ParameterError")
CODE_FIRST = ("RuleError", "RoundError")


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        *(f"--keyword={name}" for name in REFUSALS),
        *(f"--keyword={name}:2" for name in CODE_FIRST),
        "--keyword=pgettext_noop:1c,2",  # casino.errors.pgettext_noop
    ]

    def handle(self, *args: object, **options: object) -> None:
        # The tests raise refusals of their own (made-up messages): they are no page's words.
        ignored = options.get("ignore_patterns")
        options["ignore_patterns"] = [*(ignored if isinstance(ignored, list) else []),
                                      "tests/*", "bench/*"]
        super().handle(*args, **options)
