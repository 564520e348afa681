"""Settings for Gammon Turn, read from the environment (twelve-factor) and parsed strictly.

Development (``make run``) sets DEBUG=1 and gets SQLite, keys of its own made on first run
(``.dev-secrets``, see gamesite/dev_secrets.py) and console e-mail.
Production needs at least SECRET_KEY, DICE_KEY, ALLOWED_HOSTS and DATABASE_URL; see README.md.
"""

from __future__ import annotations

from datetime import timedelta
from email.utils import parseaddr
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
    env_seconds,
    env_str,
    key_bytes,
)
from gamesite.live_layers import redis_channel_layers
from gamesite.redis_cache import redis_caches
from gamesite.vapid import public_key_for

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
    "django_countries",
    "accounts",
    # Before django_tasks_db: its ``db_worker`` command is backgammon's (the same worker plus the
    # deadline sweep), and Django takes a command from the first app in this list that has it.
    "backgammon",
    "bots",
    "analysis",
    "tournaments",
    "notices",
    "messaging",
    "membership",
    "django_tasks",
    "django_tasks_db",
    "csp",
    "axes",
    "ninja",  # its Swagger page then loads its assets from our static files (the CSP allows no CDN)
    "api",
    "gamesite.live_bridge",
]

MIDDLEWARE = [
    # First: /health/ answers before any host check, HTTPS redirect, session or log line.
    "gamesite.health.HealthCheck",
    # Outside the rest, so its duration and status cover every other layer (error pages too).
    "gamesite.request_log.RequestLog",
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
    # A game nobody may show this user: the site's page saying so, in development too.
    "backgammon.no_game_page.NoGameToShowPage",
    # Last, as django-axes asks: it turns a locked-out log-in into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "gamesite.urls"
WSGI_APPLICATION = "gamesite.wsgi.application"
ASGI_APPLICATION = "gamesite.asgi.application"

# Forms' fields are written by Django's Jinja2 copies of its form and widget templates, three
# times quicker than its template engine (gamesite/form_renderer.py says where it pays).
FORM_RENDERER = "gamesite.form_renderer.JinjaFirstRenderer"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # {% url %} with each reverse kept per process (the menus of every page ask for ~35).
            "builtins": ["gamesite.url_tag"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "gamesite.context_processors.site",
                "backgammon.context_processors.play_menu",
                "messaging.context_processors.talk_menu",
                "notices.context_processors.push",
            ],
        },
    },
    {
        # The game region and Game status's lists (gamesite/jinja_env.py says why): rendered
        # directly by gamesite.jinja_env.render_jinja (the game region, the lobby's view, the
        # main screen's tag), never looked up by name through the engine above.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [],
        "APP_DIRS": True,  # backgammon/jinja2/
        "OPTIONS": {
            "environment": "gamesite.jinja_env.environment",  # reloads edits with DEBUG
        },
    },
]

