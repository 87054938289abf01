"""A clip of the lecture, in a real browser: from Save figure, the next steps at the
player's speed as a GIF and as a WebM video, each read back as a player reads it (its
size and its frames, tools.media), and the chart back on its step afterwards.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.test_figure_export import open_save_menu, save
from browser.test_lecture import expect_step, open_lecture, status
from tools.media import read_gif, read_webm

pytestmark = pytest.mark.browser


def choose(page: Page, act: str, value: str) -> None:
    page.locator(f'.lec select[data-act="{act}"]').select_option(value)


def record(page: Page, fmt: str, name: str) -> bytes:
    def go():
        open_save_menu(page)()
        choose(page, "clip-steps", "10")
        choose(page, "clip-width", "640")

    return save(page, go, lambda: page.locator(f'.lec button[data-act="clip-{fmt}"]').click(), name)


def test_the_next_ten_steps_as_a_gif_and_as_a_webm_video(app_url, page):
    open_lecture(page, app_url, "?lec_t=3")
    expect_step(page, 3)
    page.locator(".lec select.speed").select_option("8")

    gif = read_gif(record(page, "gif", "perceptron-steps-3-13.gif"))
    # a frame per step, 3 to 13, each an eighth of a second (GIF counts hundredths)
    assert (gif.width, gif.frames) == (640, 11), gif
    assert 300 < gif.height < 640 and gif.height % 2 == 0, gif
    assert set(gif.delays_ms) <= {120, 130}, gif.delays_ms
    expect(page.locator(".lec .note")).to_contain_text("Saved perceptron-steps-3-13.gif: 11 frames")
    expect_step(page, 3)  # the chart is back on its step
    expect(status(page)).to_contain_text("step t = 3 of")

    webm = read_webm(record(page, "webm", "perceptron-steps-3-13.webm"))
    assert (webm.width, webm.height) == (gif.width, gif.height), webm
    # a frame asked for per step: the recorder writes each (give or take the first, which
    # it may fold into the start of the stream)
    assert 10 <= webm.frames <= 11, webm
    expect_step(page, 3)
