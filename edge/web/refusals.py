"""A refusal, in words a person reads in the page's language.

The services say what was wrong in English (``DomainError.message``, what the API answers beside
the machine ``code``), from a template with ``{name}`` placeholders and its values
(``DomainError.template`` and ``params``, ``casino.errors``). A screen shows the template
translated by the catalogue and filled with the same values; a template the catalogue lacks, or a
translation whose placeholders do not fit, falls back to the English message. A value that is
itself :class:`casino.errors.Words` (a phrase a service marked) is shown translated too; any
other value (a code, an amount, a name) as it is.
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext

from casino.errors import DomainError, Words
from eventstore.commands import IdempotencyConflict


def _value(value: object) -> object:
    """A value in the page's language when it is :class:`Words` (a phrase a service marked);
    any other value (a code, an amount, a name, a status) as it is: a bare word such as "open"
    means different things in different places, and the catalogue cannot know which."""
    if isinstance(value, Words):
        return translated(value.template, value.params, str(value), value.context)
    return value


def translated(template: str, params: dict[str, object] | None, english: str,
               context: str | None = None) -> str:
    """``template`` in the page's language (under the catalogue's ``context``, if any), filled
    with ``params``; ``english`` if that fails."""
    text = pgettext(context, template) if context else gettext(template)
    if params is None:
        return text
    try:
        return text.format(**{name: _value(v) for name, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return english


def refusal_text(error: Exception) -> str:
    """The message to show for a refusal of a service (nothing was recorded)."""
    if isinstance(error, IdempotencyConflict):
        return gettext("This form was already sent for another request: reload the page and "
                       "try again.")
    if isinstance(error, DomainError):
        return translated(error.template, error.params, error.message)
    template, params = getattr(error, "template", None), getattr(error, "params", None)
    if isinstance(template, str):
        return translated(template, params, str(error))
    return str(error)


def said(text: object) -> str:
    """A text a service built in English, in the page's language: a :class:`Words` by its
    template, a fixed phrase marked for the catalogue as the catalogue says it, anything else
    (a code, a name) as it is."""
    if isinstance(text, Words):
        return translated(text.template, text.params, str(text), text.context)
    if text is None:
        return ""
    return gettext(text) if isinstance(text, str) and text else str(text)
