from django.urls import path

from trajectories.views import (
    attempt,
    attempt_search,
    compare,
    event,
    event_slice,
    search,
    transcript,
)

# A further trial of a model on a task (Harbor's n_attempts) has the attempt's
# pages under trials/<n>/; trial 0 is the attempt itself, at its own address.
TRIAL = "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/trials/<int:trial>/"

urlpatterns = [
    path(TRIAL, attempt.attempt, name="attempt-trial"),
    path(TRIAL + "events/", event_slice.event_slice, name="attempt-trial-events"),
    path(TRIAL + "events/<int:index>/", event.event, name="attempt-trial-event"),
    path(TRIAL + "transcript/", transcript.transcript, name="attempt-trial-transcript"),
    path(TRIAL + "search/", attempt_search.attempt_search, name="attempt-trial-search"),
    path("<rslug:bench>/search/", search.search_page, name="search"),
    path("<rslug:bench>/attempts/<rslug:model>/<rslug:task>/", attempt.attempt, name="attempt"),
    path(
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/events/",
        event_slice.event_slice,
        name="attempt-events",
    ),
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
        "<rslug:bench>/attempts/<rslug:model>/<rslug:task>/search/",
        attempt_search.attempt_search,
        name="attempt-search",
    ),
    path(
        "<rslug:bench>/tasks/<rslug:task>/compare/<rslug:model_a>/<rslug:model_b>/",
        compare.compare,
        name="compare",
    ),
]
