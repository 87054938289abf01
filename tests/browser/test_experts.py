"""The experts page in a real browser: M under n·k, both charts, the adversary's switch."""

import re

import pytest
from playwright.sync_api import expect

from browser.devices import (
    DEVICES,
    assert_fits_and_reads_plainly,
    open_on,
    screens,
    scrolls_past,
)
from perceptron_core import simulate_experts

pytestmark = pytest.mark.browser


def metric(page, label: str):
    return page.get_by_test_id("stMetric").filter(has_text=label).get_by_test_id("stMetricValue")


def test_experts_page_shows_mistakes_under_the_bound_and_the_adversary(app_url, page, screenshot):
    page.goto(app_url + "/experts")
    expect(page.get_by_role("heading", name="Application: following experts")).to_be_visible(
        timeout=30_000
    )
    expect(page.get_by_text("Page not found")).to_have_count(0)
    random = simulate_experts(n=25, k=5, days=500, behaviour="random", seed=0)
    expect(metric(page, "mistakes M")).to_have_text(str(random.n_mistakes), timeout=30_000)
    expect(metric(page, "bound n·k")).to_have_text("125")
    # the mistakes; the weights day by day and the final weights, one chart each
    expect(page.locator(".js-plotly-plot")).to_have_count(3, timeout=30_000)
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
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(app_url, browser, device):
    """On a phone nothing is wider than the screen; the wheel (laptop) or a swipe (phone)
    over the mistakes scrolls the page; every number reads plainly; screenshots to look at."""
    context, page = open_on(browser, device, app_url + "/experts", 3)
    try:
        assert_fits_and_reads_plainly(page)
        scrolls_past(page, page.locator(".st-key-exp_mistakes .js-plotly-plot"), device)
        screens(page, "experts-" + device)
    finally:
        context.close()
