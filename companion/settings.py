"""Tractor Companion's one settings file: every knob comes from the environment. With DEBUG on
(as `make run` and the tests set it) it needs nothing else: SQLite, and a secret key generated
once into `.secret_key`. With DEBUG off (the default) it is production: SECRET_KEY is required,
cookies are secure and plain HTTP is redirected to HTTPS."""

from __future__ import annotations

import os
import tempfile
from ipaddress import ip_network
from pathlib import Path

import bootstrap_wrapper
import dj_database_url
from csp.constants import NONE, SELF
from django.contrib.messages import constants as message_constants
from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from companion import lan

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def local_secret_key(path: Path) -> str:
    """The key of this checkout, made on its first start: sessions outlive a restart."""
    if not path.exists():
        path.write_text(get_random_secret_key())
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (`make run` starts the app locally)"
        )
    SECRET_KEY = local_secret_key(BASE_DIR / ".secret_key")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
# `make run` serves the other phones at the table too, which open the app by this machine's
# address on the local network (the home page shows it): DEBUG runs accept it, production never.
LAN_ADDRESS = lan.address() if DEBUG else None
if LAN_ADDRESS:
    ALLOWED_HOSTS.append(LAN_ADDRESS)

# HTTPS. A TLS-terminating proxy in front says which scheme the browser used; trusting its
# header lets a browser's POST match its own https:// origin (or CSRF refuses it).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# The proxies (addresses or networks) whose X-Forwarded-For names the client: the one on this
# machine by default. Anyone else's header is ignored, or a client would choose its own address.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "127.0.0.1,::1") if BEHIND_PROXY else []
for proxy in TRUSTED_PROXIES:
    try:
        ip_network(proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES lists addresses or networks (10.0.0.1, 10.0.0.0/24), not {proxy!r}"
        ) from None
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# A form refused for its cookie gets the app's 403 page (Django's help only on this machine).
CSRF_FAILURE_VIEW = "companion.debug_pages.csrf_failure"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
# Browsers remember HSTS for this long, so it is the operator's choice, once HTTPS works.
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

INSTALLED_APPS = [
    "companion",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "crispy_forms",
    # Django's own widget templates, for the project-wide form renderer below.
    "django.forms",
    "axes",
    "django_tasks",
    "django_tasks_db",
]

# django-crispy-forms draws forms with the project's own template pack, never a third party's.
CRISPY_TEMPLATE_PACK = "tractor"
CRISPY_ALLOWED_TEMPLATE_PACKS = ("tractor",)

# Work that must not run in a request (an import, re-rating a group after an old game changed)
# is queued in the database and run by `manage.py db_worker`, which `make run` and `make serve`
# start beside the app: any server's worker takes any server's task.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # With DEBUG on, the phones on the local network get the ordinary error pages.
    "companion.debug_pages.debug_pages_for_this_machine",
    # Pages go out compressed (static files already are, by whitenoise above). BREACH, which
    # reads secrets out of compressed sizes, is met by Django masking the CSRF token afresh in
    # every response.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A login brings back the account's language (its cookie, set on the login's response).
    "companion.languages.account_language_cookie",
    # A login tells its browser it is known for that account (companion/throttling.py).
    "companion.throttling.known_browser_cookie",
    "companion.limits.body_limit",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "companion.urls"
WSGI_APPLICATION = "companion.wsgi.application"

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
            ],
        },
    },
]

# Every form but the import's fits in a few kilobytes; companion.limits refuses bigger bodies
# (files too) before they are read, the import page allowing its own file size.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2**20

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite ignores SELECT ... FOR UPDATE: taking the write lock when a transaction starts
    # makes a second save wait for the first and then see that the game changed.
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
else:
    # Opening a PostgreSQL connection costs more than a page's queries: each worker keeps its
    # connection this many seconds, checked before reuse so that a restarted database is no error.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "60"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Shared by every app process and server (the throttles' counts, which a restart may forget;
