"""No flash of internals on the first load after the server started.

A ``pages/`` folder beside ``app.py`` makes Streamlit start each server in its old
multipage mode: the first session's first run lists every file of ``pages/`` in the
sidebar ("app, experts, home, ...") before ``st.navigation`` sends the titles. So these
tests start a server of their own (the session's ``app_url`` has long had its first
load), record every text the sidebar's navigation and the tab's title ever showed,
from the first DOM content on, and allow only the app's titles.
"""

from __future__ import annotations

from itertools import pairwise

import pytest
from playwright.sync_api import expect

from tools import streamlit_server
from ui.shell import PAGES

pytestmark = pytest.mark.browser

TITLES = {p.title for p in PAGES}
MOMENT_MS = 100  # shorter than anyone can read
MODULES = {"app"} | {p.path.removeprefix("pages/").removesuffix(".py") for p in PAGES}

# Runs before any of the page's scripts: a MutationObserver on the whole document and a
# check every animation frame, each writing down the navigation's link texts and the
# document's title (with the time, in ms) whenever they change.
RECORDER = """
(() => {
  const seen = { links: [], titles: [] };
  window.__navSeen = seen;
  let lastLinks = null, lastTitle = null;
  const look = () => {
    const nav = document.querySelector('[data-testid="stSidebarNav"]');
    if (nav) {
      const links = Array.from(nav.querySelectorAll('a')).map((a) => {
        const label = a.cloneNode(true);  // the link's words, without its icon's ligature
        label.querySelectorAll('[data-testid="stIconMaterial"]').forEach((i) => i.remove());
        return label.textContent.trim();
      }).filter((t) => t);
      const key = JSON.stringify(links);
      if (key !== lastLinks) { lastLinks = key; seen.links.push(links); }
    }
    if (document.title !== lastTitle) {
      lastTitle = document.title;
      seen.titles.push([lastTitle, performance.now()]);
    }
  };
  new MutationObserver(look).observe(document, {
    subtree: true, childList: true, characterData: true, attributes: true,
  });
  const frame = () => { look(); requestAnimationFrame(frame); };
  frame();
})();
"""


@pytest.fixture
def fresh_url(tmp_path):
    """A server of this test's own: its first session is the first since it started."""
    with (
        open(tmp_path / "streamlit.log", "wb") as log,
        streamlit_server.serve("app.py", log=log) as (_, url),
    ):
        yield url


def first_load(browser, url: str) -> dict[str, list]:
    """Open ``url`` in a new laptop-sized context; what the navigation and tab showed."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.add_init_script(RECORDER)
        page.goto(url)
        nav = page.get_by_test_id("stSidebarNav")
        for p in PAGES:  # the navigation has arrived, with every title
            expect(nav).to_contain_text(p.title, timeout=60_000)
        expect(page.get_by_test_id("stMain").get_by_role("heading").first).to_be_visible(
            timeout=60_000
        )
        return page.evaluate("window.__navSeen")
    finally:
        context.close()


def assert_only_titles(seen: dict[str, list]) -> None:
    shown = [link for links in seen["links"] for link in links]
    assert shown, "the recorder saw no navigation at all"
    assert set(shown) <= TITLES, sorted(set(shown) - TITLES)
    assert seen["links"][0] == [p.title for p in PAGES]  # the first list drawn is the app's


def test_the_first_load_shows_titles_from_the_first_paint(browser, fresh_url):
    seen = first_load(browser, fresh_url)
    assert_only_titles(seen)
    # The tab: the HTML's own title, then ours. Streamlit's old mode names it after the
    # file ("app") in the same burst of messages as app.py's first line replaces it
    # (2 ms here, as app.py sets the title before its imports).
    titles = seen["titles"]
    assert titles[-1][0] == "Perceptron Lab", titles
    for (title, start), (_, end) in pairwise(titles):
        if title.lower() in MODULES:
            assert end - start < MOMENT_MS, titles


def test_a_first_visitor_to_a_page_sees_titles_from_the_first_paint(browser, fresh_url):
    """The old mode runs ``pages/lecture.py`` itself on a first visit to /lecture."""
    assert_only_titles(first_load(browser, fresh_url + "/lecture"))
