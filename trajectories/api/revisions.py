"""/api/benches/<bench>/revisions/: a bench's revisions, newest first, each with
the frozen leaderboard and matrix documents its mirror files hold and what
changed since the one before (docs/revisions.md)."""

from __future__ import annotations

import json

from django.http import Http404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import generics, serializers

from leaderboard.models import Bench, BenchRevision
from trajectories.api.pagination import PagePagination


class RevisionSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="slug", help_text="the revision's address")
    revision = serializers.CharField(
        source="release_revision", help_text="the release's revision string"
    )
    leaderboard = serializers.SerializerMethodField(
        help_text="leaderboard.json as anonymous readers saw it (the mirror file's content)"
    )
    matrix = serializers.SerializerMethodField(help_text="matrix.json as it was")
    changes = serializers.JSONField(help_text="what changed since the previous revision")
    links = serializers.SerializerMethodField()

    class Meta:
        model = BenchRevision
        fields = ["id", "revision", "recorded_at", "cause", "changes", "leaderboard", "matrix",
                  "links"]  # fmt: skip

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_leaderboard(self, revision: BenchRevision) -> dict:
        return json.loads(revision.leaderboard_json)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_matrix(self, revision: BenchRevision) -> dict:
        return json.loads(revision.matrix_json)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_links(self, revision: BenchRevision) -> dict:
        request = self.context["request"]
        slug = self.context["bench"]
        return {
            name: request.build_absolute_uri(reverse(view, args=[slug, revision.slug]))
            for name, view in (
                ("page", "revision"),
                ("leaderboard", "mirror-revision-leaderboard"),
                ("matrix", "mirror-revision-matrix"),
            )
        }


class RevisionList(generics.ListAPIView):
    """A bench's revisions, newest first: the board and matrix of each as
    anonymous readers saw them, and what changed since the one before."""

    serializer_class = RevisionSerializer
    pagination_class = PagePagination

    def get_queryset(self):
        bench = Bench.objects.filter(slug=self.kwargs["bench"]).first()
        if bench is None:
            raise Http404("no such bench")
        return bench.revisions.newest_first()

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "bench": self.kwargs["bench"]}
