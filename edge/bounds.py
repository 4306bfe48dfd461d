"""What any request may hold (issue 35, finding 3 and 4): the bounds of every value a client
sends, checked at the edge, before any serializer, idempotency fingerprint or INSERT.

Pure: no Django. ``refusals`` walks a parsed body (JSON's dicts, lists and scalars) and names each
value it refuses by its path (``bets[0].player``):

* a number that is not finite (``1e309`` parses as infinity, ``NaN``): no amount, count or seat
  is one, and the fingerprint's canonical JSON cannot hold it;
* a string or key with a lone surrogate (``"\\ud800"``): not text UTF-8 can store;
* a NUL character: PostgreSQL's text refuses it;
* a string longer than ``MAX_TEXT`` characters (a name, a reason, an explanation: the longest
  free text a form takes is ``MAX_TEXT``), a list of more than ``MAX_ITEMS`` items;
* an integer beyond ``MAX_INTEGER`` (what a bigint holds; each count's tighter limit is the
  domain's, a 400 too);
* a ``seat`` that is not 1 to ``MAX_SEAT`` (a table has at most a dozen boxes), a ``player``
  that is not a label (``casino.players``: a seat, a pseudonym, a patron; never a name).

``request_token`` keeps a client's ``X-Request-Id`` / ``X-Correlation-Id`` if it is a short token
(``REQUEST_TOKEN``), else gives a fresh one: event metadata holds nothing longer.
"""

from __future__ import annotations

import math
import re
import uuid
from typing import Any

from casino.players import LABEL_HELP, is_label

MAX_TEXT = 2000
MAX_ITEMS = 10_000  # a safety net: each list's own limit is the domain's (1,000 bets a round)
MAX_INTEGER = 2**63 - 1  # a bigint; each count's own limit is the domain's
MAX_SEAT = 20
MAX_PLAYER = 64
MAX_FORM_VALUE = 20_000  # a web form's or a query's one value
REQUEST_TOKEN = re.compile(r"[A-Za-z0-9._:-]{1,64}")


def text_refusal(value: str, limit: int = MAX_TEXT) -> str:
    """Why ``value`` is not text any field takes, or ""."""
    if "\x00" in value:
        return "holds a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (not Unicode text)"
    if len(value) > limit:
        return f"is longer than {limit} characters"
    return ""


def _scalar_refusal(name: str, value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return ""
    if name == "seat" and not (isinstance(value, int) and 1 <= value <= MAX_SEAT):
        return f"a seat is a whole number from 1 to {MAX_SEAT}"
    if isinstance(value, float) and not math.isfinite(value):
        return "is not a finite number"
    if isinstance(value, int) and abs(value) > MAX_INTEGER:
        return "is beyond what any count holds (2^63 - 1)"
    if isinstance(value, str):
        why = text_refusal(value, MAX_PLAYER if name == "player" else MAX_TEXT)
        if not why and name == "player" and not is_label(value):
            return LABEL_HELP  # a name never enters an event (casino.players)
        return why
    return ""


def refusals(data: Any) -> dict[str, str]:
    """Each refused value of ``data`` by its path, without recursion (the depth is bounded
    before: ``edge.api.parsers``)."""
    found: dict[str, str] = {}
    stack: list[tuple[str, str, Any]] = [("", "", data)]
    while stack and len(found) < 20:
        path, name, value = stack.pop()
        if isinstance(value, dict):
            for key, child in value.items():
                key_text = str(key)
                why = text_refusal(key_text, 100)
                if why:
                    found[path or "body"] = f"a key {why}"
                    continue
                stack.append((f"{path}.{key_text}" if path else key_text, key_text, child))
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                found[path or "body"] = f"has more than {MAX_ITEMS} items"
                continue
            # an item is no field of its own (a baccarat outcome's "player" is a list of cards)
            stack.extend((f"{path}[{i}]", "", child) for i, child in enumerate(value))
        else:
            why = _scalar_refusal(name, value)
            if why:
                found[path or "body"] = why
    return found


def scoped_key(user: object, key: str) -> str:
    """An ``Idempotency-Key`` as stored: scoped to its user (the store scopes it to the casino):
    another person's command with the same key is theirs, never answered with the first one's
    answer (issue 35). A scoped key longer than the column (200) is its user and its digest."""
    if not key:
        return ""
    scoped = f"u{user}:{key}"
    if len(scoped) > 200:
        import hashlib

        scoped = f"u{user}:sha256:{hashlib.sha256(key.encode()).hexdigest()}"
    return scoped


def request_token(value: str | None) -> str:
    """A client's request or correlation id if it is a short token, else a fresh one."""
    if value and REQUEST_TOKEN.fullmatch(value):
        return value
    return uuid.uuid4().hex
