"""Benchview settings: one module, driven by environment variables.

With no variables set it runs on SQLite in the project folder (``make demo``).
Production-only behaviour is switched on by explicit variables, never by
``DEBUG=False`` alone, so ``DEBUG=False manage.py runserver --insecure`` still
serves a working site.
"""

import ipaddress
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config import hosts
from config.api_docs import API_DOCS
from config.env import envbool, envint, envlist, envpath

BASE_DIR = Path(__file__).resolve().parent.parent
# Templates and static files: beside the apps, or in the installed wheel's config package.
RESOURCE_DIR = BASE_DIR if (BASE_DIR / "templates").is_dir() else Path(__file__).resolve().parent


# What the site writes (SQLite, var/, media/, staticfiles/): the checkout, else the
# current folder (an installed wheel), unless set; `benchview view` sets its cache.
DATA_DIR = envpath("BENCHVIEW_DATA_DIR", BASE_DIR if RESOURCE_DIR == BASE_DIR else Path.cwd())

DEBUG = envbool("DEBUG", True)
# The built-in key only suits local development: with DEBUG off there is no
# default, so a production site missing its key refuses to start instead of
# signing sessions with a key anyone can read here.
SECRET_KEY = os.environ.get("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set and DEBUG is false: set SECRET_KEY (make serve generates "
            "one into var/secret-key), or set DEBUG=true for local development"
        )
    SECRET_KEY = "benchview-insecure-demo-key-change-me"  # noqa: S105 - DEBUG only, refused otherwise
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks",
    "django_tasks_db",
    "axes",  # sign-in lockout (AXES_ below)
    "leaderboard",
    "trajectories",
    "ingest",
    "samplegen",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise, which answers static files itself (already compressed
    # at collectstatic); above everything that writes a body. Streamed
    # responses are compressed chunk by chunk, and strong ETags are weakened.
    "django.middleware.gzip.GZipMiddleware",
    "core.middleware.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The site's own 404 pages with DEBUG on too (never Django's URL list).
    "core.middleware.DesignedNotFoundMiddleware",
    # Last: it knows the user, and its answers still pass through the CSP and
    # compression above (it stores pages already compressed).
    "core.page_cache.PageCacheMiddleware",
    # The same for /api/ answers, counting each one for the API's rate limit.
    "core.answer_cache.APIAnswerCacheMiddleware",
    "axes.middleware.AxesMiddleware",  # answers a locked-out sign-in (AXES_ below)
]

# What core (the site-level package, which imports no app) asks of the apps:
# name -> the function that answers (core/hooks.py).
BENCHVIEW_HOOKS = {
    "generation": "leaderboard.site_hooks.generation",
    "sees_staged": "leaderboard.visibility.can_see_staged",
    "unreleased_task": "leaderboard.site_hooks.unreleased_task",
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCE_DIR / "templates"],
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

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the site read while an import writes; a second writer waits.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;"}
    )

# A running import's progress goes through a connection of its own so its page
# sees it before the import commits (ingest/routers.py): on PostgreSQL a second
# connection to the same database, on SQLite a side file, since SQLite lets no
# second connection write while an import holds the write lock.
_progress = {**DATABASES["default"], "OPTIONS": dict(DATABASES["default"].get("OPTIONS", {}))}
if _progress["ENGINE"] == "django.db.backends.sqlite3":
    _progress["NAME"] = f"{DATABASES['default']['NAME']}-progress"
    # Tests may point the main test database at a file (workers in subprocesses).
    _test_name = DATABASES["default"].get("TEST", {}).get("NAME")
    _progress["TEST"] = {"NAME": f"{_test_name}-progress" if _test_name else None}
else:
    _progress["TEST"] = {"MIRROR": "default"}
DATABASES["progress"] = _progress
DATABASE_ROUTERS = ["ingest.routers.ProgressRouter"]
# Anonymous GETs read from a streaming replica when DATABASE_REPLICA_URL is set.
if _replica := hosts.replica_database(DATABASES["default"]):
    DATABASES["replica"] = _replica
    DATABASE_ROUTERS.append("core.replica.ReplicaRouter")
    MIDDLEWARE.insert(0, "core.replica.ReplicaPinMiddleware")
