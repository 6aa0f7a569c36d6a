"""/: the benches on this site, each with its top models and latest batch."""

from django.shortcuts import render

from leaderboard import queries


def home(request):
    benches = list(queries.benches_for_home())
    return render(request, "leaderboard/home.html", {"benches": benches})
