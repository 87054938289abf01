"""The Beyond linear page in a real browser: XOR's charts, the witness and the lifted space;
the wheel and a finger scroll the page past every chart (the 3-D view too, until the student
switches it to turning), and on a phone nothing is wider than the screen."""

import json

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES, MAIN, formulas_fit
from perceptron_core import train
from tests.browser.conftest import CHARTS_MS, fits_and_scrolls_past, open_page
from ui.xor.figures import XOR_X, XOR_Y

pytestmark = pytest.mark.browser

CHARTS_2D = [f"xor_curves_{j}" for j in range(3)] + ["xor_witness", "xor_boundary", "xor_remedies"]
THREE_D = ".st-key-xor_3d .js-plotly-plot"
TOP = f"{MAIN}.scrollTop"
CAMERA = "e => JSON.stringify(e._fullLayout.scene._scene.getCamera())"


def test_xor_page_shows_non_convergence_the_witness_and_the_fix(app_url, page, screenshot):
    open_page(page, app_url + "/xor", "Beyond linear: XOR")
    run = train(XOR_X, XOR_Y, max_epochs=30)  # the page's default: XOR's corners, 30 epochs
    last = int((run.mistake_steps[:, 0] >= 29 * len(XOR_Y)).sum())
    expect(
        page.get_by_text(f"{run.n_mistakes} mistakes in 30 epochs and still {last} in the last one")
    ).to_be_visible()
    expect(page.get_by_text("A cycle.")).to_be_visible()
    expect(page.get_by_text("the perceptron converges")).to_be_visible()
    # three learning-curve charts, the witness, the boundary, the 3-D lifted view, remedies
    expect(page.locator(".js-plotly-plot")).to_have_count(len(CHARTS_2D) + 1, timeout=CHARTS_MS)
    expect(page.locator(".st-key-xor_3d .gl-container").first).to_be_attached()
    expect(page.get_by_text("4 points, 2 markers.")).to_be_visible()
    expect(page.get_by_text("Lines on top of each other.")).to_be_visible()
    page.get_by_text("identity", exact=True).click()
    expect(page.get_by_text("the perceptron does not converge")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("xor")


def swipe_up(page, x: float, y: float, distance: float = 200) -> None:
    """A finger moving up the screen by ``distance`` px through (x, y)."""
    cdp = page.context.new_cdp_session(page)
    points = [{"x": x, "y": y + distance / 2 - distance * k / 10} for k in range(11)]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points[:1]})
    for point in points[1:]:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def scrolls_past_3d(page, device: str) -> None:
    """The wheel (laptop) or a swipe (phone) over the still 3-D view scrolls the page by
    what was asked, and the view neither zooms nor turns (Plotly's scene would take both)."""
    chart = page.locator(THREE_D)
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    room = page.evaluate(f"() => {MAIN}.scrollHeight - {MAIN}.clientHeight - {TOP}")
    assert room > 300  # the page can scroll on: the check means something
    box = chart.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    top, camera = page.evaluate(f"() => {TOP}"), chart.evaluate(CAMERA)
    if device == "laptop":
        page.mouse.move(x, y)
        page.mouse.wheel(0, 300)
        page.wait_for_function(f"t => {TOP} >= t + 298", arg=top, timeout=5_000)
    else:
        swipe_up(page, x, y)
        page.wait_for_function(f"t => {TOP} > t + 100", arg=top, timeout=5_000)
    page.wait_for_timeout(300)  # whatever the event did has landed
    assert chart.evaluate(CAMERA) == camera


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_every_chart(on_device, device):
    """Every formula inside its column too; the 3-D view scrolls the page like the others."""
    page = on_device(device, "/xor", len(CHARTS_2D) + 1)
    formulas_fit(page)  # KaTeX has laid out with its fonts
    scrolls_past_3d(page, device)
    charts = [f".st-key-{key} .js-plotly-plot" for key in CHARTS_2D]
    fits_and_scrolls_past(page, device, "xor", *charts)


def test_switched_on_the_3d_view_turns_with_a_drag_and_zooms_with_the_wheel(on_device):
    page = on_device("laptop", "/xor", len(CHARTS_2D) + 1)
    page.get_by_text("turn the 3-D view (drag to rotate)").click()
    expect(page.get_by_text("Drag to rotate the view")).to_be_visible(timeout=20_000)
    chart = page.locator(THREE_D)
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(500)
    box = chart.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    changed = "([e, c]) => JSON.stringify(e._fullLayout.scene._scene.getCamera()) !== c"
    camera, top = chart.evaluate(CAMERA), page.evaluate(f"() => {TOP}")
    page.mouse.move(x, y)
    page.mouse.wheel(0, 300)  # asked for: the wheel zooms the view, not the page
    page.wait_for_function(changed, arg=[chart.element_handle(), camera], timeout=5_000)
    assert page.evaluate(f"() => {TOP}") == top
    camera = chart.evaluate(CAMERA)
    page.mouse.down()
    page.mouse.move(x + 80, y + 10, steps=8)
    page.mouse.up()
    page.wait_for_function(changed, arg=[chart.element_handle(), camera], timeout=5_000)
    assert json.loads(chart.evaluate(CAMERA))["eye"] != json.loads(camera)["eye"]
