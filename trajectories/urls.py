from django.urls import path

from config.stub import not_built_yet

urlpatterns = [
    path("<rslug:bench>/attempts/<rslug:model>/<rslug:task>/", not_built_yet, name="attempt"),
    path(
        "<rslug:bench>/tasks/<rslug:task>/compare/<rslug:model_a>/<rslug:model_b>/",
        not_built_yet,
        name="compare",
    ),
]
