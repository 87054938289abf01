"""The SGD page in a real browser: the E_p landscape with the path, the losses, the three
learning rates and the online / mini-batch / batch comparison."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from perceptron_core import make_dataset, train
from ui.kit.numbers import number, vector_text

pytestmark = pytest.mark.browser


def test_sgd_page_shows_the_landscape_the_learning_rates_and_the_batches(app_url, page, screenshot):
    page.goto(app_url + "/sgd")
    expect(page.get_by_role("heading", name="The perceptron as SGD")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    X, y = make_dataset("separable", n=40, seed=0)  # the sidebar's default, used without bias
    run = train(X, y, bias=False, max_epochs=30)
    expect(page.get_by_text(f"{run.n_mistakes} updates, converged after")).to_be_visible()
    for eta in (0.1, 1, 10):  # from w0 = 0: the same mistakes, w scaled by eta
        w = train(X, y, bias=False, max_epochs=30, eta=eta).w
        assert w == pytest.approx(eta * run.w)
        shown = f"η = {number(eta)}: {run.n_mistakes} mistakes, w = {vector_text(w)}"
        expect(page.get_by_text(shown)).to_be_visible()
    expect(page.get_by_text("same mistakes at the same steps")).to_be_visible()
    from_start = [train(X, y, bias=False, max_epochs=30, w0=[2, 2], eta=e) for e in (0.1, 1, 10)]
    counts = ", ".join(str(t.n_mistakes) for t in from_start[:2])
    expect(page.get_by_text(f"{counts} and {from_start[2].n_mistakes} mistakes")).to_be_visible()
    # landscape, E_p along the path, losses and steps, 3 + 3 learning-rate panels, mistakes
    # and updates per epoch, three paths
    expect(page.locator(".js-plotly-plot")).to_have_count(13, timeout=30_000)
    expect(page.get_by_text("Eₚ = 0: no mistake").first).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    for name, heading in (
        ("sgd", "1. The landscape"),
        ("sgd-losses", "2. One update"),
        ("sgd-eta", "3. The learning rate"),
        ("sgd-start", "From a non-zero start"),
        ("sgd-batches", "4. Online, mini-batch and batch"),
    ):
        top = "e => e.scrollIntoView({block: 'start'})"
        page.get_by_role("heading", name=heading).evaluate(top)
        page.wait_for_timeout(300)
        screenshot(name)
    # a student picks XOR in the sidebar's dataset box: no line separates it
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="XOR").click()
    expect(page.get_by_text("No line separates them at all, even with a bias")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text("not converged in 30 epochs")).to_be_visible()
    page.get_by_role("heading", name="4. Online, mini-batch and batch").evaluate(top)
    page.wait_for_timeout(500)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("sgd-xor-batches")


SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


# --- a student's own device (issue 18): a 390×844 touch phone and a 1366×768 laptop ------

DEVICES = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
    "laptop": {"viewport": {"width": 1366, "height": 768}},
}
MAIN = "document.querySelector('[data-testid=stMain]')"  # Streamlit scrolls this, not the page
# what of the main area sticks out of the viewport, unless a box of its own that fits the
# viewport scrolls or clips it (a table, a formula); and how far the page scrolls sideways
STICKING_OUT = f"""() => {{
  const vw = document.documentElement.clientWidth, main = {MAIN}, out = [];
  const inside = r => r.left >= -1 && r.right <= vw + 1;
  for (const el of main.querySelectorAll('*')) {{
    const r = el.getBoundingClientRect();
    if (r.width === 0 || inside(r)) continue;
    let boxed = false;
    for (let a = el.parentElement; a && a !== main && !boxed; a = a.parentElement)
      boxed = getComputedStyle(a).overflowX !== 'visible' && inside(a.getBoundingClientRect());
    if (!boxed) out.push(el.tagName + ': ' + (el.innerText || '').slice(0, 50));
  }}
  return {{sideways: Math.max(main.scrollWidth - main.clientWidth,
                              document.documentElement.scrollWidth - vw), out}};
}}"""
RANGES = "gd => JSON.stringify([gd._fullLayout.xaxis.range, gd._fullLayout.yaxis.range])"
NOT_PLAIN = re.compile(r"e\+|[-−]0(?:\.0+)?(?![\d.])|\d[kMG]$|×10")  # 5.94e+03, −0.00, 20k


def open_on(browser, device: str, url: str, charts: int):
    """A new browser context on ``device`` with the page at ``url`` drawn: its ``charts``
    Plotly charts, and the script run finished."""
    context = browser.new_context(**DEVICES[device])
    page = context.new_page()
    page.goto(url)
    expect(page.locator("h1").first).to_be_visible(timeout=60_000)
    expect(page.locator(".js-plotly-plot")).to_have_count(charts, timeout=60_000)
    expect(page.locator(".js-plotly-plot:not(:has(.main-svg))")).to_have_count(0)
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=60_000)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    return context, page


def assert_fits_and_reads_plainly(page) -> None:
    """Nothing wider than the screen, no sideways scroll; text and chart labels plain."""
    fit = page.evaluate(STICKING_OUT)
    assert fit == {"sideways": 0, "out": []}, fit
    text = page.get_by_test_id("stMain").inner_text()
    assert not NOT_PLAIN.search(text), NOT_PLAIN.findall(text)
    labels = page.locator(".js-plotly-plot svg text").evaluate_all(
        "all => all.map(e => e.textContent.trim())"
    )  # axis ticks, colour bars, legends, notes
    assert not [t for t in labels if NOT_PLAIN.search(t)], labels


def screens(page, name: str) -> int:
    """Screenshots of the whole page, one screen at a time (Playwright's full_page does not
    see inside Streamlit's scrolling main area); returns how many."""
    SCREENSHOTS.mkdir(exist_ok=True)  # tests/browser/screenshots/
    height, step = page.evaluate(f"() => [{MAIN}.scrollHeight, {MAIN}.clientHeight]")
    tops = range(0, max(1, height - step // 4), step * 9 // 10)
    for i, top in enumerate(tops):
        page.evaluate(f"t => {MAIN}.scrollTo(0, t)", top)
        page.screenshot(path=SCREENSHOTS / f"{name}-{i:02d}.png")
    page.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
    return len(tops)


def scrolls_past(page, chart, device: str) -> None:
    """The mouse wheel (laptop) or a swipe (phone) over ``chart`` scrolls the page, and the
    chart neither zooms nor pans."""
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = chart.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    top, ranges = page.evaluate(f"() => {MAIN}.scrollTop"), chart.evaluate(RANGES)
    if device == "laptop":
        page.mouse.move(x, y)
        page.mouse.wheel(0, 300)
    else:  # a finger's swipe up, through the chart's middle
        cdp = page.context.new_cdp_session(page)
        points = [{"x": x, "y": y + 100 - 25 * k} for k in range(11)]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points[:1]})
        for p in points[1:]:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [p]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(f"t => {MAIN}.scrollTop > t + 50", arg=top)
    assert chart.evaluate(RANGES) == ranges


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(app_url, browser, device):
    """On a phone nothing is wider than the screen; the wheel (laptop) or a swipe (phone)
    over the E_p landscape scrolls the page; every number reads plainly; screenshots to look at."""
    context, page = open_on(browser, device, app_url + "/sgd", 13)
    try:
        assert_fits_and_reads_plainly(page)
        scrolls_past(page, page.locator(".st-key-sgd_landscape .js-plotly-plot"), device)
        screens(page, "sgd-" + device)
    finally:
        context.close()
