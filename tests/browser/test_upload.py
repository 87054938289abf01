"""Uploading CSVs in a real browser: bad files get a message and the dataset is kept."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def upload(page: Page, tmp_path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))


def status(page: Page):
    return page.locator(".lec .status")  # the lecture player's status line


def test_bad_and_degenerate_uploads_explain_themselves_and_lose_nothing(app_url, page, tmp_path):
    page.goto(app_url + "/lecture")
    expect(status(page)).to_contain_text("Separable", timeout=30_000)
    # malformed: a label that is not ±1; the name tries to be a link and HTML
    upload(page, tmp_path, "[x](javascript:alert(1))<b>.csv", "x1,x2,y\n1,2,3\n")
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text(".csv")
    # shown as typed (the invisible word joiner after ":" keeps it from being a link)
    assert "[x](javascript:alert(1))<b>.csv" in error.inner_text().replace("\u2060", "")
    expect(error.locator("a")).to_have_count(0)
    expect(status(page)).to_contain_text("Separable")  # the dataset is kept
    # valid but degenerate: one point twice with opposite labels
    upload(page, tmp_path, "twins.csv", "x1,x2,y\n1,1,1\n1,1,-1\n-2,0,-1\n")
    expect(status(page)).to_contain_text("twins.csv", timeout=15_000)
    expect(status(page)).to_contain_text("not separable")
    expect(page.get_by_test_id("stAlertContentWarning").first).to_contain_text("same place")
    expect(page.get_by_test_id("stException")).to_have_count(0)
