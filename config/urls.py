"""Top-level addresses (docs/addresses.md). Bench pages come last: ``/<bench>/``
would otherwise shadow the site's own prefixes, which is also why those
prefixes are reserved bench ids."""

from django.contrib import admin
from django.urls import include, path, register_converter

from core.health import healthz
from formats.v1.slugs import SlugConverter

register_converter(SlugConverter, "rslug")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("trajectories.api.urls")),
    path("data/v1/", include("trajectories.mirror.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("trajectories.urls")),
    path("", include("trajectories.analysis_urls")),
    path("", include("leaderboard.urls")),
]

# The site's own error pages (production settings: DEBUG off); /api/ and
# /data/v1/ answer their errors in their own shapes before these are reached.
handler404 = "core.errors.not_found"
handler500 = "core.errors.server_error"
