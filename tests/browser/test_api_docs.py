"""The API's docs page renders in a real browser, offline and under the site's CSP."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_page_renders_every_resource_without_csp_errors(page, live_server):
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    outside: list[str] = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    page.goto(f"{live_server.url}/api/docs/")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Benchview API")
    expect(page.get_by_text("/api/attempts/", exact=True).first).to_be_visible()
    expect(page.get_by_text("/api/analysis/protocol/", exact=True).first).to_be_visible()
    assert outside == []
    assert not [e for e in errors if "Content Security Policy" in e]
