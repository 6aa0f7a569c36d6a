"""Anonymous GETs read from the streaming replica (DATABASE_REPLICA_URL, docs/deploy.md).

A request is pinned once, when it starts, to one database for all of its reads,
the streamed body included: the site's generation counter (the page cache's key)
and the rows it guards then come from the same database, however far the replica
lags. Only a GET or HEAD without a session cookie is pinned to the replica: staff
and signed-in users, every write, imports, workers and commands stay on the
primary (nothing else sets the pin). A replica that does not answer is skipped
for ``replica_retry_s`` seconds by every request of the process.
"""

from __future__ import annotations

import logging
import time
from contextvars import ContextVar

from django.conf import settings
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, DatabaseError, InterfaceError, OperationalError, connections

REPLICA = "replica"
# Tables the replica must never answer for: counts that are read, added to and
# written back (the API rate limit in the database cache) need the primary's
# latest value.
_PRIMARY_ONLY_APPS = {"django_cache", "sessions", "axes"}

_pinned: ContextVar[bool] = ContextVar("benchview_replica_pinned", default=False)
_down_until = 0.0
logger = logging.getLogger(__name__)


def pinned() -> bool:
    return _pinned.get()


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        if _pinned.get() and model._meta.app_label not in _PRIMARY_ONLY_APPS:
            return REPLICA
        return None

    def db_for_write(self, model, **hints):
        # Rows read from the replica carry it as their database; writes never go there.
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints):
        both = {obj1._state.db, obj2._state.db}
        return True if both <= {DEFAULT_DB_ALIAS, REPLICA} else None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return False if db == REPLICA else None


def _replica_answers() -> bool:
    global _down_until
    if time.monotonic() < _down_until:
        return False
    connection = connections[REPLICA]
    try:
        connection.close_if_health_check_failed()
        connection.ensure_connection()
    except DatabaseError as exc:
        _mark_down(exc)
        return False
    return True


def _mark_down(exc: Exception) -> None:
    global _down_until
    _down_until = time.monotonic() + settings.BENCHVIEW_REPLICA_RETRY_S
    logger.warning("read replica unavailable, reading from the primary: %s", exc)


def _unpin(**kwargs) -> None:
    _pinned.set(False)


# After the response is closed: a streamed body is read from the same database.
request_finished.connect(_unpin, dispatch_uid="benchview-replica-unpin")


class ReplicaPinMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        anonymous = settings.SESSION_COOKIE_NAME not in request.COOKIES
        _pinned.set(request.method in ("GET", "HEAD") and anonymous and _replica_answers())
        return self.get_response(request)

    def process_exception(self, request, exception):
        # The replica failed mid-request: this request errs, the next ones go to
        # the primary until the retry time has passed.
        if _pinned.get() and isinstance(exception, (OperationalError, InterfaceError)):
            _mark_down(exception)
        return None
