"""Every public page: 200, exactly one <h1>, breadcrumbs, a JSON twin, a body class,
and the site's one navigation (the bench's sections on bench pages; API and Data always)."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import body_of, page_addresses


class Outline(HTMLParser):
    def __init__(self):
        super().__init__()
        self.h1 = 0
        self.breadcrumbs = False
        self.alternate_json = False
        self.body_class = ""
        self.in_site_nav = False
        self.site_nav_links: dict[str, str] = {}
        self._href = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "h1":
            self.h1 += 1
        elif tag == "nav" and "breadcrumb" in (attrs.get("aria-label") or "").lower():
            self.breadcrumbs = True
        elif tag == "link" and attrs.get("rel") == "alternate":
            self.alternate_json = attrs.get("type") == "application/json"
        elif tag == "body":
            self.body_class = attrs.get("class") or ""
        elif tag == "nav" and "site-nav" in (attrs.get("class") or ""):
            self.in_site_nav = True
        elif tag == "a" and self.in_site_nav:
            self._href = attrs.get("href")

    def handle_endtag(self, tag):
        if tag == "nav":
            self.in_site_nav = False
        elif tag == "a":
            self._href = None

    def handle_data(self, data):
        if self._href and data.strip():
            self.site_nav_links[data.strip()] = self._href


BENCH_SECTIONS = {
    "Leaderboard": "bench",
    "Matrix": "matrix",
    "Tasks": "tasks",
    "Analysis": "analysis",
    "About": "about",
}


@pytest.mark.django_db
def test_every_page_answers_with_one_h1_breadcrumbs_and_a_json_twin(client, bench):
    for address in page_addresses(bench):
        # The data indexes answer scripts in JSON; a browser names HTML first.
        response = client.get(address, HTTP_ACCEPT="text/html,*/*;q=0.8")
        assert response.status_code == 200, address
        outline = Outline()
        outline.feed(body_of(response))
        assert outline.h1 == 1, address
        assert outline.breadcrumbs, address
        assert outline.alternate_json, address
        assert outline.body_class.strip(), address


@pytest.mark.django_db
def test_every_page_has_the_site_navigation_with_the_bench_sections_api_and_data(client, bench):
    for address in [a for a in page_addresses(bench) if a != reverse("home")]:
        if address.startswith("/data/v1/") and address != reverse("data-bench", args=[bench.slug]):
            continue  # /data/v1/ belongs to no bench
        outline = Outline()
        outline.feed(body_of(client.get(address, HTTP_ACCEPT="text/html")))
        for label, name in BENCH_SECTIONS.items():
            assert outline.site_nav_links.get(label) == reverse(name, args=[bench.slug]), (
                address,
                label,
            )
        assert outline.site_nav_links.get("API") == reverse("api-root"), address
        assert outline.site_nav_links.get("Data") == reverse("data-bench", args=[bench.slug])
    for address in (reverse("home"), reverse("data-root")):
        outline = Outline()
        outline.feed(body_of(client.get(address, HTTP_ACCEPT="text/html")))
        assert outline.site_nav_links == {"API": reverse("api-root"), "Data": reverse("data-root")}


@pytest.mark.django_db
def test_every_page_forbids_inline_script(client, bench):
    for address in page_addresses(bench):
        policy = client.get(address, HTTP_ACCEPT="text/html").headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]
