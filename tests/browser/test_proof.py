"""The proof page in a real browser: the cards with their numbers, the charts, a broken proof;
on a 390 px phone every formula fits its column and nothing is wider than the screen; the
wheel scrolls the page over the charts."""

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES, assert_fits_and_reads_plainly, formulas_fit
from perceptron_core import make_dataset, max_margin, train
from tests.browser.conftest import CHARTS_MS, fits_and_scrolls_past, open_page, run_ended

pytestmark = pytest.mark.browser


def test_proof_page_shows_every_step_with_numbers_and_breaks_with_a_far_start(
    app_url, page, screenshot
):
    X, y = make_dataset("separable", n=40, seed=0)  # the sidebar's default
    mm = max_margin(X, y)
    trace = train(X, y, max_epochs=50)
    M = trace.n_mistakes
    t, i = (int(v) + 1 for v in trace.mistake_steps[-1])  # counted from 1, as the log counts
    open_page(page, app_url + "/proof", "The proof, line by line")
    expect(page.get_by_text(f"at step t = {t}, on point i = {i}: x")).to_be_visible()
    for title in ("1. Claim 1", "2. Claim 2", "3. Cauchy–Schwarz", "4. Conclusion"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.get_by_text(f"this run: M = {M} mistakes")).to_be_visible()
    expect(page.get_by_text(f"Lemma 1 (w·w* ≥ kγ) holds at all {M} mistakes")).to_be_visible()
    expect(page.get_by_text(" fails at ")).to_have_count(0)
    expect(page.locator(".katex-display").first).to_be_visible()  # the LaTeX is typeset
    assert page.locator(".katex-display").count() >= 10
    expect(page.locator(".js-plotly-plot")).to_have_count(2, timeout=CHARTS_MS)  # slack, orders
    page.get_by_text("Why is 2y wᵀx < 0? (EURECOM MALIS)").click()
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


@pytest.mark.parametrize(
    "query",
    [
        "",  # the sidebar's default: 40 separable points
        # a far start: numbers in the thousands, the base case gone, the proof redone from w0
        "?data_name=four_points&lec_w0=typed&lec_w0_typed=-123.4,567.8,-910.1",
        "?lec_eta=0.37&data_n=200",  # η in every formula: the longest lines
    ],
)
def test_on_a_phone_every_formula_fits_its_column_and_nothing_is_wider_than_the_screen(
    on_device, query
):
    page = on_device("phone", "/proof" + query, 2)
    # open every "Why is ...?" expander: the formulas inside them must fit too (only the
    # expanders' own labels; a closed expander's text also says "why is")
    labels = page.locator('[data-testid="stExpander"] summary').filter(has_text="Why is")
    expect(labels.first).to_be_visible(timeout=30_000)
    for label in labels.all():
        label.tap()
    expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=30_000)
    run_ended(page)
    formulas_fit(page)  # none cut off, as "≤ ‖w₂" or "= 3" would be
    assert_fits_and_reads_plainly(page)


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(on_device, device):
    page = on_device(device, "/proof", 2)
    formulas_fit(page)
    charts = [f".st-key-{key} .js-plotly-plot" for key in ("prf_slack", "prf_orders_fig")]
    fits_and_scrolls_past(page, device, "proof", *charts)
