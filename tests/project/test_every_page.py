"""Every public page: 200, exactly one <h1>, breadcrumbs, a JSON twin, a body class."""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from leaderboard.models import Attempt


class Outline(HTMLParser):
    def __init__(self):
        super().__init__()
        self.h1 = 0
        self.breadcrumbs = False
        self.alternate_json = False
        self.body_class = ""

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


def body_of(response) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def page_addresses(bench) -> list[str]:
    attempts = list(Attempt.objects.released().filter(bench=bench).select_related("model", "task"))
    first = attempts[0]
    other = next(a for a in attempts if a.task_id == first.task_id and a.pk != first.pk)
    b = bench.slug
    return [
        reverse("home"),
        reverse("bench", args=[b]),
        reverse("matrix", args=[b]),
        reverse("model", args=[b, first.model.slug]),
        reverse("task", args=[b, first.task.slug]),
        reverse("attempt", args=[b, first.model.slug, first.task.slug]),
        reverse("attempt-transcript", args=[b, first.model.slug, first.task.slug]),
        reverse("compare", args=[b, first.task.slug, first.model.slug, other.model.slug]),
        reverse("analysis-tool-failures", args=[b]),
        reverse("analysis-protocol", args=[b]),
    ]


@pytest.mark.django_db
def test_every_page_answers_with_one_h1_breadcrumbs_and_a_json_twin(client, imported):
    for address in page_addresses(imported):
        response = client.get(address)
        assert response.status_code == 200, address
        outline = Outline()
        outline.feed(body_of(response))
        assert outline.h1 == 1, address
        assert outline.breadcrumbs, address
        assert outline.alternate_json, address
        assert outline.body_class.strip(), address


@pytest.mark.django_db
def test_every_page_forbids_inline_script(client, imported):
    for address in page_addresses(imported):
        policy = client.get(address).headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "unsafe-inline" not in policy.split("script-src", 1)[1].split(";")[0]
