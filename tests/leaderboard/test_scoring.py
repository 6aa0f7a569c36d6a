import pytest

from formats.v1.scoring import (
    LEFT_OUT,
    MISSING_ATTEMPT,
    MISSING_VERDICT,
    Cell,
    CheckOutcome,
    competition_ranks,
    is_counted,
    model_figures,
    pass_at_k,
    pass_hat_k,
    pass_k_figures,
    score_verdict,
)

GATED = "task-score-v4-mandatory-gated"


def check(name, passed, mandatory=False):
    return CheckOutcome(name=name, passed=passed, mandatory=mandatory)


def test_it_scores_zero_when_a_mandatory_check_fails():
    checks = [check("a", False, mandatory=True), check("b", True), check("c", True)]
    assert score_verdict(GATED, checks) == 0.0


def test_it_scores_the_fraction_of_non_mandatory_checks_passed():
    checks = [
        check("a", True, mandatory=True),
        check("b", True),
        check("c", False),
        check("d", True),
    ]
    assert score_verdict(GATED, checks) == pytest.approx(2 / 3)


def test_it_scores_one_when_there_are_no_non_mandatory_checks():
    assert score_verdict(GATED, [check("a", True, mandatory=True)]) == 1.0
    assert score_verdict(GATED, []) == 1.0


def test_a_missing_verdict_scores_zero_under_every_rule():
    assert score_verdict(GATED, None) == 0.0
    assert score_verdict("pass-fail", None) == 0.0


def test_pass_fail_needs_every_check_to_pass():
    assert score_verdict("pass-fail", [check("a", True), check("b", True)]) == 1.0
    assert score_verdict("pass-fail", [check("a", True), check("b", False)]) == 0.0


def test_a_missing_attempt_scores_zero_and_is_flagged():
    surfaces = {"t1": "pay", "t2": "pay", "t3": "chat"}
    cells = {"t1": Cell(score=1.0), "t3": Cell(score=0.5)}
    figures = model_figures(cells, surfaces, ["t1", "t2", "t3"])
    assert figures.score == pytest.approx(0.5)
    assert figures.flagged == 1
    assert figures.by_surface == {
        "chat": {"score": 0.5, "tasks": 1, "passed": 0, "trials": 1},
        "pay": {"score": 0.5, "tasks": 2, "passed": 1, "trials": 2},
    }


def test_missing_verdicts_count_as_flagged_and_cost_sums_released_attempts():
    surfaces = {"t1": "pay", "t2": "pay"}
    cells = {
        "t1": Cell(
            score=0.0, flags=(MISSING_VERDICT,), released=True, cost_usd=2.0, duration_s=3.0
        ),
        "t2": Cell(score=0.25, flags=(MISSING_ATTEMPT,), released=False, cost_usd=9.0),
    }
    figures = model_figures(cells, surfaces, ["t1", "t2"])
    assert figures.flagged == 2
    assert figures.cost_usd == 2.0
    assert figures.duration_s == 3.0


def test_ties_within_tolerance_share_a_competition_rank():
    ranks = competition_ranks([("b", 0.5), ("a", 0.5 + 1e-12), ("c", 0.9), ("d", 0.1)])
    assert ranks == [("c", 1), ("a", 2), ("b", 2), ("d", 4)]


def test_reward_threshold_passes_a_reward_at_or_above_the_threshold():
    checks = [check("t1", False)]  # ctrf detail never decides the score
    assert score_verdict("reward-threshold", checks, {"reward": 1.0}) == 1.0
    assert score_verdict("reward-threshold", checks, {"reward": 0.99}) == 0.0
    assert score_verdict("reward-threshold", [], {"reward": 0.5, "threshold": 0.5}) == 1.0
    assert score_verdict("reward-threshold", [], {"reward": 0.49, "threshold": 0.5}) == 0.0


def test_reward_threshold_scores_zero_without_a_numeric_reward():
    assert score_verdict("reward-threshold", [check("t", True)], {}) == 0.0
    assert score_verdict("reward-threshold", [], {"reward": True}) == 0.0
    assert score_verdict("reward-threshold", [], {"reward": "1"}) == 0.0
    assert score_verdict("reward-threshold", None, {"reward": 1.0}) == 0.0


def test_a_trial_that_raised_scores_by_the_exceptions_rule():
    rewarded = {"reward": 1.0, "exception": "NonZeroAgentExitCodeError"}
    timed_out = {"reward": 1.0, "exception": "AgentTimeoutError"}
    unrewarded = {"reward": None, "exception": "AgentTimeoutError"}
    # harbor (and no rule at all): the verifier ran after the exception; the reward decides.
    for rule in ("harbor", ""):
        assert score_verdict("reward-threshold", [], rewarded, rule) == 1.0
        assert score_verdict("reward-threshold", [], unrewarded, rule) == 0.0
        assert is_counted(rewarded, rule)
    # fail: any exception fails the trial.
    assert score_verdict("reward-threshold", [], rewarded, "fail") == 0.0
    assert score_verdict("reward-threshold", [], {"reward": 1.0}, "fail") == 1.0
    # terminal-bench: left out unless it timed out; a timeout counts its reward, none as 0.
    assert not is_counted(rewarded, "terminal-bench")
    assert is_counted(timed_out, "terminal-bench")
    assert score_verdict("reward-threshold", [], timed_out, "terminal-bench") == 1.0
    assert is_counted(unrewarded, "terminal-bench")
    assert score_verdict("reward-threshold", [], unrewarded, "terminal-bench") == 0.0
    assert is_counted({"reward": 0.0}, "terminal-bench") and is_counted(None, "terminal-bench")