# Threads per app-server process that serve the pages (gamesite/asgi.py, which says why five).
WEB_THREADS = env_int("WEB_THREADS", 5)

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # 0 under ASGI (uvicorn, as `make run` and production serve it), as Django advises: each
        # request does its database work in a thread of its own, which a kept connection would
        # outlive. PostgreSQL keeps its connections in a pool instead (below).
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, its pool checking a connection it lends without a round trip (gamesite/postgres).
    DATABASES["default"]["ENGINE"] = "gamesite.postgres"
    # A database host that does not answer fails a request (a 503, gamesite/unavailable.py) in
    # seconds rather than holding the worker until the operating system gives up.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env_int(
        "DATABASE_CONNECT_TIMEOUT", 5
    )
    # Each process keeps up to this many connections open and lends one to each request (Django's
    # pool, psycopg_pool): a new PostgreSQL connection costs a server process and a few ms,
    # more than a whole poll. With CONN_HEALTH_CHECKS a lent connection is checked first (by a
    # round trip only when it has something to say), so after a database restart the pool
    # replaces what broke. 0 turns the pool off. Mind
    # PostgreSQL's max_connections: web processes × this, plus the workers (README, Deploying).
    # Sized for the WEB_THREADS that serve pages in each process (and check the live streams,
    # which then hold none), plus two spare.
    DATABASE_POOL_SIZE = env_int("DATABASE_POOL_SIZE", WEB_THREADS + 2)
    if DATABASE_POOL_SIZE > 0 and DATABASES["default"]["CONN_MAX_AGE"] == 0:
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": 1,
            "max_size": DATABASE_POOL_SIZE,
            # A request waits this long for a connection: a database that is back within it
            # (a restart, a fail-over) costs the player a pause; longer, a clean 503 page.
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 2),
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
# With Redis the cache degrades instead of failing (django-redis's IGNORE_EXCEPTIONS): Redis
# down, a read is a miss and a write is lost, so pages keep working. Redis stalled (it takes
# connections but does not answer) costs a page at most one REDIS_TIMEOUT_SECONDS: the first
# command that times out opens the process's breaker and nobody asks Redis for
# REDIS_PAUSE_SECONDS (gamesite/redis_guard.py); a forget that failed is done again once Redis
# answers (gamesite/redis_cache.py). The rate limits count in each process's memory meanwhile.
# Sessions are kept in the database too, so nobody is logged out by it.
REDIS_URL = env_str("REDIS_URL", "")
REDIS_TIMEOUT_SECONDS = env_seconds("REDIS_TIMEOUT_SECONDS", 0.5)
REDIS_PAUSE_SECONDS = env_seconds("REDIS_PAUSE_SECONDS", 3.0)
# The site's prefix in Redis, of its live updates (below) and its cache keys alike: sites (or
# parallel test runs) sharing one Redis keep apart by it.
CHANNEL_PREFIX = env_str("CHANNEL_PREFIX", "gammon")
if REDIS_URL:
    # "default", and "throttles" for django-ratelimit's counters (RATELIMIT_USE_CACHE below).
    CACHES = redis_caches(REDIS_URL, REDIS_TIMEOUT_SECONDS, CHANNEL_PREFIX)
elif env_bool("CACHE_IN_PROCESS", False):
    # One process only (the test suite, which clears it before each test): nothing is shared.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
        }
    }

# With Redis, a request reads its session from the cache and the database only on a miss
# (gamesite.sessions: cached_db, the cached copy kept a few minutes). Without Redis the cache is
# the database itself, where a cache in front of the session table would only add a query.
SESSION_ENGINE = "gamesite.sessions" if REDIS_URL else "django.contrib.sessions.backends.db"
# Small answers asked on almost every request (the signed-in user, the menu counts, is this
# player a bot) kept in the cache and forgotten when their rows change (gamesite/kept.py).
# On with Redis (or the one process's own cache); against the database cache it would replace a
# query by a query.
KEPT_ANSWERS = env_bool("KEPT_ANSWERS", CACHES["default"]["BACKEND"] != "django.core.cache.backends.db.DatabaseCache")
SESSION_CACHE_SECONDS = env_int("SESSION_CACHE_SECONDS", 300)

# Live updates (backgammon.live): a change is published to the pages open on it through a
# Channels layer. Redis carries it between app servers and from the task worker; without
# REDIS_URL (``make run``) the app server's own layer is in memory, and the task worker's events
# come to it through the database (gamesite/live_bridge: LIVE_VIA_DATABASE, on without Redis).
# With it off, pages also poll now and then for what the worker did (backgammon/live.py).
# CHANNEL_PREFIX (above) keeps sites (or parallel test runs) sharing one Redis apart.
LIVE_VIA_DATABASE = env_bool("LIVE_VIA_DATABASE", not REDIS_URL)
if REDIS_URL:
    CHANNEL_LAYERS = redis_channel_layers(REDIS_URL, CHANNEL_PREFIX, REDIS_TIMEOUT_SECONDS)  # publish/subscribe (gamesite/live_layers.py)
elif LIVE_VIA_DATABASE:
    CHANNEL_LAYERS = {"default": {"BACKEND": "gamesite.live_bridge.layer.DatabaseBridgedLayer"}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Two queues: "default" (bots, move deadlines, notices: seconds count) and "analysis" (gnubg over
# a whole match, which anyone may ask for any public finished game). Each has a worker of its own
# (`manage.py db_worker` and `manage.py db_worker --queue-name analysis`), so the time-critical
# tasks never wait behind analyses.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "analysis"],
    }
}
# Analyses one player may have queued or running at once (a further request is refused).
ANALYSES_PER_PLAYER = env_int("ANALYSES_PER_PLAYER", 3)
if ANALYSES_PER_PLAYER < 1:
    raise ImproperlyConfigured("ANALYSES_PER_PLAYER must be at least 1.")
