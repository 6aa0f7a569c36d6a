from django.shortcuts import render

from leaderboard.models import Bench


def home(request):
    benches = Bench.objects.all()
    return render(request, "leaderboard/home.html", {"benches": benches})
