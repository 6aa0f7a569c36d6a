"""The release mirror: /data/v1/<bench>/… (docs/addresses.md)."""

from django.urls import path

from trajectories.mirror import index, revisions, views

urlpatterns = [
    path("", index.root, name="data-root"),
    path("<rslug:bench>/", index.bench, name="data-bench"),
    path("<rslug:bench>/manifest.json", views.manifest, name="mirror-manifest"),
    path("<rslug:bench>/leaderboard.json", views.leaderboard, name="mirror-leaderboard"),
    path("<rslug:bench>/matrix.json", views.matrix, name="mirror-matrix"),
    path("<rslug:bench>/revisions.json", revisions.revisions_list, name="mirror-revisions"),
    path(
        "<rslug:bench>/revisions/<rslug:rev>/leaderboard.json",
        revisions.revision_file,
        {"filename": "leaderboard.json"},
        name="mirror-revision-leaderboard",
    ),
    path(
        "<rslug:bench>/revisions/<rslug:rev>/matrix.json",
        revisions.revision_file,
        {"filename": "matrix.json"},
        name="mirror-revision-matrix",
    ),
    path("<rslug:bench>/models/<rslug:model>.json", views.model, name="mirror-model"),
    path("<rslug:bench>/tasks/<rslug:task>.json", views.task, name="mirror-task"),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/<str:filename>",
        views.attempt_file,
        name="mirror-attempt-file",
    ),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/trials/<int:trial>/<str:filename>",
        views.attempt_file,
        name="mirror-trial-file",
    ),
]