# A running analysis writes a heartbeat every 10 seconds (a quarter of this when shorter); one
# silent this long lost its worker (killed, restarted) and is marked failed by any worker's tick,
# for the player to ask again.
ANALYSIS_STALE_SECONDS = env_int("ANALYSIS_STALE_SECONDS", 120)
if ANALYSIS_STALE_SECONDS < 2:
    raise ImproperlyConfigured("ANALYSIS_STALE_SECONDS must be at least 2.")
# The analysis board (analysis/position_services.py): new positions one player (or one address,
# for a visitor) may have analysed in any minute (those analysed already answer at once), how long
# a page or API call waits for the worker's answer before saying it is still coming, and how long a
# queued or running one may stay so before asking again queues it afresh (its worker was killed).
POSITION_ANALYSES_PER_MINUTE = env_int("POSITION_ANALYSES_PER_MINUTE", 20)
if POSITION_ANALYSES_PER_MINUTE < 1:
    raise ImproperlyConfigured("POSITION_ANALYSES_PER_MINUTE must be at least 1.")
POSITION_ANALYSIS_WAIT_SECONDS = env_int("POSITION_ANALYSIS_WAIT_SECONDS", 5)
POSITION_ANALYSIS_STALE_SECONDS = env_int("POSITION_ANALYSIS_STALE_SECONDS", 300)
# Finished task rows (one per action's deadline, notice, bot move...) are pruned by the worker
# (backgammon.task_pruning) once they are this many days old, in batches of rows per statement.
TASK_RESULTS_KEEP_DAYS = env_int("TASK_RESULTS_KEEP_DAYS", 2)
TASK_PRUNE_BATCH = env_int("TASK_PRUNE_BATCH", 1000)
TASK_PRUNE_BATCHES = env_int("TASK_PRUNE_BATCHES", 20)
TASK_PRUNE_EVERY_SECONDS = env_int("TASK_PRUNE_EVERY_SECONDS", 300)
# How often the worker (manage.py db_worker) sweeps for games past their move deadline.
DEADLINE_SWEEP_SECONDS = env_int("DEADLINE_SWEEP_SECONDS", 60)
if DEADLINE_SWEEP_SECONDS < 1:
    raise ImproperlyConfigured("DEADLINE_SWEEP_SECONDS must be at least 1.")
# How often each worker sweeps the live games for a reserve that ran out (seconds; its end is
# applied within one second of it, so at most 0.5).
LIVE_SWEEP_SECONDS = env_seconds("LIVE_SWEEP_SECONDS", 0.25)
if LIVE_SWEEP_SECONDS > 0.5:
    raise ImproperlyConfigured("LIVE_SWEEP_SECONDS must be at most 0.5: a reserve's end is applied within a second.")
# A move deadline this close gets a task of its own, run to the second; later ones are the
# sweep's (backgammon/tasks.py schedule_deadline).
DEADLINE_TASK_HORIZON_SECONDS = env_int("DEADLINE_TASK_HORIZON_SECONDS", 2 * 3600)
# Days of vacation each player may book in a calendar year (accounts.vacations).
# "Who is here?" lists the players seen in this many minutes (accounts.presence).
PRESENCE_MINUTES = env_int("PRESENCE_MINUTES", 10)
# Live offers and Auto-Match requests count only the players seen in this many seconds: more than
# the 90 s an open page's stream may leave between its marks (accounts.presence.keep_seen).
LIVE_PRESENCE_SECONDS = env_int("LIVE_PRESENCE_SECONDS", 120)
if LIVE_PRESENCE_SECONDS < 90:
    raise ImproperlyConfigured(
        "LIVE_PRESENCE_SECONDS must be at least 90: an open page marks its player at least every 90 s.")
