"""The proof page in a real browser: the cards with their numbers, the charts, a broken proof;
on a 390 px phone every formula fits its column and nothing is wider than the screen; the
wheel scrolls the page over the charts."""

import pytest
from playwright.sync_api import expect

from perceptron_core import make_dataset, max_margin, train
from tests.browser.test_xor import (
    FORMULAS_CUT,
    LAPTOP,
    PHONE,
    SIDEWAYS,
    TOP,
    WIDER_THAN_SCREEN,
    shots,
    swipe_up,
)

pytestmark = pytest.mark.browser


def test_proof_page_shows_every_step_with_numbers_and_breaks_with_a_far_start(
    app_url, page, screenshot
):
    X, y = make_dataset("separable", n=40, seed=0)  # the sidebar's default
    mm = max_margin(X, y)
    M = train(X, y, max_epochs=50).n_mistakes
    page.goto(app_url + "/proof")
    expect(page.get_by_role("heading", name="The proof, line by line")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text("Page not found")).to_have_count(0)
    for title in ("1. Claim 1", "2. Claim 2", "3. Cauchy–Schwarz", "4. Conclusion"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.get_by_text(f"this run: M = {M} mistakes")).to_be_visible()
    expect(page.get_by_text(f"Lemma 1 (w·w* ≥ kγ) holds at all {M} mistakes")).to_be_visible()
    expect(page.get_by_text(" fails at ")).to_have_count(0)
    expect(page.locator(".katex-display").first).to_be_visible()  # the LaTeX is typeset
    assert page.locator(".katex-display").count() >= 10
    expect(page.locator(".js-plotly-plot")).to_have_count(2, timeout=30_000)  # slack, orders
    page.get_by_text("Why is 2y wᵀx < 0? (seed 002)").click()
    expect(page.get_by_text("Negative since we made a mistake on x")).to_be_visible()
    page.get_by_text(f"Every mistake ({M})").first.click()
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.set_viewport_size({"width": 1400, "height": 5200})  # the whole page in the picture
    page.wait_for_timeout(1500)
    screenshot("proof")
    page.set_viewport_size({"width": 1400, "height": 900})

    # start far on the wrong side of w*: the base case is gone and (R/γ)² is beaten
    w0 = ",".join(f"{v:.6g}" for v in -300 * mm.w_star)
    page.goto(app_url + f"/proof?lec_w0=typed&lec_w0_typed={w0}")
    expect(page.get_by_text("The base case is gone")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("k ≤ (R/γ)² fails").first).to_be_visible()
    expect(page.get_by_text("The bound redone from w₀ holds")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.set_viewport_size({"width": 1400, "height": 3000})
    page.wait_for_timeout(1000)
    screenshot("proof-far-start")


def open_proof(page, url: str) -> None:
    page.goto(url)
    expect(page.get_by_role("heading", name="The proof, line by line")).to_be_visible(
        timeout=30_000
    )
    expect(page.locator(".js-plotly-plot")).to_have_count(2, timeout=30_000)
    expect(page.locator(".katex-display").first).to_be_visible()
    page.wait_for_timeout(1000)  # KaTeX and Plotly have laid out


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("", "proof"),  # the sidebar's default: 40 separable points
        # a far start: numbers in the thousands, the base case gone, the proof redone from w0
        ("?data_name=four_points&lec_w0=typed&lec_w0_typed=-123.4,567.8,-910.1", "far-w0"),
        ("?lec_eta=0.37&data_n=200", "eta"),  # η in every formula: the longest lines
    ],
)
def test_on_a_phone_every_formula_fits_and_nothing_is_wider_than_the_screen(
    app_url, browser, query, name
):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        open_proof(page, app_url + "/proof" + query)
        for label in page.get_by_text("Why is").all():  # the formulas inside the expanders
            label.tap()
        page.wait_for_timeout(500)
        assert page.evaluate(FORMULAS_CUT) == []  # was: "≤ ‖w₂", "= 3" cut off
        assert page.evaluate(WIDER_THAN_SCREEN) == []
        assert page.evaluate(SIDEWAYS) == [0, 0]  # the page does not scroll sideways
        expect(page.get_by_test_id("stException")).to_have_count(0)
        if not query:
            cdp = context.new_cdp_session(page)
            for key in ("prf_slack", "prf_orders_fig"):  # a swipe on a chart scrolls the page
                chart = page.locator(f".st-key-{key} .js-plotly-plot")
                chart.evaluate("e => e.scrollIntoView({block: 'center'})")
                page.wait_for_timeout(400)
                box = chart.bounding_box()
                assert box is not None
                before = page.evaluate(TOP)
                swipe_up(cdp, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6)
                page.wait_for_function(f"{TOP} > {before + 100}", timeout=5_000)
            shots(page, "proof-phone-390x844")
    finally:
        context.close()


def test_on_a_laptop_the_formulas_fit_and_the_wheel_scrolls_past_the_charts(app_url, browser):
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    try:
        open_proof(page, app_url + "/proof")
        assert page.evaluate(FORMULAS_CUT) == []
        assert page.evaluate(SIDEWAYS)[1] <= 0
        for key in ("prf_slack", "prf_orders_fig"):
            chart = page.locator(f".st-key-{key} .js-plotly-plot")
            chart.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(300)
            box = chart.bounding_box()
            assert box is not None
            before = page.evaluate(TOP)
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, 300)
            page.wait_for_function(f"{TOP} > {before}", timeout=5_000)
        shots(page, "proof-laptop-1366x768")
    finally:
        context.close()