BENCHVIEW_REPLICA_RETRY_S = envint("BENCHVIEW_REPLICA_RETRY_S", 10)

# Admin imports run as background jobs on Django's tasks API; the queue is a
# table of the database (django-tasks-db), worked by `manage.py db_worker`.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATICFILES_DIRS = [RESOURCE_DIR / "static"]
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or DATA_DIR / "media")
MEDIA_URL = "media/"

MANIFEST_STATIC = envbool("BENCHVIEW_MANIFEST_STATIC", False)
# Blobs, admin uploads and the import folder: MEDIA_ROOT and local folders, or one
# S3 bucket when BENCHVIEW_S3_BUCKET is set (config/hosts.py, docs/deploy.md).
STORAGES = hosts.storages(manifest_static=MANIFEST_STATIC)
BENCHVIEW_S3_BUCKET = hosts.S3_BUCKET
BENCHVIEW_S3_BLOB_SERVE = hosts.blob_serve()
SECURE_SSL_REDIRECT = envbool("BENCHVIEW_HTTPS", False)
SESSION_COOKIE_SECURE = SECURE_SSL_REDIRECT
CSRF_COOKIE_SECURE = SECURE_SSL_REDIRECT
if SECURE_SSL_REDIRECT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # A year, as browsers' preload lists ask; preloading itself stays an
    # explicit choice (README, Configuration), the one `check --deploy` reports.
    SECURE_HSTS_SECONDS = envint("BENCHVIEW_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("BENCHVIEW_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("BENCHVIEW_HSTS_PRELOAD", False)
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])
# Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For
# the API's rate limit believes; from anyone else the header is ignored.
BENCHVIEW_TRUSTED_PROXIES = envlist("BENCHVIEW_TRUSTED_PROXIES", [])
for _proxy in BENCHVIEW_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"BENCHVIEW_TRUSTED_PROXIES: {_proxy!r} is not an address or network"
        ) from None
# Sign-in lockout by account and by address (django-axes, docs/operations.md): the
# failures are database rows every host sees; the address is the API rate limit's.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = "config.login_lockout.failure_limit"
AXES_COOLOFF_TIME = "config.login_lockout.cool_off"
AXES_CLIENT_IP_CALLABLE = "config.login_lockout.request_client_address"
AXES_LOCKOUT_CALLABLE = "config.login_lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# "default" is each worker's own memory (built mirror documents: a copy per
# worker is fine). "shared" is one store every worker and machine sees, for
# counts that must add up across them (the API rate limit): Redis when
# BENCHVIEW_REDIS_URL is set (needs the redis package); else the database
# cache on PostgreSQL (its table is made by migrate); else, on SQLite, a
# folder, since SQLite means one machine and the database cache would wait
# on an import holding SQLite's only write lock.
REDIS_URL = os.environ.get("BENCHVIEW_REDIS_URL") or ""
SHARED_CACHE_MAX_ENTRIES = envint("BENCHVIEW_SHARED_CACHE_MAX_ENTRIES", 5000)
if REDIS_URL:
    SHARED_CACHE = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    SHARED_CACHE = {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": os.environ.get("BENCHVIEW_CACHE_DIR") or str(DATA_DIR / "var" / "cache"),
    }
else:
    SHARED_CACHE = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "benchview_shared_cache",
    }
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "benchview",
    },
    # Rendered pages and API answers (core/page_cache.py): per worker,
    # keyed on the site's generation, so no entry outlives the data it shows.
    "pages": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "benchview-pages",
        "OPTIONS": {"MAX_ENTRIES": envint("BENCHVIEW_PAGE_CACHE_ENTRIES", 500)},
    },
    "shared": {
        **SHARED_CACHE,
        "KEY_PREFIX": "benchview",
        "OPTIONS": {"MAX_ENTRIES": SHARED_CACHE_MAX_ENTRIES} if not REDIS_URL else {},
    },
}

