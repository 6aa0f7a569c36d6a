"""Security headers the whole site shares."""

from django.conf import settings

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
