"""The variants page in a real browser: boundaries, error curves, digits, runs, the verdict."""

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES
from tests.browser.conftest import fits_and_scrolls_past, open_page

pytestmark = pytest.mark.browser


def test_variants_page_compares_the_three_perceptrons_and_says_which_to_deploy(
    app_url, page, screenshot
):
    open_page(page, app_url + "/variants", "Which perceptron to deploy?")
    # the plane, its error curves, the digits' curves, the two histograms, the last and the
    # averaged lines, the spread
    expect(page.locator(".js-plotly-plot")).to_have_count(8, timeout=60_000)
    expect(page.get_by_text("Deploy the", exact=False)).to_be_visible()
    expect(page.get_by_test_id("stDataFrame")).to_be_visible()  # the cost table
    expect(page.get_by_text("averaged keeps 1,", exact=False).first).to_be_visible()
    # another digit pair redraws the digits section with that pair's name
    page.get_by_text("1 vs 8", exact=True).click()
    title = page.locator(".gtitle").filter(has_text="1 vs 8")  # "1 vs 8", "error per epoch"
    expect(title).to_contain_text("error per epoch", timeout=30_000)
    expect(page.get_by_text("1 vs 8, mean over runs", exact=False)).to_have_count(0)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.set_viewport_size({"width": 1400, "height": 4800})  # the whole page in one picture
    page.wait_for_timeout(2500)  # let the charts redraw at the new size
    screenshot("variants")


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_scrolls_past_its_charts(on_device, device):
    """The wheel or a finger over the error curves scrolls the page."""
    page = on_device(device, "/variants", 8)
    fits_and_scrolls_past(page, device, "variants", ".st-key-var_curves .js-plotly-plot")
