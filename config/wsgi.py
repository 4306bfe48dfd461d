import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# A web request's statements are cut at its budget (gunicorn.conf.py, docs/deployment.md); the
# workers' closes and the migrations do not load this module and keep no such limit.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_SECONDS",
                      os.environ.get("REQUEST_BUDGET_SECONDS", "30"))
application = get_wsgi_application()