# ---------------------------------------------------------------------------
# Limits. Every size, count and page length the code enforces lives here.
# ---------------------------------------------------------------------------
BENCHVIEW_LIMITS = {
    # Release archives and folders (the safe reader).
    "archive_max_bytes": envint("BENCHVIEW_ARCHIVE_MAX_BYTES", 2 * 1024**3),  # unpacked total
    "archive_max_entries": envint("BENCHVIEW_ARCHIVE_MAX_ENTRIES", 200_000),
    "file_max_bytes": envint("BENCHVIEW_FILE_MAX_BYTES", 256 * 1024**2),  # one file
    "upload_max_bytes": envint("BENCHVIEW_UPLOAD_MAX_BYTES", 512 * 1024**2),  # admin upload
    # Blobs (patches, transcripts, tickets) above this size go to file storage.
    "blob_db_max_bytes": hosts.blob_db_max_bytes(),
    # Release documents (formats.v1.jsondoc, formats.v1.schema_base): nesting depth of a
    # JSON file (at most 254: orjson, which writes events and requests, stops at 255); the
    # magnitude of every number the format types (scores, costs, durations):
    # ten thousand attempts at the bound still sum to a finite figure.
    "json_max_depth": envint("BENCHVIEW_JSON_MAX_DEPTH", 254),
    "number_max_abs": envint("BENCHVIEW_NUMBER_MAX_ABS", 10**12),
    # Bulk inserts.
    "bulk_batch_size": envint("BENCHVIEW_BULK_BATCH_SIZE", 2000),
    # Rows per INSERT of SQLite's background event writes (ingest.writing.bulk), rounded
    # down to a power of two: SQLite keeps every distinct one it prepared.
    "bulk_values_rows": envint("BENCHVIEW_BULK_VALUES_ROWS", 256),
    # An import writes attempts' rows together once they hold about this many bytes
    # (ingest.writing.attempt_batch): fewer statements, memory still flat. Up to 2.5 batches'
    # worth is in memory at once: one written on a second thread while the next is read and
    # grows to 1.5 times this size (ingest.writing.background_write). A chunked import commits
    # every import_chunk_bytes of attempt files; a hidden bench is deleted in batches of attempts.
    "import_batch_bytes": envint("BENCHVIEW_IMPORT_BATCH_BYTES", 4 * 1024**2),
    "import_chunk_bytes": envint("BENCHVIEW_IMPORT_CHUNK_BYTES", 256 * 1024**2),
    "bench_delete_batch_attempts": envint("BENCHVIEW_BENCH_DELETE_BATCH_ATTEMPTS", 500),
    # Pages. The home page lists each bench's top models; an attempt's events are
    # read from the database this many rows per round trip.
    "home_top_models": envint("BENCHVIEW_HOME_TOP_MODELS", 5),
    "event_query_chunk_rows": envint("BENCHVIEW_EVENT_QUERY_CHUNK_ROWS", 1000),
    "event_preview_chars": envint("BENCHVIEW_EVENT_PREVIEW_CHARS", 600),
    "event_input_preview_chars": envint("BENCHVIEW_EVENT_INPUT_PREVIEW_CHARS", 1200),
    "search_max_results": envint("BENCHVIEW_SEARCH_MAX_RESULTS", 200),
    # Events per trajectory slice (…/events/?from=N): slices start at multiples
    # of it, so their addresses and ETags are stable.
    "event_slice_size": envint("BENCHVIEW_EVENT_SLICE_SIZE", 500),
    # Events the attempt page carries as sent (at most a slice): several
    # screens of reading. The rest of the first slice arrives like any later
    # one, so the page's own weight does not decide how soon a deep link shows.
    "attempt_first_events": envint("BENCHVIEW_ATTEMPT_FIRST_EVENTS", 100),
    # Search across trajectories (/<bench>/search/): characters of each of an event's text,
    # output and input that are indexed (read when the index is built by its migration:
    # PostgreSQL keeps at most 16,383 word positions per event, so phrases deep in a huge
    # output could not match anyway); attempts per results page; matching events shown per
    # attempt; matches counted for the total and the facets before they read "10,000+";
    # rows in a CSV/JSON download.
    "search_index_chars": envint("BENCHVIEW_SEARCH_INDEX_CHARS", 50_000),
    "search_attempts_per_page": envint("BENCHVIEW_SEARCH_ATTEMPTS_PER_PAGE", 20),
    "search_events_per_attempt": envint("BENCHVIEW_SEARCH_EVENTS_PER_ATTEMPT", 5),
    "search_count_cap": envint("BENCHVIEW_SEARCH_COUNT_CAP", 10_000),
    "search_download_max_rows": envint("BENCHVIEW_SEARCH_DOWNLOAD_MAX_ROWS", 10_000),
    # What one search may ask (query characters, words to find, words to exclude) and
    # take (its queries' time in all) before it is refused (docs/search.md).
    "search_query_max_chars": envint("BENCHVIEW_SEARCH_QUERY_MAX_CHARS", 500),
    "search_max_terms": envint("BENCHVIEW_SEARCH_MAX_TERMS", 12),
    "search_max_excluded": envint("BENCHVIEW_SEARCH_MAX_EXCLUDED", 8),
    "search_time_limit_ms": envint("BENCHVIEW_SEARCH_TIME_LIMIT_MS", 2500),
    # A search hit's snippet (results pages and the attempt page's search): its
    # length, and how much of it comes before the hit.
    "search_snippet_chars": envint("BENCHVIEW_SEARCH_SNIPPET_CHARS", 240),
    "search_snippet_before_chars": envint("BENCHVIEW_SEARCH_SNIPPET_BEFORE_CHARS", 60),
    # /<bench>/models/<a>/vs/<b>/: tasks listed where the two differ most.
    "versus_top_tasks": envint("BENCHVIEW_VERSUS_TOP_TASKS", 20),
    # The attempt page's search reads an event's text and output in pieces of this many
    # characters, so memory stays bounded however large one event is.
    "search_chunk_chars": envint("BENCHVIEW_SEARCH_CHUNK_CHARS", 256 * 1024),
    # Attempt and compare pages: vendor bodies shown before "see the log file";
    # patches highlighted up to this size (larger ones are linked raw); the
    # exact (dynamic programming) alignment of two trajectories up to this many
    # cells (tool calls of one times the other), beyond it an approximate one.
    "vendor_body_preview_chars": envint("BENCHVIEW_VENDOR_BODY_PREVIEW_CHARS", 20_000),
    "patch_render_max_chars": envint("BENCHVIEW_PATCH_RENDER_MAX_CHARS", 1_000_000),
    "compare_align_max_cells": envint("BENCHVIEW_COMPARE_ALIGN_MAX_CELLS", 1_000_000),
    # Past that, still exact by the bit-parallel LCS up to this many cells
    # (one bit each: 256M is 32 MB of rows); past this, difflib's approximation.
    "compare_align_max_bits": envint("BENCHVIEW_COMPARE_ALIGN_MAX_BITS", 256_000_000),
    # How long a pair's alignment is kept for its later pages (trajectories.compare_rows).
    "compare_align_cache_seconds": envint("BENCHVIEW_COMPARE_ALIGN_CACHE_SECONDS", 3600),
    # Attempt page: error events its summary links to, failures linked per tool,
    # events rendered per piece of the streamed response. Compare page:
    # characters of a step's command in the alignment table.
    "attempt_first_errors": envint("BENCHVIEW_ATTEMPT_FIRST_ERRORS", 5),
    "attempt_first_failures": envint("BENCHVIEW_ATTEMPT_FIRST_FAILURES", 3),
    "attempt_events_per_piece": envint("BENCHVIEW_ATTEMPT_EVENTS_PER_PIECE", 500),
    "compare_step_chars": envint("BENCHVIEW_COMPARE_STEP_CHARS", 160),
    # The compare page's aligned steps: rows per page (?rows=N), so its HTML is
    # bounded whatever the two trajectories' lengths, and how many one-sided
    # rows in a row are folded into one.
    "compare_rows_per_page": envint("BENCHVIEW_COMPARE_ROWS_PER_PAGE", 300),
    "compare_fold_min_rows": envint("BENCHVIEW_COMPARE_FOLD_MIN_ROWS", 4),
    "matrix_tasks_per_page": envint("BENCHVIEW_MATRIX_TASKS_PER_PAGE", 200),
    # Sign-in: failures for an account or from an address before a lockout of N minutes.
    "login_failure_limit": envint("BENCHVIEW_LOGIN_FAILURE_LIMIT", 5),
    "login_lockout_minutes": envint("BENCHVIEW_LOGIN_LOCKOUT_MINUTES", 15),
    "api_page_size": envint("BENCHVIEW_API_PAGE_SIZE", 100),
    "api_max_page_size": envint("BENCHVIEW_API_MAX_PAGE_SIZE", 1000),
    # The /data/v1 mirror: browser/CDN cache lifetime of public files; how long a
    # worker trusts its fingerprint of a bench before checking the database again
    # (a re-import shows within this many seconds; 0 checks on every request);
    # how long built documents stay in Django's cache; streaming piece sizes.
    "mirror_max_age_s": envint("BENCHVIEW_MIRROR_MAX_AGE_S", 300),
    "mirror_state_ttl_s": envint("BENCHVIEW_MIRROR_STATE_TTL_S", 2),
    "mirror_doc_cache_s": envint("BENCHVIEW_MIRROR_DOC_CACHE_S", 3600),
    "mirror_stream_chunk_events": envint("BENCHVIEW_MIRROR_STREAM_CHUNK_EVENTS", 500),
    "mirror_stream_chunk_bytes": envint("BENCHVIEW_MIRROR_STREAM_CHUNK_BYTES", 256 * 1024),
    # Rendered-page cache (core/page_cache.py): how long an entry is
    # kept (a bound for writes that bypass the import and publish services;
    # those invalidate at once; 0 turns the cache off), and the largest page kept.
    "page_cache_s": envint("BENCHVIEW_PAGE_CACHE_S", 600),
    # API requests a process counts before adding them to the shared count
    # (trajectories/api/counts.py): the rate limit holds to within this many
    # per process; within this many of the limit every request is added.
    "api_throttle_batch": envint("BENCHVIEW_API_THROTTLE_BATCH", 20),
    "page_cache_max_bytes": envint("BENCHVIEW_PAGE_CACHE_MAX_BYTES", 4 * 1024**2),
    # Analysis pages: rows per table; characters of a failed call's command.
    "analysis_max_rows": envint("BENCHVIEW_ANALYSIS_MAX_ROWS", 500),
    "analysis_command_chars": envint("BENCHVIEW_ANALYSIS_COMMAND_CHARS", 200),
    # Paired statistics (tie groups, at import): bootstrap cells (resampled rows × tasks) built at a
    # time, which bounds the memory one computation takes: about 24 bytes a cell (draws, counts,
    # counts as floats), so 6 MiB here; 2,000,000 cells were 64 MiB, a third of an import's peak at
    # the seed's scale. The draws do not depend on it; the intervals' last bits may (the sums are
    # blocked differently), so a change shows as changed rows at the next import.
    "paired_chunk_cells": envint("BENCHVIEW_PAIRED_CHUNK_CELLS", 250_000),
    # Admin import: staged uploads older than this are swept; bytes of form
    # fields and multipart framing allowed around the archive (a longer request
    # cannot hold an acceptable upload and is refused unread).
    "upload_stale_s": envint("BENCHVIEW_UPLOAD_STALE_S", 24 * 3600),
    "upload_body_overhead_bytes": envint("BENCHVIEW_UPLOAD_BODY_OVERHEAD_BYTES", 64 * 1024),
    # The import lock: characters of its holder's description kept (who is importing).
    "import_lock_holder_chars": envint("BENCHVIEW_IMPORT_LOCK_HOLDER_CHARS", 300),
    # Import jobs: how often a running job writes its progress and heartbeat,
    # how long without one before it counts as dead (its worker was killed),
    # how often its page asks for news, and how many jobs the history lists.
    "job_beat_s": envint("BENCHVIEW_JOB_BEAT_S", 1),
    "job_lease_s": envint("BENCHVIEW_JOB_LEASE_S", 120),
    "job_poll_ms": envint("BENCHVIEW_JOB_POLL_MS", 1000),
    "job_history_max": envint("BENCHVIEW_JOB_HISTORY_MAX", 100),
    # Raw transcripts: fidelity differences and unmapped lines kept per attempt
    # (the counts are always exact); unmapped lines listed on the attempt page;
    # bytes per piece of the streamed transcript page.
    "transcript_differences_max": envint("BENCHVIEW_TRANSCRIPT_DIFFERENCES_MAX", 20),
    "transcript_unmapped_max": envint("BENCHVIEW_TRANSCRIPT_UNMAPPED_MAX", 10_000),
    "transcript_unmapped_shown": envint("BENCHVIEW_TRANSCRIPT_UNMAPPED_SHOWN", 200),
    "transcript_page_chunk_bytes": envint("BENCHVIEW_TRANSCRIPT_PAGE_CHUNK_BYTES", 256 * 1024),
    # Lines per transcript page (``?from=``); ``?all=1`` gives every line.
    "transcript_page_lines": envint("BENCHVIEW_TRANSCRIPT_PAGE_LINES", 2000),
    # Bytes of a transcript line shown on its page (the rest is one click
    # away, ?line=N): with the lines per page, a bound on a page's size.
    "transcript_line_bytes": envint("BENCHVIEW_TRANSCRIPT_LINE_BYTES", 2000),
    # Admin import preview: names listed per group before "and N more".
    "preview_list_max": envint("BENCHVIEW_PREVIEW_LIST_MAX", 200),
}

