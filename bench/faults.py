"""Fault runs on throwaway servers this script starts itself (never the machine's own).

    python bench/faults.py pg-restart [--terminals 6] [--seconds 40]
    python bench/faults.py broker-stop

pg-restart: a private PostgreSQL cluster (initdb and pg_ctl from /usr/lib/postgresql/*/bin, on
a free port, in a temporary directory) serves ``bench/soak.py``'s terminals through gunicorn;
a third of the way in, PostgreSQL is restarted (``pg_ctl restart -m fast``: every connection
cut), and again at two thirds. The terminals get 503s (``unavailable``, Retry-After) or lose
their connection while the server is down, and send the same command again with the same
Idempotency-Key, as a terminal whose answer timed out does. Afterwards every soak invariant
must hold: the chain verifies, projections rebuild equal, the ledger balances, reconcile agrees,
and there is exactly one command record per accepted command (nothing lost, nothing twice).

broker-stop: a private redis-server on a free port and a Celery worker on the throwaway
database; the broker is stopped, and started again 10 seconds later. Meanwhile the gaming-day
close of a demo casino is sent as the web's close page and the API send it: with the app's own
publish policy (``CELERY_TASK_PUBLISH_RETRY_POLICY``, no policy of this script's), so each send
fails within the policy's bounded wait (the web's and the API's 503), nothing queued, and is sent
again after the 503's ``Retry-After``, as a person or a terminal does. The close runs when the
broker returns, once. (A worker killed with SIGKILL in the middle of the close is
``tests/ledger/test_day_close_worker.py``, in the test suite.)
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise SystemExit(f"no {name} under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
    return found[-1]


def _as_postgres_user() -> list[str]:
    """initdb and postgres refuse to run as root: run them as the 'postgres' account then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--"]
    return []


