"""Uploading CSVs in a real browser: bad files get a message where the student looks, and
the dataset is kept.

A refused upload is said at the top of the page (not at the foot of the sidebar, which a
phone shows over the page): in view without scrolling on a 390x844 phone and a 1366x768
laptop, naming the data still in use, with the refused file no longer in the uploader.
"""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import SCREENSHOTS, uploader
from ui.shell import GLOSSARY

pytestmark = pytest.mark.browser

BAD = "x1,x2,y\n1,2,1\n-1,-2,-1\n2,2,1\n-2,-1,-1\n1,abc,1\n"
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def upload(page: Page, tmp_path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    uploader(page).set_input_files(str(path))


def status(page: Page):
    return page.locator(".lec .status")  # the lecture player's status line


def test_bad_and_degenerate_uploads_explain_themselves_and_lose_nothing(app_url, page, tmp_path):
    page.goto(app_url + "/lecture")
    expect(status(page)).to_contain_text("Separable", timeout=30_000)
    # malformed: a label that is not ±1; the name tries to be a link and HTML
    upload(page, tmp_path, "[x](javascript:alert(1))<b>.csv", "x1,x2,y\n1,2,3\n")
    error = page.get_by_test_id("stMain").get_by_test_id("stAlertContentError")
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
    expect(error).to_have_count(0)  # the good upload ended the refusal's message
    expect(page.get_by_test_id("stException")).to_have_count(0)


def open_sidebar(page: Page) -> None:
    """Open the sidebar (a phone starts with it closed) and scroll it to the uploader,
    as a student does to upload."""
    expand = page.get_by_test_id("stExpandSidebarButton")
    if expand.is_visible():
        expand.click()
    label = page.get_by_test_id("stSidebar").get_by_text("Upload CSV")
    label.scroll_into_view_if_needed()  # down the sidebar to the uploader
    expect(label).to_be_in_viewport()


def in_view_and_uncovered(page: Page, locator) -> dict:
    """``locator``'s box, after asserting it lies inside the viewport as it is (no
    scrolling), below Streamlit's header (fixed over the page), and that nothing lies
    over it: the points just inside its top and bottom edges, and its centre, are its own."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None
    header = page.get_by_test_id("stHeader").bounding_box()  # fixed, even where see-through
    top = header["y"] + header["height"] if header else 0
    assert box["y"] >= top and box["y"] + box["height"] <= size["height"], (box, top, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (box, size)
    x = box["x"] + box["width"] / 2
    for y in (box["y"] + 2, box["y"] + box["height"] / 2, box["y"] + box["height"] - 2):
        mine = locator.evaluate("(e, p) => e.contains(document.elementFromPoint(...p))", [x, y])
        on_top = page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y);"
            " return e && (e.getAttribute('data-testid') || e.tagName); }",
            [x, y],
        )
        assert mine, f"{on_top} lies over the message at y = {y:.0f} ({box})"
    return box


@pytest.mark.parametrize("device", ["phone", "laptop"])
def test_a_refused_upload_is_said_in_view_at_the_top(browser, app_url, tmp_path, device):
    context = browser.new_context(**(PHONE if device == "phone" else LAPTOP))
    page = context.new_page()
    try:
        page.goto(app_url + "/lecture")
        expect(status(page)).to_contain_text("Separable", timeout=30_000)
        kept = status(page).locator(".name").inner_text()  # "Separable, chosen margin (n = …)"
        # the student had read down to the foot of the page before uploading
        page.get_by_test_id("stMain").get_by_text(GLOSSARY).scroll_into_view_if_needed()
        open_sidebar(page)
        sidebar = page.get_by_test_id("stSidebar")
        upload(page, tmp_path, "bad.csv", BAD)
        message = page.get_by_test_id("stAlertContentError")
        expect(message).to_contain_text("bad.csv was not used.", timeout=15_000)
        expect(message).to_have_count(1)
        expect(sidebar.get_by_test_id("stAlertContentError")).to_have_count(0)  # main only
        text = message.inner_text().replace("\u2060", "")
        assert "Row 6, column x2: 'abc' is not a number." in text
        assert f"The previous data is still in use: {kept}." in text
        expect(message).to_be_in_viewport()
        alert = page.get_by_test_id("stMain").get_by_test_id("stAlert")
        # on a phone the page closes the sidebar off the message a moment after it shows
        # (a frame or two, longer on a busy machine): wait for that, up to 10 s, then check
        alert.evaluate(
            """e => new Promise(done => { const t0 = performance.now(); const look = () => {
              const b = e.getBoundingClientRect();
              const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
              if (e.contains(hit) || performance.now() - t0 > 10000) done();
              else requestAnimationFrame(look); }; look(); })"""
        )
        in_view_and_uncovered(page, alert)
        # the refused file is not listed in the uploader as if it were in use
        expect(sidebar.get_by_test_id("stFileUploaderFile")).to_have_count(0)
        expect(sidebar).not_to_contain_text("bad.csv")
        expect(status(page)).to_contain_text(kept)  # the data in use is kept
        page.screenshot(path=str(SCREENSHOTS / f"upload-refused-{device}.png"))
        dismiss = page.get_by_role("button", name="Dismiss")
        if device == "phone":  # the sidebar closed over the focus: it moved to Dismiss
            expect(dismiss).to_be_focused()
        else:
            dismiss.focus()  # reached by keyboard like any button
        page.keyboard.press("Enter")
        expect(message).to_have_count(0)
        expect(status(page)).to_contain_text(kept)
        expect(page.get_by_test_id("stFileUploaderFile")).to_have_count(0)
        expect(page.get_by_test_id("stException")).to_have_count(0)
    finally:
        context.close()


def test_the_message_stays_on_its_page(app_url, page, tmp_path):
    page.goto(app_url + "/lecture")
    expect(status(page)).to_contain_text("Separable", timeout=30_000)
    upload(page, tmp_path, "bad.csv", BAD)
    message = page.get_by_test_id("stAlertContentError").filter(has_text="was not used")
    expect(message).to_contain_text("bad.csv was not used.", timeout=15_000)
    page.get_by_test_id("stSidebarNav").get_by_text("Beyond linear: XOR").click()
    expect(page.get_by_role("heading", name="Beyond linear: XOR").first).to_be_visible(
        timeout=30_000
    )
    expect(message).to_have_count(0)
    page.get_by_test_id("stSidebarNav").get_by_text("Step by step").click()
    expect(status(page)).to_contain_text("Separable", timeout=30_000)
    expect(message).to_have_count(0)  # gone for good, not back on its page
