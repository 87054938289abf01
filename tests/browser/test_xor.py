"""The Beyond linear page in a real browser: XOR's charts, the witness and the lifted space;
the wheel and a finger scroll the page past every chart (the 3-D view too), and on a phone
nothing is wider than the screen."""

import json

import pytest
from playwright.sync_api import expect

from perceptron_core import train
from tests.browser.conftest import SCREENSHOTS
from ui.xor.figures import XOR_X, XOR_Y

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
CHARTS = [f"xor_curves_{j}" for j in range(3)] + [
    "xor_witness",
    "xor_boundary",
    "xor_3d",
    "xor_remedies",
]
SCROLLER = "[data-testid='stMain']"  # Streamlit scrolls this, not the document
TOP = f'document.querySelector("{SCROLLER}").scrollTop'
EYE = "e => JSON.stringify(e._fullLayout.scene._scene.getCamera())"

# Elements of the main area whose *visible* box reaches past the screen's right edge. A box
# is cut by every ancestor that clips (overflow other than visible: a formula's own
# scrolling box, an <svg>, KaTeX's 1-px MathML copy for screen readers), so what a clip
# hides is not counted, but the clipping box itself is.
WIDER_THAN_SCREEN = """() => {
  const main = document.querySelector("[data-testid='stMain']");
  const limit = window.innerWidth + 1;
  const found = [];
  for (const e of main.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= limit) continue;
    let right = r.right;
    for (let a = e.parentElement; a && a !== main; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') {
        right = Math.min(right, a.getBoundingClientRect().right);
      }
    }
    if (right > limit) {
      const name = e.getAttribute('data-testid') || e.className.baseVal || e.className;
      found.push(`${e.tagName}.${name}: right ${Math.round(right)}`);
    }
  }
  return found;
}"""
SIDEWAYS = f"""() => {{
  const main = document.querySelector("{SCROLLER}");
  return [document.documentElement.scrollWidth - window.innerWidth,
          main.scrollWidth - main.clientWidth];
}}"""
# formulas wider than the column they are in: on a phone they would need a sideways scroll
# in their own box, and looked cut off ("≤ ‖w₂", "= 3") to a student who did not try it
# (a formula's own box is only as wide as the formula: it is measured against its column)
FORMULAS_CUT = """() => [...document.querySelectorAll('.katex-display')].filter(d => {
    const column = d.closest('[data-testid=stVerticalBlock]').getBoundingClientRect();
    const html = d.querySelector('.katex-html');
    const left = html.getBoundingClientRect().left;
    return left < column.left - 1 || left + html.scrollWidth > column.right + 1;
  }).map(d => (d.querySelector('annotation') || d).textContent.slice(0, 80))"""


def open_xor(page, app_url):
    page.goto(app_url + "/xor")
    expect(page.get_by_role("heading", name="Beyond linear: XOR")).to_be_visible(timeout=30_000)
    expect(page.locator(".js-plotly-plot")).to_have_count(len(CHARTS), timeout=30_000)
    expect(page.locator(".st-key-xor_3d .js-plotly-plot")).to_be_visible()