# Players who are not members may have this many active games that they started or accepted
# (challenges, waiting room, auto-match) at once; bot, ladder and tournament games do not count.
NON_MEMBER_GAME_LIMIT = env_int("NON_MEMBER_GAME_LIMIT", 30)
# Membership (membership app, /membership/): paid through Stripe Checkout when the keys are set.
# Without STRIPE_SECRET_KEY the page offers no payment and says MEMBERSHIP_OFFLINE_TEXT instead
# (the operators' words on how memberships are given on this installation).
STRIPE_SECRET_KEY = env_str("STRIPE_SECRET_KEY", "")
STRIPE_WEBHOOK_SECRET = env_str("STRIPE_WEBHOOK_SECRET", "")
# Stripe Price ids: recurring prices for the subscriptions, a one-time price for a single period.
STRIPE_PRICE_MONTHLY = env_str("STRIPE_PRICE_MONTHLY", "")
STRIPE_PRICE_YEARLY = env_str("STRIPE_PRICE_YEARLY", "")
STRIPE_PRICE_SINGLE = env_str("STRIPE_PRICE_SINGLE", "")
# Where the stripe library sends its calls: Stripe's own unless a stand-in is named (tests).
STRIPE_API_BASE = env_str("STRIPE_API_BASE", "https://api.stripe.com").rstrip("/")
# The prices as players read them (Stripe holds the amounts; these are the words shown).
MEMBERSHIP_PRICE_MONTHLY_TEXT = env_str("MEMBERSHIP_PRICE_MONTHLY_TEXT", "")
MEMBERSHIP_PRICE_YEARLY_TEXT = env_str("MEMBERSHIP_PRICE_YEARLY_TEXT", "")
MEMBERSHIP_PRICE_SINGLE_TEXT = env_str("MEMBERSHIP_PRICE_SINGLE_TEXT", "")
MEMBERSHIP_SINGLE_PERIOD_DAYS = env_int("MEMBERSHIP_SINGLE_PERIOD_DAYS", 365)
MEMBERSHIP_OFFLINE_TEXT = env_str(
    "MEMBERSHIP_OFFLINE_TEXT",
    "Memberships are not sold on this installation: the operators grant them. "
    "Send a message to a member of staff to ask for one.",
)
# Days before a membership's end when the reminder (e-mail and push) goes out, once a period.
MEMBERSHIP_REMINDER_DAYS = env_int("MEMBERSHIP_REMINDER_DAYS", 7)
# Open challenges made and auto-match requests changed per player (pages and API together).
LOBBY_WRITE_RATE = env_rate("LOBBY_WRITE_RATE", "30/m")

# E-mail notices (notices app): links in mails are absolute, so the site must know its own
# address (a worker has no request to take it from): SITE_URL, else the first named host of
# ALLOWED_HOSTS over HTTPS, else the development server's.
_NAMED_HOSTS = [host.lstrip(".") for host in ALLOWED_HOSTS if host not in ("*", "")]
SITE_URL = env_str(
    "SITE_URL",
    f"https://{_NAMED_HOSTS[0]}" if _NAMED_HOSTS and not DEBUG else "http://127.0.0.1:8000",
).rstrip("/")
# At most one "your turn" mail per game in this many minutes, and none while the player was
# seen on the site in the last NOTICE_ONLINE_MINUTES (they see the PLAY badge instead).
NOTICE_TURN_EVERY_MINUTES = env_int("NOTICE_TURN_EVERY_MINUTES", 60)
NOTICE_ONLINE_MINUTES = env_int("NOTICE_ONLINE_MINUTES", 5)
# The daily digest goes out from this hour on (0-23, site time, TIME_ZONE).
NOTICE_DIGEST_HOUR = env_int("NOTICE_DIGEST_HOUR", 7)
if not 0 <= NOTICE_DIGEST_HOUR <= 23:
    raise ImproperlyConfigured("NOTICE_DIGEST_HOUR must be an hour from 0 to 23.")
# How often the worker's tick looks for games past 80% of their move time and for digests due.
NOTICE_SWEEP_SECONDS = env_int("NOTICE_SWEEP_SECONDS", 60)
# "Who is here?" lists at most this many players (the most recently seen).
WHO_IS_HERE_MAX = env_int("WHO_IS_HERE_MAX", 200)

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

# Log-in lock-outs (django-axes, for the site's log-in, the admin's and the API's token call):
# after LOGIN_FAILURE_LIMIT wrong passwords for one userid from one address, that userid is paused
# from that address only, so nobody can lock a player out from elsewhere; and after
# LOGIN_FAILURE_LIMIT_PER_ADDRESS wrong passwords from one address whatever the userids
# (password spraying), every log-in from that address is paused (accounts.login_failures). The
# attempts live in the database, shared by every app server. A success or a password reset
# clears the userid's failures (not the address's).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first, so a locked-out attempt stops here
    "accounts.backends.CaseInsensitiveModelBackend",
]
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 15 * 60)
LOGIN_FAILURE_LIMIT_PER_ADDRESS = env_int("LOGIN_FAILURE_LIMIT_PER_ADDRESS", 30)
AXES_HANDLER = "accounts.login_failures.LoginFailures"
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

