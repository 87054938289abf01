"""The experts page in a real browser: M under n·k, both charts, the adversary's switch."""

import re

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES
from perceptron_core import simulate_experts
from tests.browser.conftest import CHARTS_MS, fits_and_scrolls_past, metric, open_page

pytestmark = pytest.mark.browser


def test_experts_page_shows_mistakes_under_the_bound_and_the_adversary(app_url, page, screenshot):
    open_page(page, app_url + "/experts", "Application: following experts")
    random = simulate_experts(n=25, k=5, days=500, behaviour="random", seed=0)
    expect(metric(page, "mistakes M")).to_have_text(str(random.n_mistakes), timeout=30_000)
    expect(metric(page, "bound n·k")).to_have_text("125")
    # the mistakes; the weights day by day and the final weights, one chart each
    expect(page.locator(".js-plotly-plot")).to_have_count(3, timeout=CHARTS_MS)
    expect(metric(page, "γ = 1/√k")).to_have_text("0.4472")
    derivation = page.get_by_test_id("stMarkdownContainer").filter(has_text="since k = 5 is odd")
    expect(derivation.locator("ol > li")).to_have_count(4)  # the derivation, line by line
    expect(derivation.locator(".katex")).not_to_have_count(0)

    page.locator(".js-plotly-plot").nth(1).scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshot("experts-weights-random")

    page.get_by_text("are adversarial", exact=True).click()
    adversarial = simulate_experts(n=25, k=5, days=500, behaviour="adversarial", seed=0)
    expect(metric(page, "mistakes M")).to_have_text(str(adversarial.n_mistakes), timeout=20_000)
    expect(page).to_have_url(re.compile(r"exp_behaviour=adversarial"))
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.wait_for_timeout(500)  # let the charts finish drawing
    screenshot("experts")
    for i, name in enumerate(("experts-mistakes", "experts-weights")):
        page.locator(".js-plotly-plot").nth(i).scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        screenshot(name)


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(on_device, device):
    """The wheel or a finger over the mistakes scrolls the page."""
    page = on_device(device, "/experts", 3)
    fits_and_scrolls_past(page, device, "experts", ".st-key-exp_mistakes .js-plotly-plot")
