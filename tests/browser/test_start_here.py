"""A class one click from the lecture: on Step by step the lecturer presses Start a class,
stays on the page at the same step, and the join view (QR code, address, class code)
opens over the lecture; Escape closes it, and How to join opens it again. In presenter
mode too: the button sits above the picture, and the class's strip takes its row."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.devices import SCREENSHOTS
from browser.test_lecture import open_lecture, status
from browser.test_presenter import on_screen, settled, the_projector_shows_it_all

pytestmark = pytest.mark.browser


def test_start_a_class_from_the_lecture_and_stay_there(app_url, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        open_lecture(page, app_url, "?data_name=four_points&lec_bias=0&lec_t=3")
        expect(status(page)).to_contain_text("step t = 3 of")
        page.get_by_role("button", name="Start a class").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible(timeout=15_000)
        expect(dialog).to_contain_text("Join this class")  # the view's heading
        code = dialog.locator(".st-key-room_code").inner_text().strip()
        assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code), code
        expect(
            dialog.get_by_role("img", name=re.compile("QR code of the join link"))
        ).to_be_visible()
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / "start_here_join_1280x720.png")
        assert "/lecture" in page.url  # the lecturer stayed
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0, timeout=10_000)
        expect(status(page)).to_contain_text("step t = 3 of")  # the lecture where it was
        expect(page.get_by_role("button", name="Start a class")).to_have_count(0)
        expect(page.locator(".st-key-room_strip")).to_contain_text(code)
        page.get_by_role("button", name="How to join").click()
        expect(page.get_by_role("dialog")).to_contain_text(code, timeout=15_000)
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0, timeout=10_000)
    finally:
        context.close()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_start_a_class_in_presenter_mode_and_the_projector_still_shows_it_all(
    app_url, browser, size
):
    w, h = size
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        open_lecture(page, app_url, "?app_presenter=1&lec_t=9")
        start = page.get_by_role("button", name="Start a class")
        expect(start).to_be_visible()
        on_screen(page, start, "Start a class")
        frames = page.locator(".lec .fig").filter(visible=True).locator("rect.frame")
        expect(frames).to_have_count(4)
        settled(page)  # drawn for this screen, and not drawn again while it is measured
        for j in range(4):  # the picture whole on the first screen, the button above it
            on_screen(page, frames.nth(j), f"panel {j}")
        start.click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_contain_text("Join this class", timeout=15_000)
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0, timeout=10_000)
        expect(page.locator(".lec.presenter")).to_have_count(1)  # still presenting
        the_projector_shows_it_all(page, f"start_here_{w}x{h}")
    finally:
        context.close()
