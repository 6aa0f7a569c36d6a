"""/api/: read-only resources, the analyses, the OpenAPI schema and its docs page."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from trajectories.api import errors, revisions, root, search, views

router = SimpleRouter()
router.register("benches", views.BenchViewSet, basename="api-bench")
router.register("models", views.ModelViewSet, basename="api-model")
router.register("tasks", views.TaskViewSet, basename="api-task")
router.register("attempts", views.AttemptViewSet, basename="api-attempt")
router.register("checks", views.CheckResultViewSet, basename="api-check")
router.register("events", views.EventViewSet, basename="api-event")
router.register("requests", views.VendorRequestViewSet, basename="api-request")

urlpatterns = [
    path("", root.APIRootView.as_view(), name="api-root"),
    path(
        "benches/<rslug:bench>/revisions/",
        revisions.RevisionList.as_view(),
        name="api-bench-revisions",
    ),
    *router.urls,
    path(
        "analysis/tool-failures/",
        views.ToolFailuresView.as_view(),
        name="api-analysis-tool-failures",
    ),
    path("analysis/protocol/", views.ProtocolView.as_view(), name="api-analysis-protocol"),
    path("search/", search.SearchView.as_view(), name="api-search"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads its init script from a URL, not inline: the site's
    # CSP forbids inline script. Swagger UI's assets come from the sidecar
    # package through /static/, so the page works offline.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^.*$", errors.not_found),
]
