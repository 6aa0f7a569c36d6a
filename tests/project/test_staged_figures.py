"""After a staged import an anonymous visitor's figures add up, and say what they count.

A bench is imported with its first batches live, then again with new batches
staged. The aggregates (score, cost, time) count the staged attempts, as the
release format and docs/visibility.md have it; their detail stays for staff.
An anonymous crawl of every page linked from the home page then checks each
model page: its Cost is the listed attempts' costs plus the staged ones its
note names, and the note counts the rows listed.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leaderboard.models import Attempt
from samplegen.release import generate_release
from tests.factories import import_path

SIZE = {"models": 3, "tasks": 20, "events": 4, "seed": 7}  # batches of 10 tasks
PAGES_MAX = 400


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href)


def crawl(client) -> dict[str, str]:
    """Every HTML page reachable from the home page by plain links within the site
    (query strings, the admin, the API and the mirror's JSON files left out)."""
    seen: dict[str, str] = {}
    queue = ["/"]
    while queue and len(seen) < PAGES_MAX:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            seen[url] = ""
            continue
        html = b"".join(response.streaming_content) if response.streaming else response.content
        seen[url] = html.decode()
        parser = Links()
        parser.feed(seen[url])
        for href in parser.hrefs:
            href = href.split("#")[0]
            if not href.startswith("/") or "?" in href or href.startswith(("/admin", "/api")):
                continue
            if href.startswith("/data/") or href in seen:
                continue
            queue.append(href)
    return seen


def dollars(text: str) -> float:
    return float(text.replace("$", "").replace(",", ""))


def stat(html: str, name: str) -> str:
    match = re.search(rf"<dt>{name}</dt><dd>([^<]*)</dd>", html)
    assert match, f"no {name} figure"
    return unescape(match.group(1)).strip()


def listed_costs(html: str) -> list[float]:
    table = html.split('<table class="data-table attempts">', 1)
    if len(table) == 1:
        return []
    rows = re.findall(r"<tr>(.*?)</tr>", table[1].split("</table>", 1)[0], re.S)
    costs = []
    for row in rows:
        cells = re.findall(r'<td class="num">([^<]*)</td>', row)
        if not cells:
            continue  # the header
        # Checks, mandatory, cost, duration: the cost is the third number column.
        costs.append(dollars(cells[2]) if cells[2].startswith("$") else 0.0)
    return costs


@pytest.fixture
def staged_after_live(db, tmp_path) -> None:
    generate_release(tmp_path / "first", released=10, **SIZE)
    generate_release(tmp_path / "second", released=20, **SIZE)
    import_path(tmp_path / "first")
    import_path(tmp_path / "second", staged=True)


def model_pages(pages: dict[str, str]) -> dict[str, str]:
    pattern = re.compile(r"^/[^/]+/models/[^/]+/$")
    return {url: html for url, html in pages.items() if pattern.match(url) and html}


def check_model_page(url: str, html: str) -> int:
    """The page's Cost against its rows and its note; returns the staged attempts it names."""
    note = re.search(r'<p class="table-note" id="cost-note">(.*?)</p>', html, re.S)
    assert note, f"{url}: no note says what Cost sums"
    said = unescape(note.group(1))
    costs = listed_costs(html)
    total = dollars(stat(html, "Cost"))
    staged = re.search(
        r"sum all (\d+) released attempts: the (\d+) published, listed below \(\$([\d,.]+)\), "
        r"and (\d+) in a staged batch \(\$([\d,.]+),",
        said,
    )
    if staged is None:
        assert f"sum the {len(costs)} released attempt" in said, (url, said)
        assert total == pytest.approx(sum(costs), abs=0.01 * (len(costs) + 1)), url
        return 0
    everything, listed, listed_cost, unlisted, unlisted_cost = staged.groups()
    assert int(listed) == len(costs) and int(everything) == len(costs) + int(unlisted), url
    assert dollars(listed_cost) == pytest.approx(sum(costs), abs=0.01 * (len(costs) + 1))
    assert total == pytest.approx(dollars(listed_cost) + dollars(unlisted_cost), abs=0.02), url
    return int(unlisted)


def test_an_anonymous_crawl_finds_every_cost_made_of_what_its_page_says(client, staged_after_live):
    pages = crawl(client)
    models = model_pages(pages)
    assert len(models) == SIZE["models"]
    staged = {url: check_model_page(url, html) for url, html in models.items()}
    hidden = Attempt.objects.released().exclude(task__batch__live=True)
    assert hidden.exists()
    assert sum(staged.values()) == hidden.count()
    board = next(html for url, html in pages.items() if re.match(r"^/[^/]+/$", url) and html)
    assert "those of staged batches included" in board


def test_staff_see_every_counted_attempt_listed(client, staged_after_live):
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    for model in {a.model for a in Attempt.objects.select_related("model", "bench")}:
        url = reverse("model", args=[model.bench.slug, model.slug])
        assert check_model_page(url, client.get(url).content.decode()) == 0
