from django.urls import path

from config.stub import not_built_yet
from leaderboard.views import home

urlpatterns = [
    path("", home.home, name="home"),
    path("<rslug:bench>/", not_built_yet, name="bench"),
    path("<rslug:bench>/matrix/", not_built_yet, name="matrix"),
    path("<rslug:bench>/models/<rslug:model>/", not_built_yet, name="model"),
    path("<rslug:bench>/tasks/<rslug:task>/", not_built_yet, name="task"),
]
