"""Debian's chromium through Playwright for the class tests, and a plain GET.

Playwright's sync API runs one instance per thread, and ``tests/browser`` keeps its own
for the whole session; so each test here drives its own chromium in a thread of its own
(:func:`in_browser`), and its assertions come back to the test.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, EXPECT_TIMEOUT_MS

SCREENSHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"
T = TypeVar("T")


def in_browser(body: Callable[[Any], T], timeout: float = 240) -> T:
    """Run ``body(browser)`` with a fresh chromium in a thread of its own; return what it
    returns, or raise what it raised."""
    out: dict[str, Any] = {}

    def run() -> None:
        from playwright.sync_api import expect, sync_playwright

        expect.set_options(timeout=EXPECT_TIMEOUT_MS)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                )
                try:
                    out["value"] = body(browser)
                finally:
                    browser.close()
        except BaseException as exc:  # re-raised in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=run, name="chromium", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"the browser's part of the test ran past {timeout:g} s")
    if "error" in out:
        raise out["error"]
    return out["value"]  # type: ignore[no-any-return]


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"deploy-{name}.png"), full_page=True)


def get(url: str, encoding: str | None = None) -> Any:
    """(status, headers with lower-case names, body as sent) of a GET, with exactly the
    Accept-Encoding given (none if None), as a browser's request would carry it."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.putrequest(
            "GET",
            parts.path + (f"?{parts.query}" if parts.query else ""),
            skip_accept_encoding=True,
        )
        if encoding is not None:
            conn.putheader("Accept-Encoding", encoding)
        conn.endheaders()
        response = conn.getresponse()
        body = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, body
    finally:
        conn.close()