# Where the admin may pick a release on the server; nothing outside it.
BENCHVIEW_IMPORT_DIR = Path(os.environ.get("BENCHVIEW_IMPORT_DIR") or DATA_DIR / "imports")
# SQLite only: the import lock's file (ingest.running.locks); PostgreSQL uses an advisory lock.
BENCHVIEW_LOCK_DIR = Path(os.environ.get("BENCHVIEW_LOCK_DIR") or DATA_DIR / "var" / "locks")
# Admin uploads stream here (private, never served) between preview and apply.
BENCHVIEW_UPLOAD_DIR = Path(os.environ.get("BENCHVIEW_UPLOAD_DIR") or DATA_DIR / "var" / "uploads")
# Release archives bypass these (ingest.admin.uploads streams them to disk under
# upload_max_bytes); every other request body stays small and carries no file.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FILES = 1
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700

# Scrubbing patterns the importer checks again (docs/release-format.md, "Scrubbing").
BENCHVIEW_SCRUB = {
    "host_suffixes": envlist("BENCHVIEW_SCRUB_HOST_SUFFIXES", [".internal", ".corp", ".lan"]),
    "home_prefixes": envlist("BENCHVIEW_SCRUB_HOME_PREFIXES", ["/home/", "/Users/"]),
    "header_names": envlist(
        "BENCHVIEW_SCRUB_HEADER_NAMES", ["cookie", "set-cookie", "forwarded", "x-forwarded-*"]
    ),
    # Simulator hosts that may match a suffix above and are allowed to stay.
    "allowed_hosts": envlist("BENCHVIEW_SCRUB_ALLOWED_HOSTS", []),
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON first: a client that names no type gets JSON; a browser asking for
    # text/html gets DRF's browsable page of the same data.
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": BENCHVIEW_LIMITS["api_page_size"],
    # Counted per client address in the "shared" cache (trajectories/api/throttling.py).
    "DEFAULT_THROTTLE_CLASSES": ["trajectories.api.throttling.SharedAnonRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": os.environ.get("BENCHVIEW_API_ANON_RATE") or "600/minute"},
    # One error shape for every API error (trajectories/api/errors.py).
    "EXCEPTION_HANDLER": "trajectories.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = API_DOCS

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL") or "WARNING"},
}