def test_model_figures_leave_out_what_the_rule_leaves_out_and_say_how_many_tasks_remain():
    cells = {
        # Trial 0 left out, its further trials counted: 1 of 2 passed.
        "t1": Cell(score=1.0, flags=(LEFT_OUT,), trials=(1.0, 0.0), errors=1),
        # Every trial left out: the task is not in the mean.
        "t2": Cell(score=0.0, flags=(LEFT_OUT,), trials=(None,), errors=2),
        "t3": Cell(score=1.0),
    }
    figures = model_figures(cells, dict.fromkeys(cells, "s"), list(cells))
    assert (figures.passed, figures.trials, figures.tasks, figures.errors) == (2, 3, 2, 3)
    # The mean over the two tasks covered: t1's counted trials 1/2, t3's 1.
    assert figures.score == 0.75


def test_model_figures_count_trials_where_a_task_ran_several_times():
    cells = {
        "t1": Cell(score=1.0, trials=(0.0, 1.0)),  # three trials, two passed
        "t2": Cell(score=1.0),
    }
    figures = model_figures(cells, {"t1": "s", "t2": "s", "t3": "s"}, ["t1", "t2", "t3"])
    # t3 has no attempt: one failed trial. 3 passed of 3 + 1 + 1 = 5 trials.
    assert (figures.passed, figures.trials, figures.tasks) == (3, 5, 3)
    # Each task weighs the same: (2/3 + 1 + 0) / 3, not 3/5.
    assert figures.score == pytest.approx((2 / 3 + 1 + 0) / 3, abs=1e-15)
    assert figures.by_surface == {
        "s": {"score": figures.score, "tasks": 3, "passed": 3, "trials": 5}
    }
    assert figures.consistency == {"all": 1, "some": 1, "none": 1}
    assert figures.some_tasks == [("t1", 2, 3)]


def test_cost_sums_every_trial_and_one_run_sums_each_tasks_mean():
    cells = {
        "t1": Cell(
            score=1.0, released=True, cost_usd=1.0, trials=(0.0, 1.0), trial_costs=(2.0, 3.0)
        ),
        "t2": Cell(score=0.0, released=True, cost_usd=4.0),
    }
    figures = model_figures(cells, {"t1": "s", "t2": "s"}, ["t1", "t2"])
    assert figures.cost_usd == 10.0
    assert figures.run_cost_usd == 2.0 + 4.0


def test_model_figures_without_further_trials_are_the_task_mean():
    cells = {"t1": Cell(score=1.0), "t2": Cell(score=0.25)}
    figures = model_figures(cells, {"t1": "s", "t2": "s"}, ["t1", "t2"])
    assert (figures.score, figures.passed, figures.trials) == (0.625, 1, 2)


def test_pass_at_k_and_pass_hat_k_by_hand():
    # 5 trials, 2 passed. pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10; pass^2 = C(2,2)/C(5,2) = 1/10.
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7, abs=1e-15)
    assert pass_hat_k(5, 2, 2) == pytest.approx(0.1, abs=1e-15)
    assert pass_at_k(5, 2, 4) == 1.0  # any 4 of 5 hold a pass
    assert pass_hat_k(5, 2, 3) == 0.0
    assert pass_at_k(3, 0, 1) == 0.0 and pass_hat_k(3, 3, 3) == 1.0


def test_pass_k_averages_over_the_tasks_with_at_least_k_trials():
    found = pass_k_figures([(3, 1), (1, 1), (1, 0)], 3)
    assert found.tasks == {"1": 3, "2": 1, "3": 1}
    assert found.at["1"] == pytest.approx((1 / 3 + 1 + 0) / 3, abs=1e-15)
    assert found.at["2"] == pytest.approx(1 - 1 / 3, abs=1e-15)
    assert found.hat["2"] == 0.0 and found.at["3"] == 1.0


# A Terminal-Bench results.json in miniature (its run logs' shape: results[]
# with task_id and is_resolved, five attempts per task, and the pass_at_k the
# harness published for the run). Its figures were worked out by hand with
# Terminal-Bench's own estimator: per task 1 - C(n-c, k)/C(n, k), averaged.
TERMINAL_BENCH_RUN = {
    "results": [
        {"task_id": task, "is_resolved": resolved}
        for task, passes in (("hello-world", 5), ("fix-git", 0), ("oom", 2), ("qemu", 1))
        for resolved in [True] * passes + [False] * (5 - passes)
    ],
    # k=2: (1 + 0 + 0.7 + 0.4) / 4; k=4: (1 + 0 + 1 + 0.8) / 4; k=5: (1 + 0 + 1 + 1) / 4.
    "pass_at_k": {"2": 0.525, "4": 0.7, "5": 0.75},
    "accuracy": 0.4,
}


def test_pass_at_k_reproduces_what_terminal_bench_publishes_for_a_run():
    outcomes: dict[str, list[bool]] = {}
    for result in TERMINAL_BENCH_RUN["results"]:
        outcomes.setdefault(result["task_id"], []).append(result["is_resolved"])
    found = pass_k_figures([(len(v), sum(v)) for v in outcomes.values()], 5)
    for k, published in TERMINAL_BENCH_RUN["pass_at_k"].items():
        assert found.at[k] == pytest.approx(published, abs=1e-12)
    assert found.at["1"] == pytest.approx(TERMINAL_BENCH_RUN["accuracy"], abs=1e-12)