# nothing depends on it): a table of the database (a migration makes it), or Redis when CACHE_URL
# or REDIS_URL names one.
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_URL")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "CACHE_URL names a Redis server (redis://, rediss:// or unix://), "
            f"got a {CACHE_URL.split(':', 1)[0]!r} URL"
        )
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "companion_cache",
            # A ladder is replaced by the next change, never timed out; one per group.
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }
# The scoreboard's HTML per game version (companion/scoreboard.py): in each process's memory,
# as a GET must write nothing; its key names the version, so it is never stale.
CACHES["scoreboards"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "scoreboards",
    "TIMEOUT": None,
    "OPTIONS": {"MAX_ENTRIES": 500},
}
# The scoreboard a save made (companion/scoreboard.py keep_board), for the page that follows the
# save in whichever process serves it: Redis where there is one, else files that every process
# on this machine reads (a lookup in the database's cache table would cost every page a query).
# Its key names the version too; a board not found is made again.
CACHES["boards"] = (
    CACHES["default"]
    if CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": Path(tempfile.gettempdir()) / "tractor-companion-boards",
        "TIMEOUT": 300,
    }
)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The players' languages: a page speaks the one chosen with the switch at its foot (a cookie, and
# for an account companion.models.AccountLanguage), else the browser's. The catalogues are
# locale/<language>/LC_MESSAGES/django.po, compiled and committed (`make messages`).
LANGUAGES = [
    ("zh-hans", _("Simplified Chinese")),
    ("en", _("English")),
    ("fr", _("French")),
    ("es", _("Spanish")),
    ("pt-br", _("Brazilian Portuguese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A visitor's choice outlives the browser's session; no script reads it.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Bootstrap's stylesheets come from the bootstrap-wrapper wheel, served as static/bootstrap/css/;
# no page uses Bootstrap's scripts.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("bootstrap/css", Path(bootstrap_wrapper.get_bootstrap_dir()) / "css"),
]
# Production serves what `collectstatic` gathered into STATIC_ROOT, named by content and
# compressed ahead of time (gzip and brotli), so whitenoise lets browsers keep each file for a
# year; with DEBUG on, the source folders are served as they are edited.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "companion.storage.StaticFiles"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
# The web manifest's own type (whitenoise knows no .webmanifest).
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}
# Every page names static files through {% static %}, so only the hashed copies are served.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
# Source maps are fetched by a developer's tools only: not worth brotli's time at collectstatic.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

# Bootstrap names the error alert "danger".
MESSAGE_TAGS = {message_constants.ERROR: "danger"}

# Every field through templates/companion/includes/field.html, with Bootstrap's classes.
FORM_RENDERER = "companion.forms.rendering.Renderer"

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# Content Security Policy: scripts and stylesheets come from this site's static files only (htmx
# and Bootstrap among them); no inline script, event handler or style attribute. Bootstrap
# draws its form controls' icons as data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        # The web manifest and the service worker that make the app installable.
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# The app uses none of the browser's powerful features.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

# Login throttling (django-axes, kept in the database so every app server sees it; the callables
# are in companion/throttling.py): after AXES_FAILURE_LIMIT wrong passwords for one username,
# from any addresses, it is refused, right password or not, for AXES_COOLOFF_MINUTES, doubled for
# each further round in a day, except on a browser that has logged in as it before; an address
# whose wrong passwords span more than AXES_ADDRESS_USERNAME_LIMIT usernames in an hour is
# refused until the hour has fewer. The admin's login is the same login.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "companion.throttling.Handler"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_ADDRESS_USERNAME_LIMIT = int(os.environ.get("AXES_ADDRESS_USERNAME_LIMIT", "20"))
AXES_COOLOFF_MINUTES = int(os.environ.get("AXES_COOLOFF_MINUTES", "15"))
AXES_COOLOFF_TIME = "companion.throttling.cool_off"
# Each attempt expires by its own username's cool-off, not by whoever failed last.
AXES_USE_ATTEMPT_EXPIRATION = True
# Every failure with its address: what the growing cool-off and the address limit count.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_PARAMETERS = ["username"]
# Axes warns when its parameters leave out the address, for sets such as (username, user agent)
# that a client rotating its user agent escapes. A username's failures here are counted from
# every address and user agent together, and the address has its own limit (the handler's).
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_RESET_ON_SUCCESS = True
# A refused try does not restart the pause: "try again in 15 minutes" stays true.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_WHITELIST_CALLABLE = "companion.throttling.known_browser"
AXES_LOCKOUT_CALLABLE = "companion.throttling.lockout"
AXES_USERNAME_CALLABLE = "companion.throttling.attempted_username"
AXES_CLIENT_IP_CALLABLE = "companion.throttling.client_address"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# A server error's traceback goes to the server's log (gunicorn's stderr): with DEBUG off and no
# ADMINS to mail, Django would otherwise keep it nowhere.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
}
