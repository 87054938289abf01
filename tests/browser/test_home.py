"""The app loads in a real browser and shows the worked example, with no error."""

import re

import pytest
from playwright.sync_api import expect

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
