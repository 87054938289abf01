"""The class page on a lecture hall's projector, in chromium: presenter mode with a class
running (students joined, a challenge with submissions), at 1280×720 and 1920×1080; and
the same page on a phone, a student's and the lecturer's.

What a lecturer checks from the back of the room: the Join view (the QR code, the address,
the code and the count) and the Board view (the chart and the best few) each fill one
screen with nothing cut off, no sidebar or header; the chart's ticks are large and no label
covers another label, a point or the legend; the lecturer's own controls are not on the
projector's screen but under it; the view switch works from the keyboard; nothing moves
when the system asks for reduced motion.

The lecturer starts the class in the browser; one student joins on a phone by the join
link. The class's other students, and the challenge's submissions, are written to the
store the server reads (as their own servers would): sets chosen so that three sit on one
spot of the chart and others near the line, the crowding that drew "#2#1" before.
"""

from __future__ import annotations

import itertools
import re
import time

import numpy as np
import pytest
from playwright.sync_api import Locator, Page, WebSocket, expect

import perceptron_store as store
from browser.classroom import join, key, main, no_exception, sidebar
from browser.devices import DEVICES, MAIN, SCREENSHOTS, assert_fits_and_reads_plainly
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.server.internals import CONNECTION_STATE

pytestmark = [pytest.mark.browser]

PROJECTORS = ((1280, 720), (1920, 1080))
NICKS = ("Ana", "Bo", "Chen", "<b>Dee</b>", "Eli", "Fay", "Gus")
# (M, (R/γ)²) of each classmate's set: #1-#3 within a point's width of each other
SETS = ((27, 28.5), (27, 28.4), (26, 28.0), (12, 100.0), (9, 30.1), (3, 4.2), (0, 2.0))
# what the board's visible drawing measures of itself, in CSS px of the page
BOARD = """svg => {
  const box = e => { const b = e.getBoundingClientRect();
                     return {x: b.x, y: b.y, w: b.width, h: b.height}; };
  const tick = svg.querySelector("text.tick");
  return {
    svg: box(svg),
    label: svg.getAttribute("aria-label"),
    tickPx: parseFloat(getComputedStyle(tick).fontSize) * svg.getScreenCTM().a,
    labels: [...svg.querySelectorAll("text.label")].map(t => ({text: t.textContent, ...box(t)})),
    marks: [...svg.querySelectorAll("circle.mark")].map(box),
    legend: box(svg.querySelector("g.legend")),
  };
}"""
# What moves on the page that a person could see: a running animation or transition that
# lasts longer than one frame (16 ms), or for ever. With reduced motion asked, the app ends
# each one after 0.01 ms, and one made in this very frame (the projector's fragment redraws
# every second) is still "running" until the next frame: that one moves nothing.
MOVING = """() => document.getAnimations()
  .filter(a => a.playState === "running" && a.effect
    && !(a.effect.getComputedTiming().endTime <= 16))
  .map(a => (a.effect.target && a.effect.target.className) || "?")"""


class Room:
    """The lecturer's page, the student's phone, and the class's code."""

    def __init__(self, lecturer: Page, phone: Page, url: str) -> None:
        self.lecturer, self.phone, self.url = lecturer, phone, url
        self.code = ""
        self.closed: list[str] = []  # the lecturer's connections that closed, and when

    def heard(self, ws: WebSocket) -> None:
        opened = time.monotonic()
        ws.on("close", lambda _: self.closed.append(f"{ws.url}: {time.monotonic() - opened:.0f} s"))

    def connected(self) -> None:
        """The lecturer's page is connected (Streamlit greys out every control while it is
        not); if it is not, the message says which connections closed."""
        app = self.lecturer.get_by_test_id("stApp")
        try:
            expect(app).to_have_attribute(CONNECTION_STATE, "CONNECTED", timeout=30_000)
        except AssertionError as e:
            raise AssertionError(f"the lecturer's page is offline; closed: {self.closed}") from e


@pytest.fixture(scope="module")
def room(browser, app_url):
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 720}),
        browser.new_context(**DEVICES["phone"]),
    ]
    r = Room(contexts[0].new_page(), contexts[1].new_page(), app_url)
    r.lecturer.on("websocket", r.heard)
    start_presenting(r)
    yield r
    for c in contexts:
        c.close()


