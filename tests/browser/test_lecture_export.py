"""The lecture's "Download this run" in a real browser: the file downloaded from the live
page plays from file:// with the network off, with the same controls, keys, chart, status and
presenter mode, and its status line says what the live page says at the same steps."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from browser.test_lecture import button, chart_t, open_lecture, status, status_t
from tests.browser.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

QUERY = "?data_name=noisy"  # 40 noisy points, 50 epochs: 2,000 steps, 20 of the live windows
T = 2_000
SAMPLES = (0, 1, 150, 1_234, T)  # in the first window, the second, the middle, the end


def at_step(page: Page, t: int) -> None:
    expect(status(page)).to_contain_text(f"step t = {t:,} of {T:,}")
    assert chart_t(page) == t


def download_from_live_page(page: Page, app_url: str, folder: Path) -> Path:
    open_lecture(page, app_url, QUERY)
    at_step(page, 0)
    label = page.get_by_role("button", name="Download this run (HTML, 2,000 steps, plays offline)")
    with page.expect_download(timeout=60_000) as info:
        label.click()
    name = info.value.suggested_filename
    assert name == "perceptron-noisy-2000steps.html"
    assert re.fullmatch(r"perceptron-[a-z0-9-]+\.html", name)
    path = folder / name
    info.value.save_as(path)
    return path


def live_statuses(page: Page, app_url: str) -> dict[int, str]:
    said = {}
    for t in SAMPLES:
        open_lecture(page, app_url, f"{QUERY}&lec_t={t}")
        at_step(page, t)
        said[t] = status(page).inner_text()
    return said


# The width of `text` at 16 px in the status line's font, and in the browser's sans-serif;
# and the families the page has loaded (document.fonts). The live page's player sits in a
# shadow root: the status line is handed in.
MEASURE = """(status, text) => {
  const family = getComputedStyle(status).fontFamily;
  const ctx = document.createElement("canvas").getContext("2d");
  const width = (f) => { ctx.font = `16px ${f}`; return ctx.measureText(text).width; };
  const loaded = [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family);
  return { family, own: width(family), plain: width("sans-serif"), loaded };
}"""


def test_the_downloaded_run_plays_offline_like_the_live_page(app_url, page, browser, tmp_path):
    path = download_from_live_page(page, app_url, tmp_path)
    size = path.stat().st_size
    print(f"\nthe downloaded file: {path.name}, {size / 1000:.1f} kB")
    assert size <= 1_500_000
    live = live_statuses(page, app_url)
    live_type = status(page).evaluate(MEASURE, live[T])

    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 720})
    try:
        off = context.new_page()
        asked: list[str] = []
        off.on("request", lambda r: asked.append(r.url))
        errors: list[str] = []
        off.on("pageerror", lambda e: errors.append(str(e)))
        url = path.as_uri()
        off.goto(url)
        expect(off.locator(".lec .fig")).to_be_visible()
        at_step(off, 0)
        assert status(off).inner_text() == live[0]

        # its text in the live page's letters, from the file's own font: the status line
        # as wide as on the live page, where the browser's sans-serif is not
        own_type = status(off).evaluate(MEASURE, live[T])
        family = own_type["family"].split(",")[0].strip("\"' ")
        assert family in own_type["loaded"], own_type
        print(
            f"the status line at 16 px: live {live_type['own']:.1f} px, file "
            f"{own_type['own']:.1f} px, sans-serif {own_type['plain']:.1f} px"
        )
        assert abs(own_type["own"] - live_type["own"]) < 0.5, (own_type, live_type)
        assert abs(live_type["own"] - live_type["plain"]) > 5, live_type  # a font of its own

        # what the file says about itself, and its way back to the live app
        expect(off.locator("#about-data")).to_contain_text("(n = 40, seed 0): 40 points.")
        expect(off.locator("#about-made")).to_contain_text("Made with Perceptron Lab")
        href = off.locator("#about-link-a").get_attribute("href") or ""
        assert href.startswith(app_url + "/lecture?") and "data_name=noisy" in href

        # Step, Back, and the keys the live page uses (player.js KEYS)
        button(off, "step").click()
        at_step(off, 1)
        assert status(off).inner_text() == live[1]
        button(off, "back").click()
        at_step(off, 0)
        for _ in range(3):
            off.keyboard.press("ArrowRight")
        at_step(off, 3)
        off.keyboard.press("ArrowLeft")
        at_step(off, 2)
        off.keyboard.press("n")  # next mistake
        assert chart_t(off) > 2

        # Play (space) replays, Pause stops it, and the status follows the chart
        off.keyboard.press("Home")
        at_step(off, 0)
        off.keyboard.press(" ")
        off.wait_for_timeout(1500)
        assert chart_t(off) >= 5
        off.keyboard.press(" ")
        paused = chart_t(off)
        off.wait_for_timeout(800)
        assert chart_t(off) == paused == status_t(off)

        # past the first live window, to the end: every step is in the file
        off.keyboard.press("End")
        at_step(off, T)
        assert status(off).inner_text() == live[T]
        expect(status(off)).to_contain_text("end of the run: stopped after 50 epochs")

        # presenter mode switches in the page (P), and back
        off.keyboard.press("p")
        expect(off.locator(".lec.presenter")).to_be_visible()
        expect(off.locator(".about")).to_be_hidden()
        at_step(off, T)
        off.keyboard.press("p")
        expect(off.locator(".lec.presenter")).to_have_count(0)

        # ?lec_t= opens the file at a step (as "Copy link" writes it): the live page's status
        for t in SAMPLES:
            off.goto(f"{url}?lec_t={t}")
            at_step(off, t)
            assert status(off).inner_text() == live[t], t
        SCREENSHOTS.mkdir(exist_ok=True)
        off.screenshot(path=str(SCREENSHOTS / "lecture-export-offline.png"))  # 1280×720
        off.keyboard.press("p")
        expect(off.locator(".lec.presenter")).to_be_visible()
        off.wait_for_timeout(300)
        off.screenshot(path=str(SCREENSHOTS / "lecture-export-offline-presenter.png"))

        assert errors == []
        assert [u for u in asked if not u.startswith("file://")] == []  # nothing but the file
    finally:
        context.close()


def test_a_cut_file_keeps_its_steps_and_says_the_rest_is_in_the_live_app(browser, tmp_path):
    from perceptron_core import make_dataset
    from ui.compute.model import RunSettings, record_run
    from ui.lecture import export

    X, y = make_dataset("noisy", n=40, seed=0)
    run = record_run(X, y, RunSettings())
    said = export.cut_text(1_000, 1_500, T)
    facts = export.Meta(
        name="noisy",
        points=40,
        summary="Run: bias on",
        settings="bias on",
        version="0.1.0",
        exported="2026-11-27",
        link=None,
        t=1_200,
        cut=said,
    )
    path = tmp_path / export.file_name("noisy", 1_000, 1_500, T)
    path.write_bytes(export.run_file(run, start=1_000, stop=1_500, data_name="noisy", meta=facts))
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 720})
    try:
        off = context.new_page()
        off.goto(path.as_uri())
        expect(off.locator(".lec .fig")).to_be_visible()
        at_step(off, 1_200)  # the step it was made at
        expect(off.locator("#about-cut")).to_have_text(said)
        expect(off.locator("#about-link")).to_be_hidden()  # no address known: no link
        off.keyboard.press("End")  # the run's end is not in the file: its last step
        at_step(off, 1_500)
        expect(off.locator(".lec p.note")).to_have_text(
            "This file holds steps 1,000 to 1,500 of 2,000; the live app has the rest."
        )
        expect(off.locator(".lec.busy")).to_have_count(0)  # not waiting for a server
        off.keyboard.press("Home")
        at_step(off, 1_000)
        off.keyboard.press("ArrowRight")
        at_step(off, 1_001)
    finally:
        context.close()
