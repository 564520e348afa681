"""Settings for Gammon Turn, read from the environment (twelve-factor) and parsed strictly.

Development (``make run``) sets DEBUG=1 and gets SQLite, keys of its own made on first run
(``.dev-secrets``, see gamesite/dev_secrets.py) and console e-mail.
Production needs at least SECRET_KEY, DICE_KEY, ALLOWED_HOSTS and DATABASE_URL; see README.md.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from gamesite.dev_secrets import load_or_create
from gamesite.env import (
    email_settings_from_url,
    env_bool,
    env_int,
    env_list,
    env_rate,
    env_str,
    key_bytes,
)

BASE_DIR = Path(__file__).resolve().parent.parent

SITE_NAME = "Gammon Turn"

DEBUG = env_bool("DEBUG", False)

# Development keys are never written in the repository: a DEBUG process without them in its
# environment takes them from an ignored local file made with fresh random keys on first run.
_DEV_SECRETS = (
    load_or_create(Path(env_str("DEV_SECRETS_FILE", str(BASE_DIR / ".dev-secrets"))))
    if DEBUG and not (env_str("SECRET_KEY", "").strip() and env_str("DICE_KEY", "").strip())
    else {}
)


def _secret(name: str) -> str:
    value = env_str(name, "")
    if value.strip():
        return value
    if name in _DEV_SECRETS:
        return _DEV_SECRETS[name]
    raise ImproperlyConfigured(
        f"{name} is required when DEBUG is off (set DEBUG=1 for a development server)."
    )


SECRET_KEY = _secret("SECRET_KEY")
# Bytes for backgammon.engine.dice.roll_at: every app server derives the same hourly dice
# tables from this key, so it must be identical on all of them and kept secret.
DICE_KEY: bytes = key_bytes(_secret("DICE_KEY"))
if len(DICE_KEY) < 16:
    # A short key could be found by trying them all, and then every roll could be predicted;
    # the dice refuse such a key, so refuse it here, at start-up, rather than at the first roll.
    raise ImproperlyConfigured("DICE_KEY must be at least 16 bytes (32 hex digits or 16 characters).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "gamesite.admin_site.GammonAdminConfig",  # django.contrib.admin, checking selections
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "accounts",
    # Before django_tasks_db: its ``db_worker`` command is backgammon's (the same worker plus the
    # deadline sweep), and Django takes a command from the first app in this list that has it.
    "backgammon",
    "bots",
    "analysis",
    "tournaments",
    "django_tasks",
    "django_tasks_db",
    "csp",
    "axes",
    "ninja",  # its Swagger page then loads its assets from our static files (the CSP allows no CDN)
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "api.middleware.JsonErrorsUnderApi",  # outside the rest, so it sees every error under /api/
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.presence.SeenMiddleware",
    "gamesite.bad_requests.RefuseMalformedRequests",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "gamesite.urls"
WSGI_APPLICATION = "gamesite.wsgi.application"
ASGI_APPLICATION = "gamesite.asgi.application"

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
                "csp.context_processors.nonce",
                "gamesite.context_processors.site",
                "backgammon.context_processors.play_menu",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # 0 under ASGI (uvicorn, as `make run` and production serve it), as Django advises: each
        # request does its database work in a thread of its own, which a kept connection would
        # outlive. A WSGI server (gunicorn's sync workers) may set 60 to keep connections.
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default serves two players and the worker at once: WAL lets readers and a
    # writer work together, IMMEDIATE takes the write lock when a transaction begins (a
    # deferred one that reads, then writes, fails at once with "database is locked" instead of
    # waiting), and the busy timeout is how long a writer waits for the one before it.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# One cache shared by every app server (rate limits live here): the database by
# default, Redis when REDIS_URL is set.
_REDIS_URL = env_str("REDIS_URL", "")
if _REDIS_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _REDIS_URL}
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
        }
    }

SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Live updates (backgammon.live): a game's change is published to the pages open on it through a
# Channels layer. Redis carries it between app servers and from the task worker; without
# REDIS_URL (``make run``) an in-memory layer serves the one development process, and pages
# also poll now and then for what the worker did (see backgammon/live.py, LAYER_IS_SHARED).
# CHANNEL_PREFIX keeps sites (or parallel test runs) sharing one Redis apart.
CHANNEL_PREFIX = env_str("CHANNEL_PREFIX", "gammon")
if _REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [_REDIS_URL], "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default"],
    }
}
# How often the worker (manage.py db_worker) sweeps for games past their move deadline.
DEADLINE_SWEEP_SECONDS = env_int("DEADLINE_SWEEP_SECONDS", 60)
if DEADLINE_SWEEP_SECONDS < 1:
    raise ImproperlyConfigured("DEADLINE_SWEEP_SECONDS must be at least 1.")
# Days of vacation each player may book in a calendar year (accounts.vacations).
# "Who is here?" lists the players seen in this many minutes (accounts.presence).
PRESENCE_MINUTES = env_int("PRESENCE_MINUTES", 10)

VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 14)
if VACATION_DAYS_PER_YEAR < 0:
    raise ImproperlyConfigured("VACATION_DAYS_PER_YEAR must be 0 or more.")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Log-in lock-outs (django-axes, for the site's log-in and the admin's alike): after
# LOGIN_FAILURE_LIMIT wrong passwords for one userid from one address, that userid is paused
# from that address only, so nobody can lock a player out from elsewhere. The attempts live in
# the database, shared by every app server. A success or a password reset clears them.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first, so a locked-out attempt stops here
    "accounts.backends.CaseInsensitiveModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 15 * 60)
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_LOCKOUT_SECONDS)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Further tries while paused are refused without extending the pause.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "accounts.login_guard.normalised_userid"
AXES_CLIENT_IP_CALLABLE = "accounts.login_guard.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.login_guard.lockout_response"
AXES_VERBOSE = False

# Password-reset e-mails (accounts.rate_limits, django-ratelimit in the cache): at most this many
# per target e-mail and per client address, as django-ratelimit rates ("3/h", "10/h", "20/d").
PASSWORD_RESET_RATE_PER_EMAIL = env_rate("PASSWORD_RESET_RATE_PER_EMAIL", "3/h")
PASSWORD_RESET_RATE_PER_ADDRESS = env_rate("PASSWORD_RESET_RATE_PER_ADDRESS", "10/h")
# The database cache increments by read and write, not atomically: under a burst of
# simultaneous requests a few may slip past the limit; REDIS_URL makes it exact. (That is why
# django_ratelimit is not in INSTALLED_APPS: its system check refuses the database cache.)
RATELIMIT_USE_CACHE = "default"
# Live-update streams (backgammon/views/live.py) each player may open, one per page loaded: an
# open stream costs the server a little memory and a task, so a script may not open thousands.
LIVE_STREAMS_RATE = env_rate("LIVE_STREAMS_RATE", "120/m")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Hashed, compressed files in production; plain storage for tests and development, which
# serve straight from the source folders without running collectstatic.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)
# Look files up per request rather than indexing STATIC_ROOT at start-up (development, tests).
WHITENOISE_AUTOREFRESH = env_bool("WHITENOISE_AUTOREFRESH", DEBUG)
MEDIA_URL = "media/"
MEDIA_ROOT = BASE_DIR / "media"

# E-mail: EMAIL_URL, or the separate EMAIL_HOST... variables; the console in development.
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Gammon Turn <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
_EMAIL_URL = env_str("EMAIL_URL", "")
if _EMAIL_URL:
    globals().update(email_settings_from_url(_EMAIL_URL))
elif env_str("EMAIL_HOST", ""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env_str("EMAIL_HOST")
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    raise ImproperlyConfigured(
        "Set EMAIL_URL (e.g. smtp://user:password@host:587?tls=1, or console:) or EMAIL_HOST "
        "when DEBUG is off: password-reset e-mails must go somewhere."
    )

# HTTPS hardening, on by default in production; each switch can be turned off from the
# environment (the test suite does, since its servers speak plain HTTP).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 30)
# A site on HTTPS should not have plain-HTTP subdomains a network attacker could use to plant
# cookies, so HSTS covers them whenever it is on (turn off only with a reason).
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts and styles only from our own files, or inline
# with this response's nonce (request.csp_nonce, {{ csp_nonce }} in templates); no plugins, no
# framing, forms post only here. Templates keep no inline script, style or event handler.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}
# Only behind a proxy that sets X-Forwarded-Proto itself: trusting it otherwise lets any
# client claim HTTPS.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
USE_X_FORWARDED_HOST = env_bool("USE_X_FORWARDED_HOST", False)
# Log-in lock-outs count per client address; behind a proxy the address comes from
# X-Forwarded-For, and only when this is set (a client could forge the header otherwise).
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
