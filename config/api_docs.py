"""drf-spectacular's settings for the API's schema and docs pages (split from
settings.py to keep it under the module length)."""

API_DOCS = {
    "TITLE": "Benchview API",
    "DESCRIPTION": "Read-only access to imported agent-benchmark releases.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep-link anchors inside the operations' toggle buttons: a link in a
    # button is a control no keyboard or screen reader can reach (axe's
    # nested-interactive). The operations stay one click from the page. No
    # syntax colouring either: its theme's numbers fail contrast on its dark
    # background, in inline styles a stylesheet cannot reach.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "syntaxHighlight": False},
    # The API is read-only and open: no security schemes, so the docs page
    # shows no "Authorize" button suggesting a login.
    "AUTHENTICATION_WHITELIST": [],
    # Every error status, in the one error shape (trajectories/api/schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "trajectories.api.schema.document_errors",
    ],
}
