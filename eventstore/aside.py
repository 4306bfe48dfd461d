"""Work done aside: a function run in a forked process, on a database connection of its own,
while this process goes on (``rebuild_projections --check``'s in-memory replay of the ledger,
ADR 0013).

The child forgets the connections it inherited without closing them (their sockets are the
parent's: closing one would end the parent's session) and opens its own on first use. It sends
back the function's value, pickled, through a pipe, and leaves with ``os._exit``, running no
finaliser of anything it inherited. Whatever fails in the child (it could not connect, its
function raised) reaches the parent as "not done" (``None``), and the caller does the work itself.

Work is put aside only where a fork is safe and worth it: on a system that forks, from a process
running one thread (a fork copies only the calling thread; a lock another thread held would stay
held in the child).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from asgiref.local import Local
from django.db import connections

T = TypeVar("T")

logger = logging.getLogger(__name__)

# The connections a child inherited: kept referenced, so that no finaliser closes their sockets.
_INHERITED: list[Any] = []


class Aside(Generic[T]):
    """A function running in a child process; ``result()`` waits for its value."""

    def __init__(self, pid: int, pipe: int) -> None:
        self._pid, self._pipe = pid, pipe
        self._done = False

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._pid

    def result(self) -> T | None:
        """The function's value, or None if the child could not give it."""
        if self._done:
            raise RuntimeError("the result was taken already")
        self._done = True
        with os.fdopen(self._pipe, "rb") as pipe:
            payload = pipe.read()
        status = _reaped(self._pid)
        if status != 0 or not payload:
            logger.warning("work put aside (process %s) ended with status %s", self._pid, status)
            return None
        outcome, value = pickle.loads(payload)  # our own child's answer
        if outcome != "done":
            logger.warning("work put aside (process %s) failed:\n%s", self._pid, value)
            return None
        done: T = value
        return done

    def abandon(self) -> None:
        """Stop the child if its result was not taken (the caller failed first)."""
        if self._done:
            return
        self._done = True
        with contextlib.suppress(ProcessLookupError):
            os.kill(self._pid, signal.SIGKILL)
        _reaped(self._pid)
        os.close(self._pipe)


def _reaped(pid: int) -> int:
    """The child's exit status, once it has ended (0 if something else reaped it first, as a
    process pool's SIGCHLD handler may: its answer, or none, then tells)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return 0


def _only_thread() -> bool:
    return threading.active_count() == 1


def put_aside(work: Callable[[], T]) -> Aside[T] | None:
    """Run ``work`` in a child process, or None where that is not possible here."""
    if not hasattr(os, "fork") or not _only_thread():
        return None
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return Aside(pid, read)
    # The child: whatever happens, it leaves here.
    try:
        os.close(read)
        _INHERITED.append(list(connections.all(initialized_only=True)))
        connections._connections = Local(connections.thread_critical)  # type: ignore[attr-defined]  # new ones on first use
        try:
            payload = pickle.dumps(("done", work()))
        except BaseException as error:  # told to the parent, which does the work itself
            import traceback

            payload = pickle.dumps(("failed", "".join(traceback.format_exception(error))))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(payload)
        for connection in connections.all(initialized_only=True):
            connection.close()
    finally:
        os._exit(0)
