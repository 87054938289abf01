"""The proof page printed: Chromium's A4 PDF of /proof (seed 001's four points, and the
sidebar's default 40 points), and the page under print media at the width of A4
(ui.proof.paper).

What a reader of the handout checks, in the PDF's own text (read back by
``browser.pdftext``) and under print media: the whole page is there (more than one page,
but a handful, not dozens), with the run's R, γ, (R/γ)² and M; no sidebar,
header, button, slider or choice box; the charts fit the paper's width, and are drawn as
before on the screen once printed. The page breaks (no heading at the foot of a page, no
card, formula or chart cut) are for a person to look at: the PDF is saved in
tests/browser/screenshots/proof-print-<run>.pdf, and the page under print media at the
paper's width beside it, proof-print-<run>.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser import pdftext
from browser.devices import SCREENSHOTS
from perceptron_core import make_dataset, max_margin, train
from tests.browser.conftest import CHARTS_MS, open_page, run_ended
from ui.proof.figures import num

pytestmark = pytest.mark.browser

RUNS = {  # the page's data: bias on, w0 = 0, at most 50 epochs (the lecture's defaults)
    "four-points": ("?data_name=four_points", make_dataset("four_points", n=4, seed=0)),
    "default": ("", make_dataset("separable", n=40, seed=0)),  # the sidebar's 40 points
}
MAX_PAGES = 8  # the page prints on a handful of A4 pages
# the labels of what is not on paper: the button, sliders, a link, closed boxes, the glossary
LEFT_OUT = (
    "Print this proof",
    "numbers at mistake k",
    "γ of the three points",
    "change them on Step by step",
    "Why is 2y wᵀx < 0?",
    "Every mistake (",
    "Symbols and notation",
)
A4_PX = (794, 1123)  # 210 × 297 mm at 96 px per inch
PRINT_W = A4_PX[0] - 2 * 45  # between paper.py's @page margins of 12 mm

# What is on paper: every element the print rules leave visible, with its box
SEEN = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (el.closest('.katex-mathml')) continue;  // KaTeX's MathML for screen readers: clipped
    if (el.tagName.toLowerCase() !== 'svg' && el.closest('svg')) continue;  // a drawing's parts
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none') continue;
    out.push({tag: el.tagName, text: (el.innerText || el.textContent || '').trim().slice(0, 80),
              role: el.getAttribute('role') || '', x: r.left, w: r.width, y: r.top, h: r.height,
              test: el.getAttribute('data-testid') || ''});
  }
  return out;
}"""


def drawn(page: Page) -> None:
    """The page's run done and both charts drawn."""
    expect(page.locator(".js-plotly-plot")).to_have_count(2, timeout=CHARTS_MS)
    expect(page.locator(".js-plotly-plot:not(:has(.main-svg))")).to_have_count(0)
    run_ended(page)
    page.evaluate("() => document.fonts.ready.then(() => true)")


@pytest.mark.parametrize("run", RUNS)
def test_the_proof_prints_as_a_clean_handout_with_the_runs_numbers(app_url, browser, run):
    query, (X, Y) = RUNS[run]
    mm, M = max_margin(X, Y), train(X, Y, max_epochs=50).n_mistakes
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    open_page(page, app_url + "/proof" + query, "The proof, line by line")
    drawn(page)
    expect(page.get_by_role("button", name="Print this proof")).to_be_visible()

    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"proof-print-{run}.pdf"
    path.write_bytes(pdf)
    print(f"{run}: {pages} A4 pages, {len(pdf):,} bytes")
    # the whole page (not one screen of Streamlit's scrolling column), on a handful of pages
    assert 2 <= pages <= MAX_PAGES, f"{pages} pages ({len(pdf):,} bytes)"
    # what the PDF says (its text, read back): the run's numbers, and nothing to click
    said = pdftext.text(pdf)
    flat = re.sub(r"\s", "", said)  # the PDF places words, not the spaces between them
    assert "The proof, line by line" in said, said[:300]
    for value in (num(mm.radius), num(mm.gamma), num(mm.bound)):  # R, γ, (R/γ)²
        assert value in flat, value
    assert f"γ={num(mm.gamma)}" in flat and f"M={M}≤" in flat, flat[:400]
    assert f"thisrun:M={M}mistakes" in flat
    for title in ("1. Claim 1", "2. Claim 2", "3. Cauchy–Schwarz", "4. Conclusion"):
        assert title.replace(" ", "") in flat, title
    for label in LEFT_OUT:
        assert label.replace(" ", "") not in flat, label
    # after printing, the charts on the screen are drawn as before (no view box left)
    expect(page.locator(".js-plotly-plot svg.main-svg[viewBox]")).to_have_count(0)

    # the same page under print media at the paper's width: what the PDF shows
    page.set_viewport_size({"width": PRINT_W, "height": A4_PX[1]})
    page.emulate_media(media="print")
    # the charts' SVGs scale to the paper (each has its own size as view box while printing)
    scaled = page.locator(".js-plotly-plot svg.main-svg[viewBox]")
    expect(scaled.first).to_be_attached()
    page.wait_for_timeout(500)
    seen = page.evaluate(SEEN)
    texts = " ".join(e["text"] for e in seen)
    # the theorem's lines as KaTeX draws them: R = max‖xᵢ‖ = ..., γ = ..., M = .. ≤ (R/γ)² = ..
    maths = "".join(page.locator(".katex-html").all_inner_texts())
    maths = re.sub(r"[\s\u200b]", "", maths)
    for value in (num(mm.radius), num(mm.gamma), num(mm.bound)):
        assert f"={value}" in maths, (value, maths[:300])
    assert f"M={M}≤" in maths, maths[:300]
    assert f"this run: M = {M} mistakes" in texts
    for title in ("1. Claim 1", "2. Claim 2", "3. Cauchy–Schwarz", "4. Conclusion"):
        assert title in texts, title
    # nothing to click, drag or choose on paper
    assert not [e for e in seen if e["tag"] in ("BUTTON", "INPUT", "SELECT")], [
        e for e in seen if e["tag"] in ("BUTTON", "INPUT", "SELECT")
    ][:3]
    assert not [e for e in seen if e["role"] in ("slider", "combobox", "button")]
    for label in LEFT_OUT:
        assert label not in texts, label
    for testid in ("stSidebar", "stHeader", "stExpander", "stSlider", "stSelectbox"):
        assert not [e for e in seen if e["test"] == testid], testid
    # the charts at the paper's width, whole
    for chart in page.locator(".js-plotly-plot").all():
        box = chart.bounding_box()
        svg = chart.locator("svg.main-svg").first.bounding_box()
        assert box is not None and svg is not None
        assert svg["x"] >= -1 and svg["x"] + svg["width"] <= PRINT_W + 1, (svg, PRINT_W)
        assert svg["width"] > 0.8 * PRINT_W, (svg, PRINT_W)  # the page's width, not a stamp
        assert svg["height"] > 150, svg
    # no sideways overflow anywhere: what is wider than the paper would be cut
    wide = [e for e in seen if e["x"] + e["w"] > PRINT_W + 2 and e["tag"] not in ("HTML", "BODY")]
    assert not wide, wide[:3]

    # the handout in one picture, to look at (the PDF itself is saved beside it)
    page.screenshot(path=str(SCREENSHOTS / f"proof-print-{run}.png"), full_page=True)
    context.close()
