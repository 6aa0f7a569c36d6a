"""The local server ``view`` runs: a threaded WSGI server in this process, and
the import worker (``db_worker``) beside it; Ctrl-C stops both.

A threaded server rather than gunicorn: one process starts in a fraction of a
second and serves a single person's browser well; ``benchview serve`` is the
production path.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True
    allow_reuse_address = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base's name)
        pass  # one line per request would bury the address in the terminal


def worker() -> subprocess.Popen:
    """``db_worker`` in a child process, with this process's settings."""
    return subprocess.Popen(
        [sys.executable, "-m", "benchview", "manage", "db_worker", "--no-reload"],
        stdout=subprocess.DEVNULL,
    )


def serve(host: str, port: int, *, ready: Callable[[str], None]) -> None:
    """Serve the site until Ctrl-C; ``ready`` gets the address once it listens."""
    # config.wsgi loads the URLconf and every view module now, so the address is
    # printed when the first page can be answered, not seconds before.
    from config.wsgi import application

    server = make_server(
        host, port, application, server_class=_ThreadingServer, handler_class=_QuietHandler
    )
    shown = f"[{host}]" if ":" in host else host
    ready(f"http://{shown}:{server.server_port}/")
    # Started once the site answers: its own Django start would otherwise take
    # the CPU the first page needs.
    child = worker()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            child.kill()
