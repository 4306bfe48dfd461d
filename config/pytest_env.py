"""The tests' environment, set before pytest-django reads the settings (``-p config.pytest_env``
in pyproject.toml; conftest.py would be too late).

The tests run on the production settings (``DEBUG`` off), with two exceptions a test server
needs: a test-only ``SECRET_KEY`` when none is given, and no redirect to HTTPS (the test client
and the live server speak plain HTTP). ``tests/casino/test_deploy_settings.py`` runs
``check --deploy`` on the production settings without either.
"""

from __future__ import annotations

import os

os.environ.setdefault("SECRET_KEY", "test-only-not-a-secret-" + "x" * 40)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

# No broker given: an embedded Redis from its wheel (config/embedded_redis.py), so the tests of
# a real worker run here as in CI; the other tests still run their tasks in process
# (conftest.py). Where the wheel has no build, those tests say they need a broker.
if not os.environ.get("CELERY_BROKER_URL"):
    from config import embedded_redis

    _url = embedded_redis.start()
    if _url:
        os.environ["CELERY_BROKER_URL"] = f"{_url}/0"
        os.environ.setdefault("CELERY_RESULT_BACKEND", f"{_url}/1")

# Tests log people in with force_login; the tests of the second factor (and the browser tests)
# turn it on (tests/casino/test_second_factor.py, tests/e2e/conftest.py).
os.environ.setdefault("SECOND_FACTOR_ENFORCED", "0")
