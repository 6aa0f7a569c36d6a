"""Sign-in lockout, as django-axes asks for it (settings' AXES_ block).

The client address is the one the API's rate limit uses: REMOTE_ADDR, or what
a proxy listed in BENCHVIEW_TRUSTED_PROXIES says it saw. Axes' own reading of
X-Forwarded-For (django-ipware) would trust a header any client can write.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from trajectories.api.throttling import client_address


def request_client_address(request: HttpRequest) -> str:
    return client_address(request.META)


def failure_limit(request: HttpRequest | None, credentials: dict | None) -> int:
    return settings.BENCHVIEW_LIMITS["login_failure_limit"]


def cool_off(request: HttpRequest | None) -> timedelta:
    return timedelta(minutes=settings.BENCHVIEW_LIMITS["login_lockout_minutes"])


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """The answer to a locked-out sign-in: what happened and how long to wait (429)."""
    limits = settings.BENCHVIEW_LIMITS
    context = {
        "failure_limit": limits["login_failure_limit"],
        "minutes": limits["login_lockout_minutes"],
    }
    return render(request, "registration/locked_out.html", context, status=429)
