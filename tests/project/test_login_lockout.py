"""Sign-in lockout: by account and by client address, counted in the database."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_user

LOGIN = "admin:login"


def sign_in(username: str, password: str, *, address: str = "203.0.113.5", **meta):
    """A sign-in from a fresh client (a browser with no session, perhaps another host)."""
    return Client(REMOTE_ADDR=address, **meta).post(
        reverse(LOGIN), {"username": username, "password": password}
    )


def signed_in(response) -> bool:
    return response.status_code == 302


@pytest.fixture
def limit(settings) -> int:
    settings.BENCHVIEW_LIMITS = {
        **settings.BENCHVIEW_LIMITS,
        "login_failure_limit": 3,
        "login_lockout_minutes": 15,
    }
    return 3


@pytest.mark.django_db
def test_an_account_is_locked_after_a_few_failures_with_a_clear_message(limit):
    make_user("ada")
    for _ in range(limit - 1):
        wrong = sign_in("ada", "wrong")
        assert wrong.status_code == 200 and not signed_in(wrong)
    assert sign_in("ada", "wrong").status_code == 429  # the failure that locks
    locked = sign_in("ada", "pw")  # the right password, too late
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Sign-in locked" in page
    assert f"after {limit} wrong passwords" in page and "15 minutes" in page


@pytest.mark.django_db
def test_the_account_lock_holds_from_every_address(limit):
    make_user("ada")
    for n in range(limit):
        sign_in("ada", "wrong", address=f"198.51.100.{n + 1}")
    assert sign_in("ada", "pw", address="192.0.2.77").status_code == 429


@pytest.mark.django_db
def test_an_address_is_locked_after_failures_on_several_accounts(limit):
    make_user("ada")
    for n in range(limit):
        sign_in(f"guess{n}", "wrong", address="198.51.100.9")
    assert sign_in("ada", "pw", address="198.51.100.9").status_code == 429
    assert signed_in(sign_in("ada", "pw", address="198.51.100.10"))


@pytest.mark.django_db
def test_a_success_before_the_limit_starts_the_count_again(limit):
    make_user("ada")
    for _ in range(limit - 1):
        sign_in("ada", "wrong")
    assert signed_in(sign_in("ada", "pw"))
    for _ in range(limit - 1):
        sign_in("ada", "wrong")
    assert signed_in(sign_in("ada", "pw"))


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_forwarded_client_is_counted(limit, settings):
    settings.BENCHVIEW_TRUSTED_PROXIES = ["10.0.0.0/8"]
    make_user("ada")
    proxy = "10.0.0.2"
    for n in range(limit):
        sign_in(f"guess{n}", "wrong", address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.9")
    # That client is locked out; another behind the same proxy is not.
    locked = sign_in("ada", "pw", address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert locked.status_code == 429
    assert signed_in(sign_in("ada", "pw", address=proxy, HTTP_X_FORWARDED_FOR="198.51.100.10"))


@pytest.mark.django_db
def test_a_client_cannot_escape_the_address_lock_by_forging_the_header(limit):
    make_user("ada")
    for n in range(limit):
        sign_in(f"guess{n}", "wrong", address="198.51.100.9", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")
    forged = sign_in("ada", "pw", address="198.51.100.9", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert forged.status_code == 429
