"""Logging filters of the console (``settings.LOGGING``)."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404


class OrdinaryRefusal(logging.Filter):
    """An ordinary refusal (403: a role the person lacks; 404) is one line on the console,
    ``Forbidden (Permission denied): /path``, not a traceback: nothing failed. Any other
    record passes as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied | Http404):
            record.exc_info = None
            record.exc_text = None
        return True
