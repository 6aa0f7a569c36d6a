"""The compare page stays bounded: aligned rows paged, one-sided runs folded, ids unique."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.factories import pair_with_differing_checks
from trajectories.comparison import fold_runs


class Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: Counter = Counter()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id":
                self.ids[value] += 1


def ids_of(html: str) -> Counter:
    parser = Ids()
    parser.feed(html)
    return parser.ids


def compare_url(task, a, b) -> str:
    return reverse("compare", args=[task.bench.slug, task.slug, a.model.slug, b.model.slug])


def test_runs_of_one_sided_rows_fold_and_the_rest_stay_rows():
    a, b = "step-a", "step-b"
    rows = [(0, a, b), (1, a, None), (2, None, b), (3, a, None), (4, a, b), (5, None, b), (6, a, b)]
    runs = fold_runs(rows, min_run=3)
    assert [(r.folded, [k for k, *_ in r.rows]) for r in runs] == [
        (False, [0]),
        (True, [1, 2, 3]),
        (False, [4, 5, 6]),
    ]
    assert (runs[1].only_a, runs[1].only_b) == (2, 1)


@pytest.mark.django_db
def test_every_element_id_on_the_compare_page_is_unique(client, bench):
    task, a, b, *_ = pair_with_differing_checks()
    html = client.get(compare_url(task, a, b)).content.decode()
    twice = {k: n for k, n in ids_of(html).items() if n > 1}
    assert not twice


@pytest.mark.django_db
def test_aligned_rows_are_paged_and_folded_and_each_is_on_exactly_one_page(client, bench, settings):
    task, a, b, *_ = pair_with_differing_checks()
    settings.BENCHVIEW_LIMITS = {
        **settings.BENCHVIEW_LIMITS,
        "compare_rows_per_page": 3,
        "compare_fold_min_rows": 2,
    }
    url, seen, folds, pages = compare_url(task, a, b), [], 0, 0
    address = url
    while address:
        html = client.get(address).content.decode()
        pages += 1
        assert not {k for k, n in ids_of(html).items() if n > 1}
        alignment = html.split('<section id="alignment">', 1)[1].split("</section>", 1)[0]
        seen += [int(k) for k in re.findall(r'id="step-(\d+)"', alignment)]
        folds += alignment.count("<details>")
        later = re.search(r'<a href="(\?rows=\d+)#alignment" rel="next">', alignment)
        address = url + later.group(1) if later else None
    total = int(re.search(r"Rows \d+–\d+ of (\d+)", html).group(1))
    assert seen == list(range(total)) and pages == -(-total // 3)
    assert folds > 0
    # A page address that is not a page's start, or past the end, is not a page.
    assert client.get(url + "?rows=1").status_code == 404
    assert client.get(url + f"?rows={pages * 3}").status_code == 404


def test_a_page_from_the_cached_alignment_shows_what_a_fresh_alignment_shows(
    client, bench, settings
):
    """Later pages read only their rows' calls: the steps, their paths made
    relative to the cwd of their moment, are the ones the full read gives."""
    from django.core.cache import cache, caches

    task, a, b, *_ = pair_with_differing_checks()
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "compare_rows_per_page": 3}
    url = compare_url(task, a, b)

    def alignment(address: str) -> str:
        caches["pages"].clear()
        html = client.get(address).content.decode()
        return html.split('<section id="alignment">', 1)[1].split("</section>", 1)[0]

    total = int(re.search(r"Rows \d+–\d+ of (\d+)", alignment(url)).group(1))
    assert total > 6
    for start in range(0, total, 3):
        cached = alignment(f"{url}?rows={start}")
        cache.clear()
        assert alignment(f"{url}?rows={start}") == cached