# The JSON API (api/): tokens that do not work, per client address (api.auth.BadTokenThrottle:
# past it, every token from the address is refused for the rest of the minute), and the days a
# token made by a password log-in through the API (POST /api/v1/token) lasts; tokens made on
# the profile page last until revoked.
API_BAD_TOKEN_RATE = env_rate("API_BAD_TOKEN_RATE", "20/m")
API_PASSWORD_TOKEN_DAYS = env_int("API_PASSWORD_TOKEN_DAYS", 30)
if API_PASSWORD_TOKEN_DAYS < 1:
    raise ImproperlyConfigured("API_PASSWORD_TOKEN_DAYS must be at least 1.")

# Password-reset e-mails (accounts.rate_limits, django-ratelimit in the cache): at most this many
# per target e-mail and per client address, as django-ratelimit rates ("3/h", "10/h", "20/d").
PASSWORD_RESET_RATE_PER_EMAIL = env_rate("PASSWORD_RESET_RATE_PER_EMAIL", "3/h")
PASSWORD_RESET_RATE_PER_ADDRESS = env_rate("PASSWORD_RESET_RATE_PER_ADDRESS", "10/h")
# Sign-ups per client address (accounts.rate_limits; every valid sign-up form counts): one
# address made 60 accounts in 3 runs, multiplying every per-account limit (issue 29).
SIGNUP_RATE_PER_ADDRESS_HOUR = env_rate("SIGNUP_RATE_PER_ADDRESS_HOUR", "5/h")
SIGNUP_RATE_PER_ADDRESS_DAY = env_rate("SIGNUP_RATE_PER_ADDRESS_DAY", "20/d")
# E-mail confirmation links (accounts.email_confirmation): mails asked for per player, and the
# days a link works.
EMAIL_CONFIRM_RATE = env_rate("EMAIL_CONFIRM_RATE", "3/h")
EMAIL_CONFIRM_DAYS = env_int("EMAIL_CONFIRM_DAYS", 7)
if EMAIL_CONFIRM_DAYS < 1:
    raise ImproperlyConfigured("EMAIL_CONFIRM_DAYS must be at least 1.")
# Avatar uploads per player: each one is decoded and re-encoded, which costs real CPU.
AVATAR_UPLOAD_RATE = env_rate("AVATAR_UPLOAD_RATE", "10/h")
# The database cache increments by read and write, not atomically: under a burst of
# simultaneous requests a few may slip past the limit; REDIS_URL makes it exact. (That is why
# django_ratelimit is not in INSTALLED_APPS: its system check refuses the database cache.)
# With Redis, the counters go to the "throttles" cache: while Redis does not answer, each process
# counts in its own memory (gamesite/redis_cache.py ThrottleCache), so no limit fails open or shut.
RATELIMIT_USE_CACHE = "throttles" if REDIS_URL else "default"
# Messages between players (messaging.services), per sender, pages and API together.
MESSAGE_RATE_PER_HOUR = env_rate("MESSAGE_RATE_PER_HOUR", "20/h")
MESSAGE_RATE_PER_DAY = env_rate("MESSAGE_RATE_PER_DAY", "100/d")
# "Tell a friend" invitations (messaging.invitations), per inviting player and per address.
INVITE_RATE_PER_USER_HOUR = env_rate("INVITE_RATE_PER_USER_HOUR", "5/h")
INVITE_RATE_PER_USER_DAY = env_rate("INVITE_RATE_PER_USER_DAY", "20/d")
INVITE_RATE_PER_EMAIL_HOUR = env_rate("INVITE_RATE_PER_EMAIL_HOUR", "5/h")
INVITE_RATE_PER_EMAIL_DAY = env_rate("INVITE_RATE_PER_EMAIL_DAY", "20/d")
# Live-update streams (backgammon/views/live.py) each player may open, one per page loaded: an
# open stream costs the server a little memory and a task, so a script may not open thousands.
LIVE_STREAMS_RATE = env_rate("LIVE_STREAMS_RATE", "120/m")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
# The site is in English only: without translation machinery every {% url %}, reverse() and
# date in a page skips looking up the active language (a tenth of a game region's time went to
# reversing URLs, a third of that to finding the language).
USE_I18N = False
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
# A mail server that stops answering gives up after EMAIL_TIMEOUT seconds (Django's default is to
# wait for ever, holding the worker); a notice's mail not accepted within
# NOTICE_RESEND_AFTER_SECONDS (its worker killed, or the server failed) is sent again by the
# workers' tick, at most NOTICE_SEND_ATTEMPTS times in all (notices/outbox.py).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
NOTICE_RESEND_AFTER_SECONDS = env_int("NOTICE_RESEND_AFTER_SECONDS", 180)
NOTICE_SEND_ATTEMPTS = env_int("NOTICE_SEND_ATTEMPTS", 5)
if NOTICE_RESEND_AFTER_SECONDS <= EMAIL_TIMEOUT:
    raise ImproperlyConfigured("NOTICE_RESEND_AFTER_SECONDS must be longer than EMAIL_TIMEOUT.")
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