def start_presenting(r: Room) -> None:
    """The lecturer opens the class page in presenter mode (a bookmark's
    ``?app_presenter=1``), starts a class and opens the challenge; a student joins on a
    phone; the classmates' sets arrive."""
    page = r.lecturer
    page.goto(f"{r.url}/room?app_presenter=1")
    expect(page.locator("h1")).to_have_text("Join a class", timeout=60_000)
    sidebar(page).get_by_text("Class mode").click()  # no class yet: the sidebar is there
    key(page, "room_start").get_by_role("button", name="Start a class").click()
    expect(key(page, "room_code")).to_be_visible(timeout=30_000)
    r.code = key(page, "room_code").inner_text().strip()
    menu(page).click()  # the lecturer's controls: beside the view switch
    opener = key(page, "room_ch_open").get_by_role("button", name="Open the challenge")
    opener.click()
    expect(key(page, "room_ch_close")).to_be_visible(timeout=10_000)
    page.keyboard.press("Escape")  # the menu closes: the projector's screen as it was
    expect(key(page, "room_ch_close")).to_be_hidden(timeout=10_000)
    r.phone.goto(f"{r.url}/room?room={r.code.replace('-', '')}")
    expect(r.phone.get_by_test_id("stForm").get_by_label("Class code")).to_have_value(
        r.code, timeout=60_000
    )
    join(r.phone, "Zoe")
    expect(r.phone.locator("h1")).to_have_text(f"Class {r.code}", timeout=15_000)
    s = store.open_store()  # the server's store (the tests' PERCEPTRON_STORE)
    code = cr.normal_code(r.code)
    assert code is not None
    known = cr.load_room(s, code, fresh=True)
    assert known is not None and known.challenge is not None
    data = store.save_dataset(s, np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1]))
    for nick, (M, bound) in zip(NICKS, SETS, strict=True):
        seat = cr.join(s, known, nick)
        sub = en.Submission(seat, nick, data, 4, M, bound, 0.3, 1.6, time.time())
        en.submit(s, known, sub, known.challenge.id)


def on_screen(page: Page, *parts: Locator) -> None:
    """Every part whole within the window (the main area scrolled to its top)."""
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    for part in parts:
        box = part.bounding_box()
        assert box is not None, part
        assert box["x"] >= -1 and box["x"] + box["width"] <= w + 1, (part, w, box)
        assert box["y"] >= -1 and box["y"] + box["height"] <= h + 1, (part, h, box)


def projector(page: Page, w: int, h: int) -> None:
    """The lecturer's window at w×h, the page at its top, the fonts in."""
    page.set_viewport_size({"width": w, "height": h})
    page.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 300)))")


def view(page: Page, name: str) -> None:
    switch = key(page, "room_view_pick").get_by_role("radio", name=name)
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    # the run the switch asked for has ended: while it draws, Streamlit keeps the last run's
    # menu button beside the new one (disabled)
    expect(menu(page)).to_have_count(1)


def chrome_hidden(page: Page) -> None:
    """Presenter mode: no sidebar, no header, no button to bring the sidebar back."""
    for part in ("stSidebar", "stHeader", "stExpandSidebarButton"):
        expect(page.get_by_test_id(part)).to_be_hidden()


def board_drawing(page: Page) -> dict:
    svg = key(page, "room_chart").locator("svg").filter(visible=True)
    expect(svg).to_have_count(1)
    expect(svg.locator("circle.mark")).to_have_count(5, timeout=10_000)  # 7 sets, 5 spots
    return svg.evaluate(BOARD)


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )


def covers_point(label: dict, mark: dict) -> bool:
    """Whether the label's box reaches into the circle of the mark."""
    cx, cy, r = mark["x"] + mark["w"] / 2, mark["y"] + mark["h"] / 2, mark["w"] / 2
    dx = max(label["x"] - cx, 0.0, cx - (label["x"] + label["w"]))
    dy = max(label["y"] - cy, 0.0, cy - (label["y"] + label["h"]))
    return (dx * dx + dy * dy) ** 0.5 < r


def labels_cover_nothing(d: dict) -> None:
    for a, b in itertools.combinations(d["labels"], 2):
        assert not overlaps(a, b), (a, b)
    for label in d["labels"]:
        assert not overlaps(label, d["legend"]), (label, d["legend"])
        assert not [m for m in d["marks"] if covers_point(label, m)], label
        assert overlaps(label, d["svg"]) and label["x"] >= d["svg"]["x"], label


