"""A live `streamlit run app.py` on localhost, driven by Debian's chromium through Playwright."""

import os
import shutil
from pathlib import Path

import pytest

from benchmarks import streamlit_server

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
_WORKER = "-" + os.environ["PYTEST_XDIST_WORKER"] if "PYTEST_XDIST_WORKER" in os.environ else ""
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# What a person waits for a page to show, when the two cores also run the other parallel
# tests: 15 s, not Playwright's 5 s (a test that times the app says its own timeout).
EXPECT_TIMEOUT_MS = 15_000
# Chromium as root in a sandbox with no network beyond localhost.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def uploader(page):
    """The sidebar's file input, once there is one: a refused upload gives the uploader a
    new key (so it is empty), and while that run draws, the old one is still on the page."""
    from playwright.sync_api import expect

    inputs = page.get_by_test_id("stFileUploaderDropzoneInput")
    expect(inputs).to_have_count(1)
    return inputs


@pytest.fixture(scope="session")
def app_url():
    with (
        open(ROOT / "tests" / "browser" / f"streamlit{_WORKER}.log", "wb") as log,
        streamlit_server.serve("app.py", log=log) as (_, url),
    ):
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def screenshot(page):
    """Save a full-page PNG under tests/browser/screenshots/ to look at."""
    SCREENSHOTS.mkdir(exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
