import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()
# Load the URLconf, and with it every view module, now: with gunicorn's
# --preload this happens once before the workers fork, not on each worker's
# first request.
get_resolver().url_patterns  # noqa: B018