def test_the_join_view_fills_the_projector_with_the_qr_code_the_code_and_the_count(room):
    page = room.lecturer
    view(page, "Join")
    expect(key(page, "room_count")).to_have_text("8 students have joined", timeout=10_000)
    qr = key(page, "room_qr").locator("img")
    expect(qr).to_have_attribute("alt", re.compile(r"^QR code of the join link, http://"))
    sizes = {}
    for w, h in PROJECTORS:
        projector(page, w, h)
        chrome_hidden(page)
        address = key(page, "room_address")
        said = address.inner_text().replace("\u2060", "")  # safe()'s word joiners
        assert f"open {room.url}/join and type" in said, said
        on_screen(page, qr, key(page, "room_code"), key(page, "room_count"), address)
        code_px = (
            key(page, "room_code")
            .locator("p")
            .evaluate("p => parseFloat(getComputedStyle(p).fontSize)")
        )
        side = qr.bounding_box()["width"]
        sizes[w] = (
            side,
            code_px,
            page.evaluate("() => parseFloat(getComputedStyle(document.documentElement).fontSize)"),
        )
        assert side >= 0.7 * h, (w, side)  # as large as the screen allows, with the code
        assert code_px >= 0.06 * w, (w, code_px)  # the code in huge letters
        page.screenshot(path=SCREENSHOTS / f"room_projector_join_{w}x{h}.png")
    # the type grows with the screen: read from the back row at 1920×1080 too
    assert sizes[1920][2] >= 1.4 * sizes[1280][2], sizes
    no_exception(page)


def test_the_board_view_fits_the_projector_and_no_label_covers_another_or_a_point(room):
    page = room.lecturer
    view(page, "Board")
    best = key(page, "room_best_few")
    expect(best.locator("tbody tr")).to_have_count(5, timeout=10_000)
    expect(best.locator("tbody tr").nth(3)).to_contain_text("<b>Dee</b>")  # as typed
    expect(page.locator("b", has_text="Dee")).to_have_count(0)
    ticks = {}
    for w, h in PROJECTORS:
        projector(page, w, h)
        chrome_hidden(page)
        chart = key(page, "room_chart").locator("svg").filter(visible=True)
        on_screen(page, chart, best)
        d = board_drawing(page)
        ticks[w] = d["tickPx"]
        assert d["label"].startswith("Mistakes M against the bound (R/γ)². 7 submissions;")
        # the best five are named by rank: three sets on one spot, then #4 and #5
        assert sorted(t["text"] for t in d["labels"]) == ["#1–#3", "#4", "#5"]
        labels_cover_nothing(d)
        page.screenshot(path=SCREENSHOTS / f"room_projector_board_{w}x{h}.png")
    assert ticks[1280] >= 18 and ticks[1920] >= 1.4 * ticks[1280], ticks  # were 12 px
    no_exception(page)


def menu(page: Page) -> Locator:
    """The projector's menu of the lecturer's controls (the button that opens it)."""
    return page.get_by_role("button", name="Lecturer's controls")


def test_the_lecturers_controls_are_one_click_away_in_the_projectors_menu(room):
    """The challenge, the summary and Close are in a menu beside the view switch: closed,
    nothing of them on the projector; open, each whole on the screen, no scrolling. The
    submissions' picker stays under the screen; the private lecturer link is in the menu,
    folded."""
    page = room.lecturer
    for name in ("Join", "Board"):
        view(page, name)
        for w, h in PROJECTORS:
            projector(page, w, h)
            on_screen(page, menu(page))
            for part in ("room_ch_close", "room_csv", "room_close"):
                expect(key(page, part)).to_be_hidden()
            box = key(page, "room_pick").bounding_box()
            assert box is not None and box["y"] >= h, (name, w, box)
            menu(page).click()
            parts = [key(page, p) for p in ("room_ch_close", "room_csv", "room_sure", "room_close")]
            for part in parts:
                expect(part).to_be_visible(timeout=10_000)
            on_screen(page, *parts)
            if name == "Board" and w == 1280:
                page.screenshot(path=SCREENSHOTS / "room_projector_menu_1280x720.png")
            expect(page.get_by_test_id("stCode").filter(visible=True)).to_have_count(0)  # folded
            page.keyboard.press("Escape")
            expect(key(page, "room_csv")).to_be_hidden(timeout=10_000)