class PrivatePostgres:
    def __init__(self) -> None:
        self.dir = tempfile.mkdtemp(prefix="casino-fault-pg-")
        os.chmod(self.dir, 0o777)
        self.data = os.path.join(self.dir, "data")
        self.port = _free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")

    def ctl(self, *args: str) -> None:
        subprocess.run([*_as_postgres_user(), _pg_bin("pg_ctl"), "-D", self.data, "-w", "-l",
                        os.path.join(self.dir, "log"), *args], check=True,
                       stdout=subprocess.DEVNULL)

    def start(self) -> None:
        subprocess.run([*_as_postgres_user(), _pg_bin("initdb"), "-D", self.data, "-U",
                        "postgres", "-A", "trust", "--no-sync"], check=True,
                       stdout=subprocess.DEVNULL)
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.ctl("start", "-o", options)

    def restart(self) -> None:
        self.ctl("restart", "-m", "fast")

    def stop(self) -> None:
        try:
            self.ctl("stop", "-m", "immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


def pg_restart(terminals: int, seconds: float) -> int:
    pg = PrivatePostgres()
    pg.start()
    try:
        os.environ["DATABASE_URL"] = pg.url
        os.environ["TEST_DATABASE_NAME"] = "casino_fault"
        import soak

        def restarts(total: float) -> None:
            for at in (total / 3, total / 3):
                time.sleep(at)
                t0 = time.perf_counter()
                pg.restart()
                print(f"  PostgreSQL restarted ({time.perf_counter() - t0:.1f} s down)",
                      flush=True)

        return soak.run(terminals, seconds / 60, workers=2, fault=restarts)
    finally:
        pg.stop()


def broker_stop() -> int:
    port = _free_port()
    workdir = tempfile.mkdtemp(prefix="casino-fault-redis-")

    def redis() -> subprocess.Popen[bytes]:
        return subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                 "--save", "", "--appendonly", "no", "--dir", workdir],
                                stdout=subprocess.DEVNULL)

    broker = redis()
    url = f"redis://127.0.0.1:{port}/0"
    os.environ.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=f"redis://127.0.0.1:{port}/1",
                      TEST_DATABASE_NAME="casino_fault_broker")
    from _setup import bench_database

    worker: subprocess.Popen[bytes] | None = None
    try:
        with bench_database():
            import datetime as dt

            from bench_close import _seal_keys
            from bench_tables import _database_url
            from django.core.management import call_command
            from django.test import override_settings
            from django.utils import timezone

            from casino.models import Casino
            from ledger.models import DayClose
            from reporting.tasks import gaming_day_close_task

            _seal_keys()  # the worker seals the day with them, as in production
            with override_settings(DEBUG=True):
                call_command("seed_demo", verbosity=0)
            casino = Casino.objects.get(code="lisboa")
            day = casino.gaming_day(timezone.now()) - dt.timedelta(days=1)
            env = dict(os.environ, DATABASE_URL=_database_url(), DEBUG="0",
                       SECRET_KEY="fault-only")
            from casino.errors import RETRY_AFTER, Unavailable
            from edge.api.errors import domain_error_of

            policy = gaming_day_close_task.app.conf.task_publish_retry_policy
            retry_after = RETRY_AFTER[Unavailable.code]  # what the 503 tells the sender
            broker.terminate()
            broker.wait()
            print(f"  broker stopped; the close is sent with the app's publish policy {policy}",
                  flush=True)
            import threading

            def back() -> None:
                time.sleep(10)
                nonlocal broker
                broker = redis()
                print("  broker back", flush=True)

            threading.Thread(target=back).start()
            t0 = time.perf_counter()
            refused: list[float] = []
            while True:
                t1 = time.perf_counter()
                try:
                    # as the web's close page sends it (reporting.web.views._send_close): no
                    # retry policy of its own, the app's
                    result = gaming_day_close_task.apply_async(args=("lisboa", day.isoformat()))
                    break
                except Exception as error:
                    # what the web and the API answer for it: a 503 (Unavailable), or a failure
                    if not isinstance(domain_error_of(error), Unavailable):
                        raise
                    refused.append(time.perf_counter() - t1)
                    print(f"  refused after {refused[-1]:.1f} s (the web's 503); sent again "
                          f"after Retry-After: {retry_after} s", flush=True)
                    if time.perf_counter() - t0 > 120:
                        print("broker-stop: FAILED: the broker never came back")
                        return 1
                    time.sleep(retry_after)
            print(f"  sent after {time.perf_counter() - t0:.1f} s, {len(refused)} refused "
                  f"first (each after {', '.join(f'{w:.1f}' for w in refused)} s)", flush=True)
            worker = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
                 "--loglevel", "warning"], cwd=HERE.parent, env=env)
            answer = result.get(timeout=120)
            closed = DayClose.objects.filter(casino_id="lisboa", day=day).count()
            print(f"  close answered {answer.get('closed')!r} after "
                  f"{time.perf_counter() - t0:.1f} s; days closed on record: {closed}")
            # the policy's wait is bounded (two retries a second apart, two-second connection
            # timeouts: at most ~8 s), and the broker was down when the first send was made
            bounded = bool(refused) and max(refused) < 8
            ok = bool(answer.get("closed")) and closed == 1 and bounded
            print("broker-stop: each send refused within the policy's bounded wait, the close "
                  "ran once when the broker returned" if ok else
                  f"broker-stop: FAILED {answer} (refused after {refused} s)")
            return 0 if ok else 1
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        broker.terminate()
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="fault", required=True)
    restart = sub.add_parser("pg-restart")
    restart.add_argument("--terminals", type=int, default=6)
    restart.add_argument("--seconds", type=float, default=40.0)
    sub.add_parser("broker-stop")
    args = parser.parse_args()
    if args.fault == "pg-restart":
        return pg_restart(args.terminals, args.seconds)
    return broker_stop()


if __name__ == "__main__":
    sys.exit(main())
