"""The release mirror: /data/v1/<bench>/… (spec/site.md, "Data")."""

from django.urls import path

from config.stub import not_built_yet

urlpatterns = [
    path("<rslug:bench>/manifest.json", not_built_yet, name="mirror-manifest"),
    path("<rslug:bench>/leaderboard.json", not_built_yet, name="mirror-leaderboard"),
    path("<rslug:bench>/matrix.json", not_built_yet, name="mirror-matrix"),
    path("<rslug:bench>/models/<rslug:model>.json", not_built_yet, name="mirror-model"),
    path("<rslug:bench>/tasks/<rslug:task>.json", not_built_yet, name="mirror-task"),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/<str:filename>",
        not_built_yet,
        name="mirror-attempt-file",
    ),
]
