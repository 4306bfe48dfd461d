#!/usr/bin/env python3
"""The two commands: run the platform, run the tests. Needs only Python 3.11+.

    python3 dev.py run     # venv, migrations, a seeded demo casino, web admin + API on :8000
    python3 dev.py test    # venv with test tools, then the whole test suite (pytest args pass on)

Without DATABASE_URL both use an embedded PostgreSQL server from a pip wheel (data in .pgdata/;
the tests use a throwaway cluster). Without CELERY_BROKER_URL tasks run in process.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
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


def ensure_venv(dev: bool) -> None:
    """Create .venv and install the pinned requirements, unless they are installed already."""
    if sys.version_info < (3, 11):  # noqa: UP036  (says so plainly on an older Python)
        sys.exit(f"Python 3.11 or newer is needed (this is {sys.version.split()[0]})")
    files = [ROOT / "requirements.txt"] + ([ROOT / "requirements-dev.txt"] if dev else [])
    stamp = VENV / (".installed-dev" if dev else ".installed")
    wanted = _requirements_digest(files)
    if stamp.exists() and stamp.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing requirements ...", flush=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "-r", str(files[-1])],
                   check=True)
    stamp.write_text(wanted)


def manage(*args: str) -> None:
    subprocess.run([str(PYTHON), str(ROOT / "manage.py"), *args], check=True, cwd=ROOT)


def run(argv: list[str]) -> int:
    ensure_venv(dev=False)
    # The settings are production's unless DEBUG is asked for: the demo asks (a development
    # SECRET_KEY, demo logins, development seal keys, plain HTTP).
    os.environ.setdefault("DEBUG", "1")
    address = argv[0] if argv else "127.0.0.1:8000"
    manage("migrate", "--no-input", "-v", "0")
    manage("seed_demo")
    manage("demo_day", "--if-empty")
    print(f"\nWeb admin: http://{address}/  (Django admin: /admin/, API: /api/v1/, "
          f"schema: /api/docs/)\nDemo logins are listed above. Ctrl-C stops.\n", flush=True)
    os.execv(str(PYTHON), [str(PYTHON), str(ROOT / "manage.py"), "runserver", address])
    return 0


def test(argv: list[str]) -> int:
    ensure_venv(dev=True)
    return subprocess.run([str(PYTHON), "-m", "pytest", *argv], cwd=ROOT).returncode


def setup(argv: list[str]) -> int:
    ensure_venv(dev="--dev" in argv)
    return 0


COMMANDS = {"run": run, "test": test, "setup": setup}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
