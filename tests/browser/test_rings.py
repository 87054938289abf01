"""The ring of the example just shown tells "correct" from "mistake" without colour: on a
washed-out projector, in greyscale, and for the common colour-vision deficiencies.

Step 1 of the four points (Cornell CS6780's, from w = 0) is a mistake, step 2 is correct.
The two rings differ by shape (solid, dashed) and by lightness (3:1 at least between their
strokes, the contrast WCAG asks of graphics), neither is drawn in the −1 examples' colour,
and the legend shows each ring as the chart draws it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

QUERY = "?data_name=four_points&lec_bias=0&lec_rule=nonpositive"


def luminance(css: str) -> float:
    """WCAG's relative luminance of an ``rgb(r, g, b)`` colour: what a greyscale copy keeps,
    and (nearly) what deuteranopia and protanopia keep, since they confuse hues, not light."""
    r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ring(page: Page, where: str) -> dict[str, str]:
    return page.locator(where).first.evaluate(
        "el => { const s = getComputedStyle(el); return {stroke: s.stroke, dash: "
        "s.strokeDasharray, width: s.strokeWidth}; }"
    )


def test_the_correct_and_the_mistake_rings_differ_by_shape_and_by_lightness(app_url, page):
    page.goto(f"{app_url}/lecture{QUERY}&lec_t=1")
    expect(page.locator(".lec .fig circle.shown.mistake")).to_have_count(1, timeout=30_000)
    mistake = ring(page, ".lec .fig circle.shown.mistake")
    minus = page.locator(".lec .fig .points .minus").first.evaluate(
        "el => getComputedStyle(el).stroke"
    )
    page.get_by_role("button", name=re.compile("^Step")).click()
    expect(page.locator(".lec .fig circle.shown.right")).to_have_count(1, timeout=15_000)
    right = ring(page, ".lec .fig circle.shown.right")

    assert mistake["dash"] not in ("none", "") and right["dash"] in ("none", ""), (mistake, right)
    assert contrast(mistake["stroke"], right["stroke"]) >= 3.0, (mistake, right)
    assert mistake["stroke"] != minus and right["stroke"] != minus  # not a −1 example's colour
    # the legend's swatches are the chart's rings
    for cls, drawn in (("shownm", mistake), ("shownr", right)):
        swatch = ring(page, f".lec .legend .{cls} svg.sw circle")
        assert (swatch["stroke"], swatch["dash"]) == (drawn["stroke"], drawn["dash"]), cls
    legend = page.locator(".lec .legend")
    expect(legend.locator(".shownm")).to_have_text("example just shown: mistake")
    expect(legend.locator(".shownr")).to_have_text("example just shown: correct")