def test_the_view_switch_answers_the_keyboard_and_nothing_moves_with_reduced_motion(room):
    page = room.lecturer
    page.emulate_media(reduced_motion="reduce")
    projector(page, 1280, 720)
    view(page, "Join")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    switch = key(page, "room_view_pick")
    board = switch.get_by_role("radio", name="Board")
    for _ in range(12):  # Tab from the top of the page to the switch (at Join, on show)
        page.keyboard.press("Tab")
        if switch.evaluate("s => s.contains(document.activeElement)"):
            break
    else:
        pytest.fail("Tab never reached the view switch")
    expect(switch.get_by_role("radio", name="Join")).to_be_focused()
    page.keyboard.press("ArrowRight")  # a radio group: the arrows go from view to view
    expect(board).to_be_focused()
    if board.get_attribute("aria-checked") != "true":
        page.keyboard.press("Enter")
    expect(board).to_have_attribute("aria-checked", "true")
    expect(key(page, "room_chart")).to_be_visible(timeout=10_000)
    expect(key(page, "room_qr")).to_have_count(0)
    assert page.evaluate(MOVING) == []  # not the switch, not the new view
    # the view on show is told by more than its colour: bold and underlined
    style = board.evaluate(
        "b => [getComputedStyle(b).fontWeight, getComputedStyle(b).textDecorationLine]"
    )
    assert int(style[0]) >= 700 and "underline" in style[1], style
    page.emulate_media(reduced_motion="no-preference")


def test_leaving_presenter_mode_brings_the_sidebar_back(room):
    page = room.lecturer
    projector(page, 1280, 720)
    room.connected()
    # the view bar is drawn by the page's run, not by the projector's timed fragment: one
    # click is enough, whenever the fragment's timer fires
    page.wait_for_timeout(1900)  # about when the fragment's next timed run starts
    key(page, "room_presenter_off").get_by_role("button").click()
    expect(sidebar(page)).to_be_visible(timeout=30_000)
    expect(key(page, "room_screen")).to_have_count(0)
    expect(key(page, "room_board")).to_be_visible()  # the page as it always was
    expect(sidebar(page).get_by_role("switch", name="Presenter mode")).not_to_be_checked()
    sidebar(page).get_by_text("Presenter mode").click()  # and back
    expect(key(page, "room_screen")).to_be_visible(timeout=10_000)
    chrome_hidden(page)


def test_on_a_phone_the_student_and_the_lecturer_see_the_class_page_whole(room, browser):
    phone = room.phone
    phone.reload()
    expect(phone.locator("h1")).to_have_text(f"Class {room.code}", timeout=60_000)
    expect(main(phone)).to_contain_text("The lecturer's challenge: with at most 10 points")
    assert_fits_and_reads_plainly(phone)
    phone.screenshot(path=SCREENSHOTS / "room_projector_student_phone.png")
    # the lecturer's page on a phone (the lecturer link): the page as it is, no presenter
    lecturer = room.lecturer
    menu(lecturer).click()  # the lecturer link: in the menu, folded
    lecturer.get_by_text("Lecturer link (private").click()
    codes = lecturer.get_by_test_id("stCode")
    link = next(
        text.strip() for text in codes.all_text_contents() if "/room?" in text and "key=" in text
    )
    lecturer.keyboard.press("Escape")
    context = browser.new_context(**DEVICES["phone"])
    try:
        page = context.new_page()
        page.goto(link)
        expect(key(page, "room_code")).to_be_visible(timeout=60_000)
        expect(key(page, "room_board")).to_be_visible()
        chart = key(page, "room_chart").locator("svg").filter(visible=True)
        chart.scroll_into_view_if_needed()
        d = board_drawing(page)
        assert d["tickPx"] >= 13.5, d["tickPx"]  # the narrow drawing: ticks stay readable
        labels_cover_nothing(d)
        assert_fits_and_reads_plainly(page)
        page.screenshot(path=SCREENSHOTS / "room_projector_lecturer_phone.png")
        no_exception(page, phone)
    finally:
        context.close()
