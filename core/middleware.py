"""Middleware the whole site shares: security headers, and the designed 404
page with DEBUG on."""

from django.conf import settings
from django.http import Http404

from core.errors import not_found

# No inline script anywhere: pages load their small scripts from /static/.
# Styles may be inline only as attributes (heat-map colours, bar widths).
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = getattr(settings, "BENCHVIEW_CSP", CSP)
        response.headers.setdefault("Content-Security-Policy", policy)
        return response


class DesignedNotFoundMiddleware:
    """With DEBUG on, a 404 is the site's own "Not found" or "Not released yet"
    page (``handler404``), as in production, not Django's debug page: that one
    lists every URL pattern, an unreleased task's address among them, and it is
    what ``make demo`` shows a newcomer. 500s keep the debug traceback.

    Two ways lead to a 404: a view raises ``Http404`` (``process_exception``),
    or no pattern matches the address (no ``resolver_match``). Sits below
    CommonMiddleware, whose slash-appending redirect still sees the 404."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and getattr(request, "resolver_match", None) is None
        ):
            return not_found(request)
        return response

    def process_exception(self, request, exception):
        if settings.DEBUG and isinstance(exception, Http404):
            return not_found(request, exception)
        return None
