import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# A web request's statements are cut at its budget (gunicorn.conf.py, docs/deployment.md); the
# workers' closes and the migrations do not load this module and keep no such limit.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_SECONDS",
                      os.environ.get("REQUEST_BUDGET_SECONDS", "30"))
application = get_wsgi_application()

# Each worker imports the URLconf (every view, the API's serializers, the schema) as it starts,
# not on its first request: that request waited 1.15 s for it on the development machine, the
# first a cashier or a pit boss sent to a new worker, after a deploy or a worker replaced at its
# budget (docs/benchmarks.md, 2026-12-07).
get_resolver().url_patterns  # noqa: B018
