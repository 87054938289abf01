"""Text a user controls never becomes HTML: URL parameters, upload names and CSV cells.

The typed e-mail of the spam page has its own test (``test_spam.py``). Here every other
way in gets an ``<img onerror>`` or ``<script>`` string; the page must show it as text,
create no element from it and run none of it (no dialog opens).
"""

from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import uploader

pytestmark = pytest.mark.browser

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"


def injected(page: Page) -> int:
    """Elements the hostile strings would have made, had they been rendered as HTML."""
    return page.evaluate(
        """() => document.querySelectorAll('img[src="x"]').length
              + [...document.scripts].filter(s => s.text.includes('alert(')).length"""
    )


def test_hostile_text_shows_as_text_and_never_runs(app_url, page, tmp_path):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    # a hostile parameter name and a hostile value of a real parameter
    page.goto(f"{app_url}/lecture?{quote(IMG)}=1&data_name={quote(SCRIPT)}")
    notices = page.get_by_test_id("stAlertContentWarning")
    expect(notices.filter(has_text=IMG)).to_have_count(1, timeout=30_000)
    expect(notices.filter(has_text=SCRIPT)).to_have_count(1)
    expect(
        page.get_by_test_id("stMarkdownContainer").filter(has_text="Separable").first
    ).to_be_visible()
    # a hostile file name, and a hostile cell the error message quotes
    path = tmp_path / f"{IMG}.csv"
    path.write_text(f"x1,x2,y\n1,{SCRIPT},1\n", encoding="utf-8")
    uploader(page).set_input_files(str(path))
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text(f"{IMG}.csv", timeout=15_000)
    expect(error).to_contain_text("'<script>alert(2)</sc…' is not a number")  # shortened
    page.wait_for_timeout(500)  # time for an onerror to fire, had an <img> been made
    assert injected(page) == 0
    assert dialogs == []
    expect(page.get_by_test_id("stException")).to_have_count(0)
