"""One score per model over every trial, pass@k and pass^k, worked out by hand
for three models × four tasks × three trials, and found the same on every
page, file and API that shows them."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest
from django.core.cache import cache
from django.urls import reverse

from core.formatting import model_rate
from leaderboard.models import Model
from tests.ingest.harbor_trials import import_harbor, job, trial

pytestmark = pytest.mark.django_db

# Rewards of each model's three trials of each task (1 passes, 0 fails).
REWARDS = {
    ("m1", "x"): {"t1": (1, 1, 1), "t2": (1, 1, 0), "t3": (1, 0, 0), "t4": (0, 0, 0)},
    ("m2", "y"): {"t1": (1, 1, 1), "t2": (1, 1, 1), "t3": (1, 1, 0), "t4": (0, 0, 0)},
    ("m3", "z"): {"t1": (0, 0, 0), "t2": (1, 0, 0), "t3": (0, 0, 0), "t4": (0, 0, 0)},
}
F = Fraction
# By hand. Score: the mean over tasks of each task's pass rate. For a task of
# n = 3 trials with c passes: pass@2 = 1 - C(3-c, 2)/3 (c=0: 0, c=1: 2/3,
# c>=2: 1); pass@3 = 1 if c > 0; pass^2 = C(c, 2)/3 (c=2: 1/3, c=3: 1);
# pass^3 = 1 only if c = 3. Each averaged over the four tasks.
EXPECTED = {
    # m1: c = 3, 2, 1, 0
    "m1": {
        "score": (F(1) + F(2, 3) + F(1, 3) + 0) / 4,
        "passed": 6,
        "at": {"1": F(1, 2), "2": (1 + 1 + F(2, 3) + 0) / F(4), "3": F(3, 4)},
        "hat": {"1": F(1, 2), "2": (1 + F(1, 3)) / F(4), "3": F(1, 4)},
    },
    # m2: c = 3, 3, 2, 0
    "m2": {
        "score": (1 + 1 + F(2, 3) + 0) / F(4),
        "passed": 8,
        "at": {"1": F(2, 3), "2": F(3, 4), "3": F(3, 4)},
        "hat": {"1": F(2, 3), "2": (1 + 1 + F(1, 3)) / F(4), "3": F(2, 4)},
    },
    # m3: c = 0, 1, 0, 0
    "m3": {
        "score": F(1, 3) / 4,
        "passed": 1,
        "at": {"1": F(1, 12), "2": F(2, 3) / 4, "3": F(1, 4)},
        "hat": {"1": F(1, 12), "2": F(0), "3": F(0)},
    },
}


@pytest.fixture(autouse=True)
def _fresh_mirror(settings):
    settings.BENCHVIEW_LIMITS = {**settings.BENCHVIEW_LIMITS, "mirror_state_ttl_s": 0}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def bench(tmp_path):
    j = job(tmp_path / "jobs")
    for (model, agent), tasks in REWARDS.items():
        for task, rewards in tasks.items():
            for n, reward in enumerate(rewards):
                trial(
                    j, task, model=model, agent=agent, provider="p", reward=float(reward),
                    name=f"{task}__{model}{n}", started=f"2025-11-19T1{n}:00:00", cost=0.5 + n,
                )  # fmt: skip
    import_harbor(j, stdout=io.StringIO(), stderr=io.StringIO())
    return "hb"


def by_prefix() -> dict[str, Model]:
    return {m.slug.split("-")[0]: m for m in Model.objects.all()}


def label(model: Model) -> str:
    return model_rate(model.score, model.passed, model.trials, model.tasks)


def test_scores_and_pass_k_equal_the_hand_computed_figures(bench):
    for name, model in by_prefix().items():
        want = EXPECTED[name]
        assert model.score == pytest.approx(float(want["score"]), abs=1e-12)
        assert (model.passed, model.trials, model.tasks) == (want["passed"], 12, 4)
        assert set(model.pass_at_k) == set(model.pass_hat_k) == {"1", "2", "3"}
        for k in ("1", "2", "3"):
            assert model.pass_at_k[k] == pytest.approx(float(want["at"][k]), abs=1e-12)
            assert model.pass_hat_k[k] == pytest.approx(float(want["hat"][k]), abs=1e-12)
        assert model.pass_k_tasks == {"1": 4, "2": 4, "3": 4}
    assert label(by_prefix()["m1"]) == "50.0%: 6 of 12 trials on 4 tasks"


def test_the_same_figures_in_leaderboard_json_csv_and_the_api(bench, client):
    rows = {r["model"]: r for r in client.get("/data/v1/hb/leaderboard.json").json()["rows"]}
    api = {
        r["id"]: r for r in client.get(reverse("api-model-list"), {"bench": "hb"}).json()["results"]
    }
    text = client.get(reverse("bench", args=["hb"]), {"format": "csv"}).content.decode()
    table = {r["model"]: r for r in csv.DictReader(io.StringIO(text))}
    for name, model in by_prefix().items():
        want = EXPECTED[name]
        for source in (rows[model.slug], api[model.slug]):
            assert source["score"] == pytest.approx(float(want["score"]), abs=1e-12)
            assert source["rank_low"] == model.rank_low and source["rank_high"] == model.rank_high
            for k in ("1", "2", "3"):
                assert source["pass_at_k"][k] == pytest.approx(float(want["at"][k]), abs=1e-12)
                assert source["pass_hat_k"][k] == pytest.approx(float(want["hat"][k]), abs=1e-12)
        row = table[model.slug]
        assert float(row["score"]) == pytest.approx(float(want["score"]), abs=1e-12)
        for k in ("1", "2", "3"):
            assert float(row[f"pass_at_k:{k}"]) == pytest.approx(float(want["at"][k]), abs=1e-12)
            assert float(row[f"pass_hat_k:{k}"]) == pytest.approx(float(want["hat"][k]), abs=1e-12)
        assert (int(row["rank_low"]), int(row["rank_high"])) == (model.rank_low, model.rank_high)


def test_the_leaderboard_shows_pass_k_for_the_k_in_the_address(bench, client):
    m2 = by_prefix()["m2"]
    page = client.get(reverse("bench", args=["hb"]), {"k": "2"}).content.decode()
    assert '<option value="2" selected>' in page
    assert ">pass@2<" in page and ">pass^2<" in page
    row = page.split(f'id="model-{m2.slug}"', 1)[1].split("</tr>", 1)[0]
    # pass@2 = 75.0%, pass^2 = 7/12 = 58.3%.
    assert ">75.0%</td>" in row and ">58.3%</td>" in row
    # The sort links keep the chosen k.
    assert "k=2" in page.split(">pass^2<", 1)[0].rsplit("<a ", 1)[1]
    # Without k, the largest: pass@3 and pass^3 (50.0%).
    page = client.get(reverse("bench", args=["hb"])).content.decode()
    row = page.split(f'id="model-{m2.slug}"', 1)[1].split("</tr>", 1)[0]
    assert ">pass@3<" in page and ">50.0%</td>" in row


def test_the_model_page_shows_pass_k_and_consistency_with_links_to_the_trials(bench, client):
    m1 = by_prefix()["m1"]
    page = client.get(reverse("model", args=["hb", m1.slug])).content.decode()
    assert "50.0%: 6 of 12 trials on 4 tasks" in page
    table = page.split('class="data-table compact pass-k"', 1)[1].split("</table>", 1)[0]
    # k = 2: pass@2 = 2/3, pass^2 = 1/3, over 4 tasks.
    assert re.search(r">2</th><td[^>]*>66\.7%</td><td[^>]*>33\.3%</td><td[^>]*>4</td>", table)
    section = page.split('id="consistency-heading"', 1)[1].split("</section>", 1)[0]
    assert "Passed in every trial: <strong>1</strong>" in section
    assert "Passed in some trials: <strong>2</strong>" in section
    assert "Passed in none: <strong>1</strong>" in section
    assert "t2</a>: 2 of 3 trials passed" in section
    assert reverse("attempt-trial", args=["hb", m1.slug, "t3", 2]) in section
    assert reverse("attempt", args=["hb", m1.slug, "t3"]) in section
    assert "t1</a>: " not in section and "t4</a>: " not in section


def test_cost_counts_every_trial_and_one_run(bench, client):
    # Each task's trials cost 0.5, 1.5 and 2.5: 4.5 a task, 1.5 on average.
    for model in by_prefix().values():
        assert model.cost_usd == pytest.approx(18.0)
        assert model.run_cost_usd == pytest.approx(6.0)
    page = client.get(reverse("model", args=["hb", by_prefix()["m1"].slug])).content.decode()
    assert "<dt>Cost, every trial</dt><dd>$18.00</dd>" in page
    assert "<dt>Cost of one run</dt><dd>$6.00</dd>" in page
    board = client.get(reverse("bench", args=["hb"])).content.decode()
    # The chart plots one run's cost: the frontier caption says $6.00.
    assert "$6.00)" in board.split("On the frontier", 1)[1]


def test_every_page_file_and_api_gives_each_model_the_same_score(bench, client):
    models = by_prefix()
    api = {
        r["id"]: r["score"]
        for r in client.get(reverse("api-model-list"), {"bench": "hb"}).json()["results"]
    }
    rows = {r["model"]: r for r in client.get("/data/v1/hb/leaderboard.json").json()["rows"]}
    text = client.get(reverse("bench", args=["hb"]), {"format": "csv"}).content.decode()
    table = {r["model"]: float(r["score"]) for r in csv.DictReader(io.StringIO(text))}
    pages = {
        name: client.get(address).content.decode()
        for name, address in (
            ("board", reverse("bench", args=["hb"])),
            ("matrix", reverse("matrix", args=["hb"])),
            ("home", reverse("home")),
        )
    }
    others = {m.slug: m for m in models.values()}
    for model in models.values():
        want = model.score
        assert api[model.slug] == want
        assert rows[model.slug]["score"] == want
        assert table[model.slug] == want
        doc = client.get(f"/data/v1/hb/models/{model.slug}.json").json()
        assert doc["aggregate"]["score"] == want
        text = label(model)
        for name, html in pages.items():
            assert text in html, name
        assert text in client.get(reverse("model", args=["hb", model.slug])).content.decode()
        # Surface columns: one surface here, so its figure is the score.
        assert [s["score"] for s in model.by_surface.values()] == [pytest.approx(want)]
        for other in others.values():
            if other.pk == model.pk:
                continue
            url = reverse("versus", args=["hb", model.slug, other.slug])
            versus = client.get(url).content.decode()
            assert text in versus and label(other) in versus
            gap = client.get(url, {"format": "json"}).json()["mean_difference"]
            assert gap == pytest.approx(want - other.score, abs=1e-12)


def test_the_task_page_gives_each_model_its_mean_over_every_trial(bench, client):
    models = by_prefix()
    for task in ("t1", "t2", "t3", "t4"):
        url = reverse("task", args=["hb", task])
        html = client.get(url).content.decode()
        text = client.get(url, {"format": "csv"}).content.decode()
        table = {r["model"]: r for r in csv.DictReader(io.StringIO(text))}
        for (name, _agent), tasks in REWARDS.items():
            model, rewards = models[name], tasks[task]
            want = sum(rewards) / len(rewards)
            row = table[model.slug]
            assert float(row["score"]) == pytest.approx(want, abs=1e-12)
            assert (int(row["passed"]), int(row["trials"])) == (sum(rewards), 3)
            cells = html.split(f">{model.display_name}</a></th>", 1)[1].split("</tr>", 1)[0]
            assert f"{want:.1%}" in cells
            assert f"{sum(rewards)} of 3 trials passed" in cells
            for n in (1, 2):
                assert reverse("attempt-trial", args=["hb", model.slug, task, n]) in cells
