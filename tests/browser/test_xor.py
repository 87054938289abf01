"""The Beyond linear page in a real browser: XOR's charts, the witness and the lifted space."""

import pytest
from playwright.sync_api import expect

from perceptron_core import train
from ui.xor.figures import XOR_X, XOR_Y

pytestmark = pytest.mark.browser


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
    # the data, witness, boundary and remedies charts, and the 3-D lifted view
    expect(page.locator(".js-plotly-plot")).to_have_count(5, timeout=30_000)
    expect(
        page.locator(".js-plotly-plot .gl-container, .js-plotly-plot canvas").first
    ).to_be_attached()
    page.get_by_text("identity", exact=True).click()
    expect(page.get_by_text("the perceptron does not converge")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("xor")