# Web Push (notices/push/, RFC 8030/8291/8292): the site's VAPID key pair signs every push. From
# the environment; a development process that takes its keys from .dev-secrets takes this one
# there too. Without it push is off (the notices page says so) and the rest of the site works.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "").strip() or _DEV_SECRETS.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = ""
if VAPID_PRIVATE_KEY:
    try:
        VAPID_PUBLIC_KEY = public_key_for(VAPID_PRIVATE_KEY)
    except ValueError as _error:
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not a VAPID private key: {_error}.") from None
    # Optional, for operators who keep both halves: it must be this key's own public half.
    if env_str("VAPID_PUBLIC_KEY", "").strip().rstrip("=") not in ("", VAPID_PUBLIC_KEY):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY.")
# Who runs this site, for the push services (the JWT's "sub"): a mailto: or https: address.
VAPID_SUBJECT = env_str(
    "VAPID_SUBJECT",
    SITE_URL if SITE_URL.startswith("https://") else "mailto:" + parseaddr(DEFAULT_FROM_EMAIL)[1],
)
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: or https: address.")
# The push services the server may post to: a subscription's endpoint must be https on one of
# these hosts ("*.example.com": any host under it), so nobody can make the server send requests
# to an address of their choosing. Default: the browsers' own services (Chrome and the other
# Chromium browsers on FCM, Firefox's autopush, Edge's WNS, Safari's).
PUSH_SERVICE_HOSTS = [
    host.lower()
    for host in env_list(
        "PUSH_SERVICE_HOSTS",
        ["fcm.googleapis.com", "android.googleapis.com", "updates.push.services.mozilla.com",
         "*.notify.windows.com", "web.push.apple.com"],
    )
]
# "Send a test" on the notices page, per player (each one is a request to a push service).
PUSH_TEST_RATE = env_rate("PUSH_TEST_RATE", "10/h")

# HTTPS hardening, on by default in production; each switch can be turned off from the
# environment (the test suite does, since its servers speak plain HTTP).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 30)
# A site on HTTPS should not have plain-HTTP subdomains a network attacker could use to plant
# cookies, so HSTS covers them whenever it is on (turn off only with a reason).
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE_HSTS_SECONDS > 0)
# Asking browsers to preload HSTS is a commitment for months that cannot be taken back quickly
# (and needs a year's max-age), so it is the operator's choice, off by default; then Django's
# reminder about it (security.W021) is silenced, so `check --deploy` stays clean.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
# Load balancers ask for /health/ over plain HTTP (gamesite/health.py answers before this
# middleware anyway; the exemption keeps it so if the order ever changes).
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
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
        # The installable app: its manifest and the service worker at /sw.js (gamesite/pwa.py).
        "manifest-src": [SELF],
        "worker-src": [SELF],
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

# Logs go to standard error (systemd's journal, a container's log): plain text by default,
# one JSON object per line with LOG_FORMAT=json (python-json-logger), where each request's line
# (gamesite.request_log) carries request_id, user_id, method, path, status and duration_ms.
LOG_FORMAT = env_str("LOG_FORMAT", "text")
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT must be 'text' or 'json', not {LOG_FORMAT!r}.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
