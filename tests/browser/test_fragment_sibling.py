"""A fragment's rerun queued behind a page run leaves what follows the fragment on the
page, in chromium, on a page of its own (``apps/fragment_sibling.py``).

The page run's elements of a fragment whose rerun is queued behind it may be dropped
before they are sent; the browser then removes the fragment's old elements at the page
run's end, and whatever came after the fragment in the same container would move into
its place, to be drawn over by the fragment's rerun (``ui.server.guard.fragment`` puts
each fragment in a container of its own). On Step by step that element is a student's
question card, after the lecture's instrument. The test clicks while the page runs
:data:`ROUNDS` times: the race is the scheduler's, so a round may or may not reach it;
without the container the element after the fragment is lost in most runs of the test
on a 2-core machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tools import streamlit_server

pytestmark = [pytest.mark.browser]

APP = Path(__file__).parent / "apps" / "fragment_sibling.py"
ROUNDS = 10
SLOW_S = 0.6  # the page run's sleep, in which the fragment's button is clicked


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("fragment_sibling") / "streamlit.log"
    with open(log, "wb") as out, streamlit_server.serve(APP, log=out) as (_, at):
        yield at


def test_the_element_after_a_fragment_stays_when_its_rerun_waits_for_a_page_run(
    browser: Browser, url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page: Page = context.new_page()
    try:
        page.goto(f"{url}/?slow={SLOW_S}")
        box = page.locator(".st-key-box")
        after = box.get_by_text("The element after the fragment", exact=True)
        expect(after).to_be_visible(timeout=30_000)
        for _ in range(ROUNDS):
            page.get_by_role("button", name="Run the page").click()
            page.wait_for_timeout(SLOW_S * 1000 / 3)  # the page run sleeps
            page.get_by_role("button", name="Run the fragment").click()
            expect(page.get_by_test_id("stStatusWidget")).to_be_hidden(timeout=15_000)
            page.wait_for_timeout(300)  # the queued fragment run, after the page's
            expect(after).to_be_visible()
            expect(box.get_by_text("The fragment at")).to_have_count(1)
            expect(box.get_by_role("button", name="Run the fragment")).to_have_count(1)
    finally:
        context.close()
