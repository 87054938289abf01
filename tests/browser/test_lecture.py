"""The lecture page in a real browser: step with mouse and keys, replay with no server traffic."""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from perceptron_core import make_dataset, train

pytestmark = pytest.mark.browser

# the default dataset: 40 separable points, seed 0, bias on, w0 = 0
X, Y = make_dataset("separable", n=40, seed=0)
TRACE = train(X, Y, record_steps=True)


def status(page: Page):
    return page.get_by_test_id("stMarkdownContainer").filter(has_text="mistakes k =").first


def chart_step(page: Page) -> int:
    """The step t printed inside the data panel (it moves with the replay frames)."""
    text = page.locator(".js-plotly-plot text", has_text=re.compile(r"^t = \d+")).first
    return int(re.match(r"t = (\d+)", text.text_content()).group(1))


def expect_chart_step(page: Page, t: int, timeout: float = 10.0) -> None:
    """The chart shows step t once the browser has moved it (an animation, not a reply)."""
    deadline = time.monotonic() + timeout
    while chart_step(page) != t and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert chart_step(page) == t


def open_lecture(page: Page, app_url: str) -> None:
    page.goto(app_url + "/lecture")
    expect(page.locator(".js-plotly-plot").first).to_be_visible(timeout=30_000)
    expect(status(page)).to_contain_text("t = 0 of")


def test_step_to_the_first_mistake_shows_k_1_and_the_updated_w(app_url, page, screenshot):
    open_lecture(page, app_url)
    first = int(TRACE.mistake_steps[0, 0])  # w = 0 errs on the very first example
    for _ in range(first + 1):
        page.get_by_role("button", name="Step ▶").click()
    expect(status(page)).to_contain_text(f"t = {first + 1} of")
    expect(status(page)).to_contain_text("mistakes k = 1")
    w = TRACE.weights[1]  # w0 + y x for the example just missed, with its bias feature
    update = page.get_by_test_id("stMarkdown").filter(has_text="←").filter(visible=True).last
    expect(update).to_be_visible()
    # the last "= (...)" of the written-out update is the new w
    after = update.inner_text().splitlines()[-1].rsplit("=", 1)[1]
    shown = [float(v.replace("−", "-")) for v in after.strip("() ").split(",")]
    assert shown == pytest.approx(w, rel=5e-3)
    expect_chart_step(page, first + 1)
    page.keyboard.press("ArrowRight")  # → is Step too
    expect(status(page)).to_contain_text(f"t = {first + 2} of")
    screenshot("lecture-first-mistake")


def test_play_replays_in_the_browser_without_websocket_messages(app_url, page, screenshot):
    sent: list[float] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda _: sent.append(time.monotonic())))
    open_lecture(page, app_url)
    expect(page.locator(".js-plotly-plot .updatemenu-button", has_text="Play 8/s")).to_be_visible()
    page.wait_for_function("window.__perceptronPlayer && window.__perceptronPlayer.gd")  # keys on
    page.keyboard.press(" ")  # space: Play
    # wait until frames move, then watch the traffic while they keep moving
    deadline = time.monotonic() + 10
    while chart_step(page) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    start_step, start_sent = chart_step(page), len(sent)
    time.sleep(1.5)
    end_step = chart_step(page)
    assert end_step >= start_step + 6, (start_step, end_step)  # 8 steps/s
    assert len(sent) == start_sent, "the replay talked to the server"
    screenshot("lecture-replay")

    page.keyboard.press(" ")  # space again: Pause, and the server learns the step
    time.sleep(0.4)
    paused = chart_step(page)
    expect(status(page)).to_contain_text(f"t = {paused} of", timeout=10_000)
    time.sleep(0.6)
    expect_chart_step(page, paused)  # stopped
    k = TRACE.mistakes_before(paused)
    expect(status(page)).to_contain_text(f"mistakes k = {k}")

    page.get_by_role("button", name="Step ▶").click()  # stepping continues from the pause
    expect(status(page)).to_contain_text(f"t = {paused + 1} of")
    page.keyboard.press("r")  # r: Reset (not Streamlit's rerun)
    expect(status(page)).to_contain_text("t = 0 of")
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_presenter_mode_hides_the_settings_and_enlarges_the_figure(app_url, page, screenshot):
    open_lecture(page, app_url)
    expect(page.get_by_text("Run settings")).to_be_visible()
    small = page.locator(".js-plotly-plot").first.bounding_box()["height"]
    page.get_by_text("Presenter mode").click()
    expect(page.get_by_text("Run settings")).to_have_count(0)
    # the taller chart replaces the old one (for a moment both are on the page)
    page.wait_for_function(
        f"""() => {{
            const charts = document.querySelectorAll('.st-key-lec_chart .js-plotly-plot');
            return charts.length === 1 && charts[0].getBoundingClientRect().height > {small};
        }}"""
    )
    screenshot("lecture-presenter")