def shots(page, name):
    """Screenshots down the whole page: Streamlit scrolls an inner box, so a full-page
    screenshot would show one screen; one PNG per screen instead."""
    SCREENSHOTS.mkdir(exist_ok=True)
    height = page.evaluate(f'document.querySelector("{SCROLLER}").clientHeight') - 80
    total = page.evaluate(f'document.querySelector("{SCROLLER}").scrollHeight')
    for i in range(total // height + 1):
        page.evaluate(f'document.querySelector("{SCROLLER}").scrollTop = {i * height}')
        page.wait_for_timeout(250)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{i:02d}.png"))


def test_xor_page_shows_non_convergence_the_witness_and_the_fix(app_url, page, screenshot):
    page.goto(app_url + "/xor")
    expect(page.get_by_role("heading", name="Beyond linear: XOR")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    run = train(XOR_X, XOR_Y, max_epochs=30)  # the page's default: XOR's corners, 30 epochs
    last = int((run.mistake_steps[:, 0] >= 29 * len(XOR_Y)).sum())
    expect(
        page.get_by_text(f"{run.n_mistakes} mistakes in 30 epochs and still {last} in the last one")
    ).to_be_visible()
    expect(page.get_by_text("A cycle.")).to_be_visible()
    expect(page.get_by_text("the perceptron converges")).to_be_visible()
    # three learning-curve charts, the witness, the boundary, the 3-D lifted view, remedies
    expect(page.locator(".js-plotly-plot")).to_have_count(len(CHARTS), timeout=30_000)
    expect(page.locator(".st-key-xor_3d .gl-container").first).to_be_attached()
    expect(page.get_by_text("4 points, 2 markers.")).to_be_visible()
    expect(page.get_by_text("Lines on top of each other.")).to_be_visible()
    page.get_by_text("identity", exact=True).click()
    expect(page.get_by_text("the perceptron does not converge")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("xor")


def test_the_wheel_scrolls_the_page_past_the_3d_view_and_every_chart(app_url, browser):
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    try:
        open_xor(page, app_url)
        for key in CHARTS:
            chart = page.locator(f".st-key-{key} .js-plotly-plot")
            chart.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(300)
            room = page.evaluate(
                f'(() => {{ const m = document.querySelector("{SCROLLER}");'
                " return m.scrollHeight - m.clientHeight - m.scrollTop; })()"
            )
            assert room > 100, key  # the page can scroll on: the test means something
            box = chart.bounding_box()
            assert box is not None
            before = page.evaluate(TOP)
            eye = chart.evaluate(EYE) if key == "xor_3d" else None
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, 600)
            page.wait_for_function(f"{TOP} > {before}", timeout=5_000)
            page.wait_for_timeout(300)  # the wheel has landed: where it scrolled, not zoomed
            assert page.evaluate(TOP) - before >= min(600, room) - 2, key
            if key == "xor_3d":
                assert json.loads(chart.evaluate(EYE)) == json.loads(eye)  # no zoom, no turn
        # asked for: the 3-D view zooms with the wheel and turns with a drag
        page.get_by_text("turn the 3-D view (drag to rotate)").click()
        expect(page.get_by_text("Drag to rotate the view")).to_be_visible(timeout=20_000)
        chart = page.locator(".st-key-xor_3d .js-plotly-plot")
        chart.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(500)
        box = chart.bounding_box()
        assert box is not None
        eye, before = chart.evaluate(EYE), page.evaluate(TOP)
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, 300)
        page.wait_for_function(
            f"e => JSON.stringify(e._fullLayout.scene._scene.getCamera()) !== {json.dumps(eye)}",
            arg=chart.element_handle(),
            timeout=5_000,
        )
        assert page.evaluate(TOP) == before
        eye = chart.evaluate(EYE)  # and a drag turns it
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 80, y + 10, steps=8)
        page.mouse.up()
        page.wait_for_function(
            f"e => JSON.stringify(e._fullLayout.scene._scene.getCamera()) !== {json.dumps(eye)}",
            arg=chart.element_handle(),
            timeout=5_000,
        )
    finally:
        context.close()


def swipe_up(cdp, x: float, y: float, distance: float = 200) -> None:
    """A finger moving up the screen by ``distance`` px: the page should scroll down."""
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for i in range(1, 11):
        point = {"x": x, "y": y - distance * i / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_on_a_phone_nothing_is_wider_than_the_screen_and_a_swipe_passes_every_chart(
    app_url, browser
):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        open_xor(page, app_url)
        page.wait_for_timeout(1000)  # KaTeX and Plotly have laid out
        assert page.evaluate(WIDER_THAN_SCREEN) == []
        assert page.evaluate(SIDEWAYS) == [0, 0]
        assert page.evaluate(FORMULAS_CUT) == []
        cdp = context.new_cdp_session(page)
        for key in CHARTS:  # a finger's swipe that starts on a chart scrolls the page
            chart = page.locator(f".st-key-{key} .js-plotly-plot")
            chart.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(400)
            box = chart.bounding_box()
            assert box is not None
            before = page.evaluate(TOP)
            eye = chart.evaluate(EYE) if key == "xor_3d" else None
            swipe_up(cdp, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6)
            page.wait_for_function(f"{TOP} > {before + 100}", timeout=5_000)
            if key == "xor_3d":
                assert chart.evaluate(EYE) == eye  # the page scrolled, the view did not turn
        shots(page, "xor-phone-390x844")
    finally:
        context.close()
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    try:
        open_xor(page, app_url)
        page.wait_for_timeout(1000)
        assert page.evaluate(SIDEWAYS)[1] <= 0
        shots(page, "xor-laptop-1366x768")
    finally:
        context.close()
