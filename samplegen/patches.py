"""An attempt's patch: a unified diff whose hunks cut windows out of one base file."""

from __future__ import annotations

import random

from samplegen.catalog import TaskSpec
from samplegen.ids import rand_hex

# The file every patch edits: hunks cut consecutive windows out of it so the
# diffs read like real edits rather than shuffled lines.
_BASE_SOURCE = """import json
import logging
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from .client import VendorClient

logger = logging.getLogger(__name__)
MAX_RETRIES = 3
HANDLED_EVENTS = {"charge.dispute.created", "charge.refunded"}


def backoff(attempt: int) -> float:
    return min(30.0, 0.5 * 2**attempt)


def handle_event(request):
    payload = json.loads(request.body)
    event = payload["type"]
    if event not in HANDLED_EVENTS:
        return HttpResponse(status=204)
    obj = payload["data"]["object"]
    client = VendorClient(settings.VENDOR_API_KEY)
    body = {"charge": obj["id"], "amount": obj["amount"]}
    response = client.post("/v1/refunds", data=body)
    if response.status_code >= 500:
        logger.warning("vendor error %s", response.status_code)
        return HttpResponse(status=502)
    logger.info("refund %s created", response.json()["id"])
    return JsonResponse({"ok": True})


def sync_page(client, cursor=None):
    page = client.get("/v1/customers", params={"starting_after": cursor})
    for item in page["data"]:
        upsert_customer(item)
    return page.get("next")


def render_preview(message):
    return f"<p>{message.text}</p>"
""".splitlines()
_ADD_BLOCKS = [
    [
        "    if not verify_signature(request.body, request.headers, settings.WEBHOOK_SECRET):",
        '        logger.warning("rejected webhook with a bad signature")',
        "        return HttpResponse(status=400)",
    ],
    [
        "    key = f\"refund:{obj['id']}\"",
        '    response = client.post("/v1/refunds", data=body, idempotency_key=key)',
    ],
    [
        "    for attempt in range(MAX_RETRIES):",
        '        response = client.post("/v1/refunds", data=body)',
        "        if response.status_code < 500:",
        "            break",
        "        time.sleep(backoff(attempt))",
    ],
    ["    while cursor:", "        cursor = sync_page(client, cursor)"],
    [
        "    # Message text is user input: it may carry <script> tags.",
        '    return format_html("<p>{}</p>", message.text)',
    ],
    [
        "    # 顧客名は UTF-8 のまま保存する (customer names stay UTF-8) ✅",
        '    name = obj.get("name", "").strip()',
    ],
    [
        "    if response.status_code == 429:",
        '        time.sleep(float(response.headers.get("retry-after", "1")))',
    ],
]


def _test_source(task: TaskSpec) -> list[str]:
    vendor = task.vendors[0] if task.vendors else "billing"
    return [
        "import pytest",
        "",
        "",
        "@pytest.mark.django_db",
        f"def test_{task.primary.replace('-', '_')}(client, simulator):",
        f'    simulator.queue("{vendor}", status=200)',
        f'    response = client.post("/webhooks/{vendor}", data=simulator.event(),'
        ' content_type="application/json")',
        "    assert response.status_code == 200",
        f'    assert simulator.last_request("{vendor}").headers["idempotency-key"]',
        "",
        "",
        "def test_rejects_forged_signature(client):",
        f'    response = client.post("/webhooks/{vendor}", data="{{}}",'
        ' content_type="application/json")',
        "    assert response.status_code == 400",
    ]


def _hunk_context(start: int) -> str:
    for line in reversed(_BASE_SOURCE[:start]):
        if line.startswith("def "):
            return " " + line.rstrip(":") + ":"
    return ""


def build_patch(task: TaskSpec, rng: random.Random) -> str:
    count = rng.randint(min(2, len(task.files)), min(5, len(task.files)))
    files = sorted(rng.sample(task.files, count))
    out: list[str] = []
    for path in files:
        out.append(f"diff --git a/{path} b/{path}")
        if path.startswith("tests/") and rng.random() < 0.6:
            body = _test_source(task)
            out += ["new file mode 100644", f"index 0000000..{rand_hex(rng, 7)}", "--- /dev/null"]
            out += [f"+++ b/{path}", f"@@ -0,0 +1,{len(body)} @@"]
            out += [f"+{line}" for line in body]
            continue
        out += [
            f"index {rand_hex(rng, 7)}..{rand_hex(rng, 7)} 100644",
            f"--- a/{path}",
            f"+++ b/{path}",
        ]
        base = _BASE_SOURCE
        position = rng.randint(0, 8)
        delta = 0
        for _ in range(rng.randint(1, 3)):
            # 3 lines of context, then what is removed, then 3 more lines of context.
            removed = rng.randint(0, 3)
            if position + 6 + removed > len(base):
                break
            added = [] if removed and rng.random() < 0.15 else rng.choice(_ADD_BLOCKS)
            old = base[position : position + 6 + removed]
            before, gone, after = old[:3], old[3 : 3 + removed], old[3 + removed :]
            old_len = len(old)
            new_len = old_len - removed + len(added)
            out.append(
                f"@@ -{position + 1},{old_len} +{position + 1 + delta},{new_len} @@"
                + _hunk_context(position)
            )
            out += [f" {line}" for line in before]
            out += [f"-{line}" for line in gone]
            out += [f"+{line}" for line in added]
            out += [f" {line}" for line in after]
            delta += new_len - old_len
            position += old_len + rng.randint(1, 8)
    return "\n".join(out) + "\n"
