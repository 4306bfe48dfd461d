from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from .server import socket_address


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL backend, pointed at the embedded server's socket."""

    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        params["host"], params["port"] = socket_address(self.settings_dict["NAME"] or "postgres")
        return params
