from django.urls import path

from config.stub import not_built_yet

urlpatterns = [
    path("<rslug:bench>/analysis/tool-failures/", not_built_yet, name="analysis-tool-failures"),
    path("<rslug:bench>/analysis/protocol/", not_built_yet, name="analysis-protocol"),
]
