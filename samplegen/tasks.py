"""Each task's checks, ticket and files, drawn from the seed."""

from __future__ import annotations

import random
from typing import Any

from samplegen.catalog import TASK_CATALOGUE, TaskSpec
from samplegen.draws import entity_rng

BATCH_SIZE = 10

_ALL_MANDATORY_TASK = "auth0-jwt-verify"
_PERF_TASK = "s3-multipart-upload"
_HOSTILE_TICKET_TASK = "slack-thread-digest"
_UNICODE_TICKET_TASK = "twilio-sms-optout"

_L1_EXTRA = [
    "existing-tests-pass",
    "handles-empty-payload",
    "migration-applies",
    "no-duplicate-records",
    "state-persisted",
    "error-surfaced-to-user",
]
_L2_POOL = [
    "auth-header-sent",
    "idempotency-key-sent",
    "signature-verified",
    "retries-on-5xx",
    "respects-rate-limit",
    "pagination-followed",
    "webhook-acknowledged-2xx",
    "api-version-pinned",
]
_L3_POOL = [
    "tests-added",
    "no-secrets-in-code",
    "errors-logged",
    "lint-clean",
    "config-from-env",
    "small-focused-diff",
]
_MANDATORY_EXTRA = {"existing-tests-pass", "no-secrets-in-code"}


def _ticket(task: TaskSpec, trng: random.Random) -> str:
    vendors = ", ".join(f"`{v}`" for v in task.vendors) or "no external vendor"
    lines = [
        f"# {task.title}",
        "",
        f"Surface: **{task.surface}**. Vendors: {vendors}.",
        "",
    ]
    if task.vendors:
        lines += [
            f"The app integrates with {task.vendors[0]} through `{task.files[0]}`. "
            f"The {task.vendors[0]} simulator runs at `https://{task.vendors[0]}.sim.test`; "
            "its credentials are in `.env` and are safe to use.",
            "",
        ]
    lines += [
        "## What to do",
        "",
        f"- Implement *{task.title.lower()}* end to end.",
        "- Keep the existing behaviour for other events.",
        "- Add tests under `tests/`.",
        "",
        "## Acceptance",
        "",
    ]
    lines += [f"- `{c['name']}` ({c['level']})" for c in task.checks]
    if task.id == _HOSTILE_TICKET_TASK:
        lines += [
            "",
            "## Note on message content",
            "",
            "Thread messages are user input. Real examples from the workspace:",
            "",
            "<script>alert(1)</script>",
            "",
            "<img src=x onerror=alert(1)> and [the runbook](javascript:alert(1)) must arrive "
            "in the digest as text, never as markup.",
        ]
    if task.id == _UNICODE_TICKET_TASK:
        lines += [
            "",
            "Customers reply in many languages: `STOP`, `停止`, `توقف`, `עצור`, `ストップ` "
            "must all opt out 🚫. Reply bodies may mix directions: «رقم 42 ‏STOP».",
        ]
    if trng.random() < 0.3:
        lines += ["", "```python", "def handler(request):", "    ...", "```"]
    return "\n".join(lines) + "\n"


def _task_checks(task: TaskSpec, trng: random.Random) -> list[dict[str, Any]]:
    n = trng.randint(4, 9)
    checks: list[dict[str, Any]] = [{"name": task.primary, "level": "L1", "mandatory": True}]
    l2 = list(_L2_POOL) if task.vendors else []
    trng.shuffle(l2)
    l1 = list(_L1_EXTRA)
    trng.shuffle(l1)
    l3 = list(_L3_POOL)
    trng.shuffle(l3)
    # Vendor tasks lead with protocol checks: those are what the bench is about.
    if l2:
        checks.append({"name": l2.pop(), "level": "L2", "mandatory": False})
    checks.append({"name": l3.pop(), "level": "L3", "mandatory": False})
    while len(checks) < n:
        pools = [(lvl, p) for lvl, p in (("L1", l1), ("L2", l2), ("L3", l3)) if p]
        level, pool = trng.choice(pools)
        name = pool.pop()
        checks.append({"name": name, "level": level, "mandatory": name in _MANDATORY_EXTRA})
    if task.id == _PERF_TASK:
        checks[-1] = {"name": "throughput-under-load", "level": "L4-perf", "mandatory": False}
    if task.id == _ALL_MANDATORY_TASK:
        for check in checks:
            check["mandatory"] = True
    return checks


def _task_files(task: TaskSpec) -> list[str]:
    slug = task.id.replace("-", "_").replace(".", "_")
    if not task.vendors:
        return ["app/billing/money.py", "app/billing/views.py", f"tests/test_{slug}.py"]
    mod = task.vendors[0].replace("-", "_")
    files = [
        f"app/integrations/{mod}/client.py",
        f"app/integrations/{mod}/webhooks.py",
        f"app/integrations/{mod}/handlers.py",
        "app/models.py",
        "app/settings.py",
        f"tests/test_{slug}.py",
    ]
    if len(task.vendors) > 1:
        files.insert(3, f"app/integrations/{task.vendors[1].replace('-', '_')}/client.py")
    return files


def build_tasks(seed: int, count: int, released: int) -> list[TaskSpec]:
    tasks: list[TaskSpec] = []
    for i in range(count):
        base = TASK_CATALOGUE[i % len(TASK_CATALOGUE)]
        lap = i // len(TASK_CATALOGUE)
        ident = base[0] if lap == 0 else f"{base[0]}-v{lap + 1}"
        title = base[1] if lap == 0 else f"{base[1]} (variant {lap + 1})"
        task = TaskSpec(ident, title, base[2], tuple(base[3].split()), base[4])
        trng = entity_rng(seed, "task", ident)
        task.difficulty = trng.uniform(-0.05, 0.3)
        task.files = _task_files(task)
        task.checks = _task_checks(task, trng)
        task.ticket = _ticket(task, trng)
        if i < released:
            task.batch = i // BATCH_SIZE + 1
        tasks.append(task)
    return tasks
