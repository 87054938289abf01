"""The app loads in a real browser and shows the worked example, with no error, and the
example opens on Step by step in one click."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from browser.devices import DEVICES
from tests.browser.conftest import fits_and_scrolls_past
from ui.home.examples import EXAMPLES, settings
from ui.shell import PAGES

pytestmark = pytest.mark.browser


def test_home_page_loads_and_shows_the_engine_result(app_url, page, screenshot):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Perceptron Lab")).to_be_visible(timeout=30_000)
    mistakes = page.get_by_test_id("stMetric").filter(has_text="mistakes M")
    expect(mistakes).to_contain_text("2")
    expect(page.get_by_test_id("stMetric").filter(has_text="final w")).to_contain_text("(2, 1)")
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot("home")
    page.get_by_role("link", name="Step by step: watch every update").click()
    expect(page.get_by_role("heading", name="The perceptron, step by step")).to_be_visible()
    page.go_back()
    page.get_by_role("link", name="Margin lab: drag points").click()
    expect(page).to_have_url(re.compile(r"/margin"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_the_worked_example_opens_on_step_by_step_in_one_click(app_url, page, screenshot, example):
    """Seed 001's example reached from home in at most 2 actions (open the app,
    click), on a projector's 1280×720."""
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(app_url)  # action 1
    expect(page.get_by_role("heading", name="Perceptron Lab")).to_be_visible(timeout=30_000)
    button = page.locator(f".st-key-{example.button_key}").get_by_role("button")
    expect(button).to_have_text(re.compile("Open it on Step by step"))
    expect(button).to_be_in_viewport(ratio=1)  # no scrolling first
    screenshot(f"home_{example.key}_1280x720")
    button.click()  # action 2
    expect(page.get_by_role("heading", name="The perceptron, step by step")).to_be_visible(
        timeout=30_000
    )
    expect(page).to_have_url(re.compile(rf"/lecture\?.*data_name={example.data_name}"))
    query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
    wanted = settings(example)
    assert query["data_name"] == example.data_name
    assert query.get("lec_bias", "1") == ("1" if wanted["lec_bias"] else "0")
    assert query.get("lec_t", "0") == "0"  # step 0: before the first example
    expect(page.get_by_test_id("stException")).to_have_count(0)
    screenshot(f"lecture_from_home_{example.key}")


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_fits_the_screen_and_reads_plainly(on_device, device):
    """On a phone the links to the pages wrap: each sentence whole, none cut off."""
    page = on_device(device, "", 0)
    links = page.get_by_test_id("stMain").get_by_test_id("stPageLink")
    expect(links).to_have_count(len(PAGES) - 1)  # every page but home
    page.wait_for_function(  # the page's own CSS (which wraps them) may come a frame late
        """() => [...document.querySelectorAll(
            '[data-testid=stMain] [data-testid=stPageLink] [data-testid=stMarkdownContainer]'
        )].every(e => e.scrollWidth <= e.clientWidth + 1)""",
        timeout=5_000,
    )
    for link in links.all():  # each sentence whole, on as many lines as it needs
        text = link.get_by_test_id("stMarkdownContainer")
        assert text.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), text.inner_text()
    fits_and_scrolls_past(page, device, "home")  # a page of text: no chart to scroll past
