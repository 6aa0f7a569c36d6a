from django.urls import path

from leaderboard.views import home

urlpatterns = [
    path("", home.home, name="home"),
]
