"""Nothing a student makes is lost, in a real browser: drag a point, then reload,
open the link in a new tab or another browser, or reload after the server restarted: the
same points, on every page. The server here has a store of its own (SQLite) that outlives
it; the server is killed and started again on the same port.
"""

import os
import re
import subprocess

import pytest
from playwright.sync_api import Page, expect

from browser.test_margin import centre, drag, edit, metric, said, settle
from tools import streamlit_server

pytestmark = pytest.mark.browser


@pytest.fixture
def server(tmp_path, monkeypatch):
    """A server whose store is a file of this test: (start again, URL)."""
    monkeypatch.setenv("PERCEPTRON_STORE", f"sqlite:///{tmp_path / 'class.sqlite3'}")
    port = streamlit_server.free_port()
    procs: list[subprocess.Popen[bytes]] = []

    def restart() -> str:
        if procs:
            procs[-1].kill()  # a crash, not a clean stop
            procs[-1].wait(timeout=10)
        proc, url = streamlit_server.start(port=port)
        procs.append(proc)
        return url

    url = restart()
    yield restart, url
    for p in procs:
        streamlit_server.stop(p)


def drag_a_point(page: Page) -> tuple[str, str]:
    """Drag point 1 a little; returns (its tip after the drag, γ on show)."""
    x, y = centre(page.locator('.pt[data-i="0"] .mark'))
    edit(page, lambda: drag(page, (x, y), (x + 32, y - 24)))
    expect(said(page)).to_contain_text("Moved point 1 to")
    expect(page).to_have_url(re.compile(r"[?&]data=[a-z2-7]{12}\b"), timeout=10_000)
    return page.locator('.pt[data-i="0"] title').text_content(), metric(page, "margin γ")


def open_margin(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator(".pt").first).to_be_visible(timeout=30_000)
    settle(page)


def test_a_reload_a_new_tab_and_another_browser_show_the_drawn_points(server, browser):
    _, url = server
    a = browser.new_context(viewport={"width": 1366, "height": 768})
    b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = a.new_page()
        open_margin(page, f"{url}/margin")
        tip, gamma = drag_a_point(page)
        link = page.url
        page.reload()  # the same tab
        open_margin(page, link)
        expect(page.locator('.pt[data-i="0"] title')).to_have_text(tip)
        assert metric(page, "margin γ") == gamma
        tab = a.new_page()  # a new tab of the same browser
        open_margin(tab, link)
        expect(tab.locator('.pt[data-i="0"] title')).to_have_text(tip)
        friend = b.new_page()  # another browser (a phone), the link sent by a friend
        friend.goto(link.replace("/margin", "/lecture"))  # on another page too
        expect(friend.get_by_test_id("stSidebar")).to_contain_text(  # closed on a phone
            "Using your data: data from a link (40 points)", timeout=30_000
        )
        open_margin(friend, link)
        expect(friend.locator('.pt[data-i="0"] title')).to_have_text(tip)
        expect(friend.get_by_test_id("stException")).to_have_count(0)
    finally:
        a.close()
        b.close()


def test_after_the_server_restarts_a_reload_shows_the_same_points(server, browser):
    restart, url = server
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        open_margin(page, f"{url}/margin")
        tip, _ = drag_a_point(page)
        link = page.url
        assert restart() == url  # killed and started again: every session is gone
        page.reload()
        open_margin(page, link)
        expect(page.locator('.pt[data-i="0"] title')).to_have_text(tip)
        expect(page.get_by_test_id("stSidebar")).to_contain_text("data from a link (40 points)")
    finally:
        context.close()


def test_a_forged_link_says_so_and_shows_the_default_dataset(server, page):
    _, url = server
    page.goto(f"{url}/margin?data=zzzzzzzzzzzz")
    expect(page.get_by_text("No data are stored under the link's id zzzzzzzzzzzz")).to_be_visible(
        timeout=30_000
    )
    expect(page.locator(".pt")).to_have_count(40)  # the default dataset
    expect(page.get_by_test_id("stException")).to_have_count(0)
    assert os.environ["PERCEPTRON_STORE"].endswith("class.sqlite3")
