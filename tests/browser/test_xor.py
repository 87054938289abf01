"""The Beyond linear page in a real browser: XOR's charts, the witness and the lifted space."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_xor_page_shows_non_convergence_the_witness_and_the_fix(app_url, page, screenshot):
    page.goto(app_url + "/xor")
    expect(page.get_by_role("heading", name="Beyond linear: XOR")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Page not found")).to_have_count(0)
    expect(
        page.get_by_text("120 mistakes in 30 epochs and still 4 in the last one")
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
