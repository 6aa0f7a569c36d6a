from django.urls import path

from trajectories.views import attempt, compare, event, transcript

urlpatterns = [
    path("<rslug:bench>/attempts/<rslug:model>/<rslug:task>/", attempt.attempt, name="attempt"),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/events/<int:index>/",
        event.event,
        name="attempt-event",
    ),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/transcript/",
        transcript.transcript,
        name="attempt-transcript",
    ),
    path(
        "<rslug:bench>/tasks/<rslug:task>/compare/<rslug:model_a>/<rslug:model_b>/",
        compare.compare,
        name="compare",
    ),
]
