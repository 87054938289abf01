"""A page of the app in a course page's ``<iframe>`` (800×600), as Moodle or Canvas shows it.

The frame shows the page alone: no sidebar and no button to open it, no Streamlit header;
the page takes the frame's width; the lecture's Step works inside it; the small link above
the page opens the same page, at the step on show, in a new tab of the full app (with its
sidebar, without ``embed=``). Streamlit's own ``embed=true`` gives the same page.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from browser.devices import SCREENSHOTS

pytestmark = pytest.mark.browser

FRAME_W, FRAME_H = 800, 600


@pytest.fixture
def course_page(browser):
    context = browser.new_context(viewport={"width": FRAME_W + 40, "height": FRAME_H + 100})
    yield context
    context.close()


@pytest.mark.parametrize("embed", ["1", "true"])
def test_the_lecture_in_a_course_pages_frame(app_url, course_site, course_page, embed):
    page = course_page.new_page()
    src = f"{app_url}/lecture?embed={embed}&data_name=four_points&lec_t=1"
    page.goto(course_site.frame(src, w=FRAME_W, h=FRAME_H))  # a site the lecturer listed
    frame = page.frame_locator("iframe")
    status = frame.locator(".lec .status")
    expect(status).to_contain_text("step t = 1 of", timeout=30_000)  # the link's step

    # the page alone: no sidebar, no way to open it, no header
    expect(frame.get_by_test_id("stSidebar")).to_be_hidden()
    expect(frame.get_by_test_id("stExpandSidebarButton")).to_be_hidden()
    expect(frame.get_by_test_id("stHeader")).to_be_hidden()
    expect(frame.get_by_text("Class mode")).to_be_hidden()
    column = frame.get_by_test_id("stMainBlockContainer").bounding_box()
    box = page.locator("iframe").bounding_box()
    assert column is not None and box is not None
    assert column["x"] - box["x"] < 2 and column["width"] > FRAME_W - 4, (column, box)
    wide = frame.locator("html").evaluate(
        "h => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the frame scrolls sideways by {wide} px"
    title = frame.locator("h1").first.bounding_box()
    assert title is not None and title["y"] - box["y"] < 80, title  # no header's room above

    # the page's widgets work: Step moves the player, and the server hears of it
    frame.locator('.lec button[data-act="step"]').click()
    expect(status).to_contain_text("step t = 2 of")
    inner = next(f for f in page.frames if f.url.startswith(app_url))
    expect_url = re.compile(r"[?&]lec_t=2\b")
    for _ in range(60):  # the frame's address follows once the server has heard of the step
        if expect_url.search(inner.url):
            break
        page.wait_for_timeout(250)
    assert expect_url.search(inner.url), inner.url
    # Copy link gives the lesson's link, not the frame's: no embed= in it
    inner.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    frame.locator('.lec button[data-act="copy"]').click()
    copied = frame.locator(".lec .note .linkbox")
    expect(copied).to_be_visible()
    assert "lec_t=2" in copied.input_value() and "embed" not in copied.input_value()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"embed-lecture-{embed}.png"))

    # the way out: the same page and step in the full app, in a new tab, without embed=
    link = frame.get_by_role("link", name="Open in Perceptron Lab")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("target", "_blank")
    with course_page.expect_page() as opened:
        link.click()
    full = opened.value
    expect(full.locator(".lec .status")).to_contain_text("step t = 2 of", timeout=30_000)
    assert "embed" not in full.url and "lec_t=2" in full.url and "four_points" in full.url
    expect(full.get_by_test_id("stSidebar")).to_be_visible()  # the full app, with its sidebar
    expect(full.get_by_role("link", name="Open in Perceptron Lab")).to_have_count(0)
    full.close()


def test_a_site_the_lecturer_did_not_list_cannot_frame_the_app(app_url, course_site, course_page):
    """The same course page from an origin the app does not list (client.allowedOrigins):
    the browser shows none of the app in its frame (frame-ancestors), and Streamlit takes
    host messages from the listed site alone."""
    src = f"{app_url}/xor?embed=true"
    listed = course_page.new_page()
    listed.goto(course_site.frame(src))
    expect(listed.frame_locator("iframe").get_by_test_id("stApp")).to_be_attached(timeout=30_000)
    other = course_page.new_page()
    said: list[str] = []
    other.on("console", lambda message: said.append(message.text))
    other.goto(course_site.frame(src, listed=False))
    expect(other.locator("h1")).to_have_text("Week 3: the perceptron")  # the course page is fine
    other.wait_for_timeout(3_000)  # time the listed page's frame needed to show the app, and more
    expect(other.frame_locator("iframe").get_by_test_id("stApp")).to_have_count(0)
    assert any("frame-ancestors" in text for text in said), said  # the browser says why
    config = listed.request.get(f"{app_url}/_stcore/host-config").json()
    assert config["allowedOrigins"] == [course_site.listed]
