"""gunicorn's settings (read from the working directory: ``gunicorn config.wsgi``), issue 35.

A request has a budget (``REQUEST_BUDGET_SECONDS``, 30 s): the database cancels any statement of a
web request that runs longer (``statement_timeout``, set for the web's connections only by
``config.wsgi``: the closes and the migrations are not web requests), the answer is a 503 with
``Retry-After``, and every request over budget is logged (``edge.web.budget``). A worker silent
for longer than ``timeout`` (the budget and a margin) is killed and replaced by gunicorn's
arbiter, and that is logged too. ``docs/deployment.md``, § A request's budget.
"""

import os

budget = int(os.environ.get("REQUEST_BUDGET_SECONDS", "30"))
timeout = budget + 15
graceful_timeout = 30
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
accesslog = "-"
