from django.urls import path

from leaderboard.views import (
    about,
    board,
    home,
    matrix,
    model,
    revisions,
    task,
    tasks,
    versus,
)

urlpatterns = [
    path("", home.home, name="home"),
    path("<rslug:bench>/", board.board, name="bench"),
    path("<rslug:bench>/matrix/", matrix.matrix, name="matrix"),
    path("<rslug:bench>/tasks/", tasks.tasks, name="tasks"),
    path("<rslug:bench>/about/", about.about, name="about"),
    path("<rslug:bench>/models/<rslug:model>/", model.model, name="model"),
    path("<rslug:bench>/revisions/", revisions.revisions, name="revisions"),
    path("<rslug:bench>/revisions/<rslug:rev>/", revisions.revision, name="revision"),
    path(
        "<rslug:bench>/revisions/<rslug:rev>/matrix/",
        revisions.revision_matrix,
        name="revision-matrix",
    ),
    path(
        "<rslug:bench>/revisions/<rslug:a>/vs/<rslug:b>/",
        revisions.revision_diff,
        name="revision-diff",
    ),
    path("<rslug:bench>/models/<rslug:a>/vs/", versus.versus_pick, name="versus-pick"),
    path("<rslug:bench>/models/<rslug:a>/vs/<rslug:b>/", versus.versus_page, name="versus"),
    path("<rslug:bench>/tasks/<rslug:task>/", task.task, name="task"),
    # The task page's GET form lands here and is sent on to the compare address.
    path("<rslug:bench>/tasks/<rslug:task>/compare/", task.compare_pick, name="task-compare-pick"),
]
