from django.urls import path

from trajectories.views import analysis

urlpatterns = [
    path("<rslug:bench>/analysis/", analysis.index, name="analysis"),
    path(
        "<rslug:bench>/analysis/tool-failures/",
        analysis.tool_failures,
        name="analysis-tool-failures",
    ),
    path("<rslug:bench>/analysis/protocol/", analysis.protocol, name="analysis-protocol"),
]
