"""GET /api/: every resource of the API with its address, and the docs.

DRF's browsable renderer answers a browser (Accept: text/html) with a page;
every other client gets JSON. The API is read-only and needs no login.
"""

from __future__ import annotations

from django.urls import reverse as url_of
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from core import html as markup

# Resource name → URL name, in the order a reader meets them.
RESOURCES: dict[str, str] = {
    "benches": "api-bench-list",
    "models": "api-model-list",
    "tasks": "api-task-list",
    "attempts": "api-attempt-list",
    "checks": "api-check-list",
    "events": "api-event-list",
    "requests": "api-request-list",
    "analysis/tool-failures": "api-analysis-tool-failures",
    "analysis/protocol": "api-analysis-protocol",
    "search": "api-search",
    "schema": "api-schema",
    "docs": "api-docs",
}


class APIRootView(APIView):
    """The index of the API: every resource's address, the schema and the docs."""

    # The schema describes resources, not this index of them.
    schema = None

    def get_view_name(self) -> str:
        return "Benchview API"

    def get_view_description(self, html: bool = False) -> str:
        text = (
            "Read-only, open to everyone: no login and no key. "
            "Every resource is filterable and paginated."
        )
        if not html:
            return text
        return markup.html(
            '<p>{} The <a href="{}">docs page</a> lists every parameter; the release files '
            'themselves are served at <a href="{}">/data/v1/</a>. '
            'Back to <a href="{}">Benchview</a>.</p>',
            text,
            url_of("api-docs"),
            url_of("data-root"),
            url_of("home"),
        )

    def get(self, request, format=None):
        links = {name: reverse(url, request=request) for name, url in RESOURCES.items()}
        links["data"] = request.build_absolute_uri("/data/v1/")
        return Response(links)
