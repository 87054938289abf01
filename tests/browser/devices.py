"""A student's own device: a 390×844 touch phone and a 1366×768 laptop.

What the page-fit browser tests share: the two devices, opening a page on one, whether
anything sticks out of the screen, screenshots a screen at a time, and whether the wheel or
a swipe over a chart scrolls the page.
"""

import contextlib
import re
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


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


# every display formula whose typeset line runs past its column (its first 80 characters)
FORMULAS_CUT = """() => [...document.querySelectorAll('.katex-display')].filter(d => {
    const column = d.closest('[data-testid=stVerticalBlock]').getBoundingClientRect();
    const html = d.querySelector('.katex-html');
    const left = html.getBoundingClientRect().left;
    return left < column.left - 1 || left + html.scrollWidth > column.right + 1;
  }).map(d => (d.querySelector('annotation') || d).textContent.slice(0, 80))"""


def formulas_fit(page, timeout: float = 15_000) -> None:
    """Every display formula fits its column, once the fonts KaTeX measures with are in."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    with contextlib.suppress(PlaywrightTimeout):  # the assertion below says which stick out
        page.wait_for_function(f"() => ({FORMULAS_CUT})().length === 0", timeout=timeout)
    assert page.evaluate(FORMULAS_CUT) == []
