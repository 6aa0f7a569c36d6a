"""Text the generator draws from: messages, reasoning, code, some of it deliberately hostile."""

from __future__ import annotations

EXOTIC = [
    "テストを実行して、失敗したケースを確認します。",
    "顾客的退款请求已经处理完毕 ✅",
    "سأقوم بتحديث معالج الويب هوك الآن.",
    "אני בודק את קובץ ההגדרות לפני השינוי.",
    "All green 🎉🚀 13 passed, 0 failed",
    "The preview renders <img src=x onerror=alert(1)> unescaped; escaping it before posting.",
    "Found <script>alert(1)</script> in the fixture message body, keeping it as a test case.",
    'The template had <a href="javascript:alert(document.cookie)">open</a>; switched to a '
    "safe URL builder.",
    "mixed direction: order 42 עברית 123 العربية xyz",
    "zero-width a\u200bb, combining e\u0301, astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩🏽\u200d💻",
]
HOSTILE_HTML = (
    "<!doctype html><html><head><title>502 Bad Gateway</title>"
    "<script>alert(1)</script></head><body><h1>Bad gateway</h1>"
    '<img src=x onerror=alert(1)><a href="javascript:alert(1)">retry</a></body></html>'
)
MESSAGES = [
    "Let me look at {file} first.",
    "I'll run the test suite to see the current state.",
    "The {vendor} client doesn't send an idempotency key; adding one.",
    "Tests pass locally. Let me double-check the webhook path.",
    "I need to check how {file} handles retries.",
    "Updating {file} to verify the signature before parsing the body.",
    "The simulator returned a 400; the payload is missing a required field.",
    "The change for '{title}' needs a test for the failure path too.",
    "Checking the {vendor} simulator log for the last request.",
    "Now I'll wire the handler into the URL configuration.",
]
REASONING = [
    "The handler in {file} parses the payload before verifying it, so a forged event would "
    "be processed. I should verify first and return 400 on mismatch.",
    "If the {vendor} API returns 5xx we currently drop the job. A bounded retry with "
    "exponential backoff is safer; the simulator probably injects failures.",
    "The ticket asks for '{title}'. The minimal change is in {file}; tests live under tests/.",
    "Pagination: the response has a cursor field; the loop stops after the first page.",
    "Amounts are stored in minor units; JPY has zero decimals, so dividing by 100 is wrong.",
    "I should not log the authorization header; mask it before writing the debug line.",
]
CODE = [
    "import logging",
    "import time",
    "from decimal import Decimal",
    "logger = logging.getLogger(__name__)",
    "MAX_RETRIES = 5",
    "def handle_event(event: dict) -> None:",
    '    payload = event["data"]["object"]',
    '    if payload.get("status") != "succeeded":',
    "        return",
    "    client = VendorClient.from_env()",
    '    response = client.post("/v1/refunds", data=body, idempotency_key=key)',
    "    response.raise_for_status()",
    '    logger.info("refund %s created", response.json()["id"])',
    "    for attempt in range(MAX_RETRIES):",
    "        time.sleep(backoff(attempt))",
    "    return Decimal(amount) / 100",
    "    # 顧客名は UTF-8 のまま保存する",
    '    subject = f"✅ {order.number} refunded"',
    '    raise WebhookSignatureError("bad signature")',
    "class SyncState(models.Model):",
    "    cursor = models.CharField(max_length=255, blank=True)",
    "    updated_at = models.DateTimeField(auto_now=True)",
    "    html = escape(message.text)  # <script> in user text must not survive",
    '    headers = {"Authorization": f"Bearer {settings.VENDOR_TOKEN}"}',
    "    if not verify_signature(request.body, request.headers, secret):",
    "        return HttpResponse(status=400)",
    '    next_cursor = page.get("paging", {}).get("next")',
    "    while next_cursor:",
    "    key = f\"{event['id']}:{attempt}\"",
    '    return JsonResponse({"ok": True})',
    "",
]
