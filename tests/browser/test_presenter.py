"""Step by step on a lecture hall's projector, and the same chart on a phone.

A lecturer runs a class in presenter mode at 1280×720 and 1920×1080 with a question open:
what the lecturer points at (the strip with its Reveal, the Step button, the status line,
the maths, the four chart panels and the legend) is on the screen, the class strip is
one row, no proof panel is squeezed until its ticks overlap, and the type is the same
share of the screen at both sizes. On every device, no label on the chart covers a point
(bounding boxes, at every step of the run).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser.chart_reads import LABELS_OVER_POINTS, SIZES, TICKS_OVERLAP, WORDS_PAST_THE_EDGE
from browser.classroom import Klass, ensure_joined, key
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import button, open_lecture, status

pytestmark = pytest.mark.browser

PROJECTORS = ((1280, 720), (1920, 1080))


def on_screen(page: Page, part: Locator, what: str) -> None:
    """``part`` is whole on the screen: nothing to scroll to."""
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    box = part.bounding_box()
    assert box is not None, what
    assert box["x"] >= -1 and box["x"] + box["width"] <= w + 1, (what, w, box)
    assert box["y"] >= -1 and box["y"] + box["height"] <= h + 1, (what, h, box)


def settled(page: Page) -> None:
    """The chart drawn for the screen it is on (fonts in, the refit after a resize done),
    and then left alone: a chart that stays on the page a whole second (the player checks
    its fit every 400 ms) is not being drawn again and again."""
    page.evaluate("() => document.fonts.ready.then(() => true)")
    svg = chart(page)
    for _ in range(8):
        svg.evaluate("s => { s.dataset.seen = 'yes'; }")
        page.wait_for_timeout(1000)
        if svg.evaluate("s => s.dataset.seen === 'yes'"):
            return
    raise AssertionError("the chart is drawn again and again")


def chart(page: Page) -> Locator:
    """The chart on show (not a hidden copy Streamlit keeps while a run redraws the page)."""
    return page.locator(".lec .fig").filter(visible=True)


def labels_over_points(page: Page, t: int | None = None) -> dict:
    """What covers what on the data panel, once the chart on show is at step ``t``."""
    for _ in range(5):
        if t is not None:
            expect(chart(page)).to_have_attribute("data-t", str(t))
        seen = chart(page).evaluate(LABELS_OVER_POINTS)
        if seen["drawn"]:
            return seen
        # the chart found was replaced before it was read (drawn again for the room it has)
    raise AssertionError("the chart is replaced again and again")


def the_projector_shows_it_all(page: Page, name: str) -> dict:
    """Everything the lecturer points at is whole on the screen, nothing overlaps; returns
    the panels' heights and the type sizes."""
    settled(page)
    assert page.evaluate("window.scrollY") == 0
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()
    strip = key(page, "room_strip")
    parts = {
        "strip": strip,
        "Ask or Reveal": strip.locator(".st-key-room_ask, .st-key-room_reveal").get_by_role(
            "button"
        ),
        "Step": button(page, "step"),
        "status": status(page),
        "facts and settings": page.locator(".lec .facts"),
        "maths": page.locator(".lec .maths"),
        "legend": page.locator(".lec .legend"),
    }
    for what, part in parts.items():
        on_screen(page, part, what)
    for j, other in enumerate(strip.get_by_role("button").all()):  # Vote again...
        on_screen(page, other, f"the strip's button {j}")
    frames = chart(page).locator("rect.frame")
    expect(frames).to_have_count(4)  # the data and the proof's three
    for j in range(4):
        on_screen(page, frames.nth(j), f"panel {j}")
        on_screen(page, chart(page).locator(".title").nth(j), f"title {j}")
    sizes = page.locator(".lec").filter(visible=True).evaluate(SIZES)
    heights = [frames.nth(j).bounding_box()["height"] for j in range(4)]
    # usable panels: each proof panel at least four lines of its ticks high, the data
    # panel fifteen, and no two tick labels up a panel's side overlapping
    assert min(heights[1:]) >= 4 * sizes["tick"], (heights, sizes)
    assert heights[0] >= 15 * sizes["tick"], (heights, sizes)
    for n, overlapping in chart(page).evaluate(TICKS_OVERLAP):
        assert n >= 2 and overlapping == 0, (n, overlapping)
    drawn = labels_over_points(page)
    assert drawn["out"] == [] and drawn["points"] > 0, drawn
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"presenter-{name}.png")
    return {"heights": heights, **sizes}


def strip_is_one_row(page: Page) -> None:
    """The class strip: the code, the join address, the question's state and the button on
    one row, each text one line high, the strip no higher than three lines of its text."""
    strip = key(page, "room_strip")
    rows = strip.evaluate(
        """s => {
          const r = e => e.getBoundingClientRect();
          const px = parseFloat(getComputedStyle(s.querySelector('p')).fontSize);
          const parts = [...s.querySelectorAll('p, button')].filter(e => r(e).height > 0);
          const lines = [...s.querySelectorAll('p')].map(p => r(p).height / px);
          const mids = parts.map(e => r(e).top + r(e).height / 2);
          return {px, height: r(s).height, lines, spread: Math.max(...mids) - Math.min(...mids)};
        }"""
    )
    assert rows["height"] <= 3 * rows["px"], rows
    assert max(rows["lines"]) < 1.9, rows  # no text wrapped onto a second line
    assert rows["spread"] <= rows["px"], rows  # side by side, not stacked


def tab_to(page: Page, target: Locator, press: str, most: int = 40) -> None:
    """Press ``press`` (Tab or Shift+Tab) until ``target`` has the focus, at most ``most``
    times."""
    for _ in range(most):
        page.keyboard.press(press)
        if target.evaluate("e => e === document.activeElement"):
            return
    raise AssertionError(f"{press} never reaches {target}")


def address_is_whole(page: Page) -> None:
    """The strip's join address is on the projector whole, not cut off by an ellipsis: a
    latecomer types it."""
    shown = key(page, "room_strip").evaluate(
        """s => [...s.querySelectorAll('p')]
          .filter(e => e.textContent.includes('join at'))
          .map(e => {
            let cut = 0;  // px of the text past its box (or past any box it sits in)
            for (let a = e; a && a !== s; a = a.parentElement)
              cut = Math.max(cut, a.scrollWidth - a.clientWidth);
            return {text: e.textContent, cut, width: e.clientWidth, row: s.clientWidth};
          })"""
    )
    assert shown and all(x["cut"] <= 1 for x in shown), shown


# ------------------------------------------------------------------------------- a class


@dataclass
class Room:
    k: Klass
    asked_point: int = 0


@pytest.fixture(scope="module")
def room(browser: Browser, app_url: str) -> Iterator[Room]:
    """A class: the lecturer on a 1280×720 projector, a student on a phone, one on a laptop."""
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 720}),
        browser.new_context(**DEVICES["phone"]),
        browser.new_context(**DEVICES["laptop"]),
    ]
    k = Klass(*(c.new_page() for c in contexts), url=app_url)
    ensure_joined(k)
    yield Room(k)
    for c in contexts:
        c.close()


def lecturer_presents(r: Room) -> Page:
    """The lecturer's Step by step in presenter mode (the seat comes with the cookie)."""
    page = r.k.lecturer
    if "/lecture" not in page.url or not page.locator(".lec.presenter").count():
        page.goto(r.k.url + "/lecture?app_presenter=1&lec_t=9")
        expect(page.locator(".lec.presenter .fig")).to_be_visible(timeout=30_000)
    expect(key(page, "room_strip")).to_contain_text(f"Class {r.k.code}", timeout=15_000)
    return page


def test_the_projector_with_a_class_and_a_question_open_shows_it_all_at_both_sizes(room):
    page = lecturer_presents(room)
    page.set_viewport_size({"width": 1280, "height": 720})
    expect(key(page, "room_ask")).to_be_visible(timeout=15_000)
    strip_is_one_row(page)
    quiet = the_projector_shows_it_all(page, "class-1280x720")
    key(page, "room_ask").get_by_role("button", name="Ask the class").click()
    strip = key(page, "room_strip")
    expect(strip).to_contain_text(re.compile(r"Question \d+: 0 of 2 answered"), timeout=10_000)
    expect(key(page, "room_reveal")).to_be_visible()
    asked = chart(page).locator("circle.asked")
    expect(asked).to_have_count(1, timeout=10_000)  # the chart rings the example asked about
    expect(status(page)).to_contain_text("? class question: point")
    measured = {}
    for w, h in PROJECTORS:
        page.set_viewport_size({"width": w, "height": h})
        strip_is_one_row(page)
        address_is_whole(page)
        measured[w] = the_projector_shows_it_all(page, f"question-{w}x{h}")
        # the "?" by the example asked about covers no point either
        assert chart(page).locator(".askedtxt").count() == 1
    # a question open costs the chart nothing: the strip stays one row
    assert measured[1280]["heights"] == pytest.approx(quiet["heights"], abs=2)
    # presenter type is the same share of the screen at both sizes (18 px status at 720)
    for what in ("status", "button", "subscript", "tick", "stamp"):
        small, large = measured[1280][what], measured[1920][what]
        assert large / small == pytest.approx(1080 / 720, rel=0.03), (what, small, large)
    assert measured[1280]["status"] >= 18 and measured[1280]["tick"] >= 15
    page.set_viewport_size({"width": 1280, "height": 720})


def test_the_projectors_question_reaches_the_students_and_the_tally_stays_one_row(room):
    page = lecturer_presents(room)
    if not key(page, "room_reveal").count():
        key(page, "room_ask").get_by_role("button", name="Ask the class").click()
    expect(key(page, "room_reveal")).to_be_visible(timeout=10_000)
    qid = re.search(r"Question (\d+)", key(page, "room_strip").inner_text()).group(1)
    phone = room.k.a  # on the class page since joining: the question's card comes to it
    card = phone.locator(f".st-key-room_card_{qid}").filter(visible=True)
    expect(card).to_be_visible(timeout=15_000)
    card.get_by_role("radio", name="mistake", exact=True).click()
    expect(card).to_contain_text("Counted: you said mistake.")
    strip = key(page, "room_strip")
    expect(strip).to_contain_text(f"Question {qid}: 1 of 2 answered")
    expect(strip).not_to_contain_text("mistake 1")  # how many answered, not what, until Reveal
    strip_is_one_row(page)
    # the Reveal is reached from the keyboard and pressed with Enter
    button(page, "step").focus()
    tab_to(page, key(page, "room_reveal").get_by_role("button"), "Shift+Tab")
    page.keyboard.press("Enter")
    expect(key(page, "room_ask")).to_be_visible(timeout=10_000)
    # the answer, in words, and the step it was about on the chart (the reveal steps to it)
    said = re.search(rf"Question {qid}: (a mistake|no mistake)", strip.inner_text())
    assert said, strip.inner_text()
    stamp = chart(page).locator(".said")
    expect(stamp).to_have_class(re.compile("mistake" if said.group(1) == "a mistake" else "right"))
    strip_is_one_row(page)
    the_projector_shows_it_all(page, "revealed-1280x720")


# ------------------------------------------------------------------------------- labels


def steps_through_the_run(page: Page, steps: int) -> list[dict]:
    """Press → ``steps`` times; what the data panel shows at each step."""
    seen = [labels_over_points(page, 0)]
    for t in range(1, steps + 1):
        page.keyboard.press("ArrowRight")
        seen.append(labels_over_points(page, t))
    return seen


@pytest.mark.parametrize(
    ("device", "query"),
    [
        ("projector-1280", "?app_presenter=1"),
        ("projector-1920", "?app_presenter=1"),
        ("phone", ""),
        ("laptop", ""),
        ("phone", "?data_n=150"),  # crowded: a label may find no free spot on the plot
        ("projector-1280", "?app_presenter=1&data_n=150"),
    ],
)
def test_no_label_covers_a_point_at_any_step(app_url, browser, device, query):
    if device.startswith("projector"):
        w = int(device.split("-")[1])
        context = browser.new_context(viewport={"width": w, "height": w * 9 // 16})
    else:
        context = browser.new_context(**DEVICES[device])
    page = context.new_page()
    try:
        open_lecture(page, app_url, query)
        expect(status(page)).to_contain_text("step t = 0 of")
        settled(page)
        T = int(re.search(r"step t = 0 of ([\d,]+)", status(page).inner_text()).group(1))
        seen = steps_through_the_run(page, min(T, 99))  # the first window: no server round trip
        assert [s["t"] for s in seen] == list(range(len(seen)))
        assert [s for s in seen if s["points"] == 0 or s["texts"] < 3] == []
        assert [(s["t"], s["out"]) for s in seen if s["out"]] == []
        for s in seen:  # w's arrow is named: beside it on the plot, else over the plot
            assert s["arrow"] == 0 or s["wlabel"] == 1 or "arrow: w" in s["named"], s
        assert any(s["wlabel"] for s in seen)  # and beside it where there is room
        # every panel's title and key is whole on the chart: none runs past its edge
        cut = chart(page).evaluate(WORDS_PAST_THE_EDGE)
        assert cut == [], cut
        chart(page).scroll_into_view_if_needed()
        SCREENSHOTS.mkdir(exist_ok=True)
        name = re.sub(r"\W+", "-", f"labels-{device}{query}").strip("-")
        page.screenshot(path=SCREENSHOTS / f"{name}.png")
    finally:
        context.close()


# ------------------------------------------------------------- the other pages on a projector

ROOT_PX = "parseFloat(getComputedStyle(document.documentElement).fontSize)"  # 1rem, in px


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("path", ["margin", "xor"])
def test_another_page_in_presenter_mode_has_no_sidebar_larger_type_and_a_way_out(
    app_url: str, browser: Browser, path: str, size: tuple[int, int]
) -> None:
    """The margin lab and XOR on a projector: no sidebar or header, the type the lecture's
    presenter mode has (18 px at 1280×720, 27 px at 1920×1080), and *Leave presenter
    mode* at the top, reached by Tab, which brings the sidebar back."""
    w, h = size
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{path}?app_presenter=1")
        way_out = page.get_by_role("button", name="Leave presenter mode")
        expect(way_out).to_be_visible(timeout=60_000)
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()
        expect(page.get_by_test_id("stHeader")).to_be_hidden()
        root_px = page.evaluate(ROOT_PX)
        assert root_px == pytest.approx(min(w * 0.0140625, h * 0.025), abs=0.5), root_px
        on_screen(page, way_out, "Leave presenter mode")
        page.wait_for_timeout(1500)  # the page's charts drawn for the screen
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"presenter-{path}-{w}x{h}.png")
        tab_to(page, way_out, "Tab")  # the keyboard reaches the way out
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("stSidebar")).to_be_visible(timeout=15_000)
        expect(way_out).to_have_count(0)
        assert page.evaluate(ROOT_PX) == 16
    finally:
        context.close()


def fills_its_row(page: Page) -> bool:
    """Whether the margin lab's picture takes its row, less the numbers at its right end
    (and canvas.py's 8 px gap): the width it has outside presenter mode."""
    body, nums, picture = (
        page.locator(css).bounding_box()
        for css in (".mlab .body", ".mlab .nums", ".mlab .surface > svg")
    )
    at_end = abs(nums["x"] + nums["width"] - body["x"] - body["width"]) < 2
    return at_end and abs(picture["width"] - (nums["x"] - body["x"] - 8)) < 2


@pytest.mark.parametrize("size", PROJECTORS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_margin_labs_picture_fits_the_projector_and_a_click_lands_where_it_was_made(
    app_url: str, browser: Browser, size: tuple[int, int]
) -> None:
    """In presenter mode the lecturer drags points while the room watches: the picture is
    whole on the screen with nothing scrolled, its numbers beside it, still large; a click
    on it adds a point where it was made; leaving presenter mode gives it its column's width."""
    from browser.test_margin import SURFACE, centre, edit, settle

    w, h = size
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/margin?app_presenter=1")
        expect(page.locator(".pt").first).to_be_visible(timeout=60_000)
        settle(page)
        # one lab on the page: the page's first run's copy, drawn before presenter mode
        # moved it, is gone once the run that moved it ends
        expect(page.locator(".mlab")).to_have_count(1, timeout=30_000)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        picture = page.locator(SURFACE)
        on_screen(page, picture, "the margin lab's picture")
        # canvas.js's rule: as wide as its row allows, and no taller than the screen below
        # its top allows (12 px to spare): at 1280×720 the screen decides, at 1920×1080 the
        # row. The page's layout settles after the first paint (the sidebar leaves, fonts
        # arrive), and canvas.js follows it on the next frame: 15 s at most
        for _ in range(30):
            fitted = picture.bounding_box()
            body, nums = (page.locator(c).bounding_box() for c in (".mlab .body", ".mlab .nums"))
            row = body["width"] - nums["width"] - 8
            if abs(fitted["width"] - min(row, h - fitted["y"] - 12)) <= 2:
                break
            page.wait_for_timeout(500)
        assert fitted["width"] == pytest.approx(min(row, h - fitted["y"] - 12), abs=2)
        assert fitted["height"] >= 0.45 * h, fitted  # the picture, not a stamp
        for label in ("margin γ", "radius R", "bound (R/γ)²", "mistakes M"):
            number = page.locator(".mlab .num").filter(has_text=label)
            on_screen(page, number, label)
            assert number.bounding_box()["x"] >= fitted["x"] + fitted["width"]  # beside it
        print(f"\n{w}×{h}: the picture {fitted['width']:.0f} px, its row {row:.0f} px")
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"presenter-margin-fitted-{w}x{h}.png")

        bg = page.locator(".mlab rect.bg").bounding_box()
        at = (bg["x"] + 30, bg["y"] + 30)  # the top left corner: empty
        edit(page, lambda: page.mouse.click(*at))
        expect(page.locator(".pt")).to_have_count(41)
        x, y = centre(page.locator('.pt[data-i="40"] .mark'))
        assert abs(x - at[0]) < 3 and abs(y - at[1]) < 3, ((x, y), at)

        page.get_by_role("button", name="Leave presenter mode").click()
        expect(page.get_by_test_id("stSidebar")).to_be_visible(timeout=15_000)
        expect(page.locator(".pt")).to_have_count(41)  # the edit kept

        for _ in range(30):  # the page's run redraws it for the column, 15 s at most
            if fills_its_row(page):
                break
            page.wait_for_timeout(500)
        else:
            raise AssertionError("the picture kept its presenter size")
    finally:
        context.close()


# pages whose first picture is whole on a projector, 1280×720 and 1920×1080 (each page's
# controls are in the Settings menu there: ui.shell.presenter.settings)
WHOLE = {"xor", "sgd", "experts", "spam", "variants"}
FIRST_PICTURE = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const pictures = [...main.querySelectorAll('[data-testid="stPlotlyChart"], .fig, .mlab svg')]
    .map(e => e.getBoundingClientRect()).filter(r => r.height > 150);
  return pictures.length ? Math.round(pictures[0].top) : null;
}"""


SMALLEST_TEXT = r"""() => {
  // the smallest type of any text on the first screen (a visible character, not a strut)
  const main = document.querySelector('[data-testid="stMain"]');
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  let smallest = [Infinity, ''];
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.replace(/[\u200b\s]/g, '');
    const el = walker.currentNode.parentElement;
    const r = el.getBoundingClientRect();
    if (!text || r.width === 0 || r.height === 0 || r.top >= innerHeight || r.bottom <= 0) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < smallest[0]) smallest = [px, text.slice(0, 30)];
  }
  return smallest;
}"""


CONTROL = {  # a control of each lesson, by its label
    "xor": "epochs to run",
    "sgd": "max epochs per run",
    "experts": "analysts n",
    "spam": "words counted",
    "variants": "epochs T",
}


@pytest.mark.parametrize("path", ["xor", "sgd", "experts", "spam", "variants"])
def test_in_presenter_mode_the_paragraphs_fold_away_and_the_picture_starts_on_the_first_screen(
    app_url: str, browser: Browser, path: str
) -> None:
    """On a 1280×720 projector a lesson's paragraphs give way to its first picture (the
    lecturer says the words), and no text on the first screen is under 14 px, the charts'
    ticks and legends included; out of presenter mode the paragraphs are back."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/{path}?app_presenter=1")
        expect(page.get_by_role("button", name="Leave presenter mode")).to_be_visible(
            timeout=60_000
        )
        prose = page.locator("[class*='st-key-app_prose_']")
        expect(prose.first).to_be_attached(timeout=30_000)
        expect(prose.filter(visible=True)).to_have_count(0)
        # the charts draw one by one: until the first is drawn, another may be first (if
        # it never comes up, the assertion below says where it is)
        settled = f"(() => {{ const t = ({FIRST_PICTURE})(); return t !== null && t <= 600; }})()"
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(settled, timeout=30_000)
        top = page.evaluate(FIRST_PICTURE)
        # the picture begins on the first screen (a page whose picture is whole there is
        # the projector's goal, met on WHOLE: docs/accessibility.md says which pages)
        assert 0 <= top <= 720 - 120, top
        bottom_of = FIRST_PICTURE.replace("pictures[0].top", "pictures[0].bottom")
        if path in WHOLE:
            assert page.evaluate(bottom_of) <= 720, (top, page.evaluate(bottom_of))
        page.wait_for_timeout(1000)  # the charts drawn at their size
        px, text = page.evaluate(SMALLEST_TEXT)
        assert px >= 14, (px, text)  # the charts' ticks and legends too (Plotly's px sizes)
        # the lesson's controls are one click away, in the row at the top
        page.get_by_role("button", name="Settings").click()
        expect(
            page.locator('[data-testid="stPopoverBody"]').get_by_text(CONTROL[path])
        ).to_be_visible()
        page.keyboard.press("Escape")
        if path in WHOLE:  # and on the larger projector (the type grows with the screen)
            page.set_viewport_size({"width": 1920, "height": 1080})
            page.wait_for_timeout(1000)
            assert page.evaluate(bottom_of) <= 1080, page.evaluate(bottom_of)
        page.get_by_role("button", name="Leave presenter mode").click()
        # the whole page's run (SGD's landscape is seconds under a CI's load) draws them back
        expect(prose.filter(visible=True).first).to_be_visible(timeout=60_000)
    finally:
        context.close()


def test_in_presenter_mode_the_proof_opens_on_the_theorem(app_url: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/proof?app_presenter=1")
        expect(page.get_by_role("button", name="Leave presenter mode")).to_be_visible(
            timeout=60_000
        )
        expect(page.get_by_test_id("stSidebar")).to_be_hidden()
        theorem = page.get_by_role("heading", name="The theorem", exact=True)
        expect(theorem).to_be_visible(timeout=60_000)
        on_screen(page, theorem, "the theorem's heading")
        first = page.get_by_role("heading", name=re.compile(r"^For any R"))
        assert first.bounding_box()["y"] < 720, first.bounding_box()  # its statement starts
    finally:
        context.close()


# the stroke widths of every Plotly line on the page, in the order drawn
PLOTLY_LINES = """() => [...document.querySelectorAll('.js-plotly-plot .scatterlayer path.js-line')]
  .map(p => parseFloat(getComputedStyle(p).strokeWidth)).filter(w => w > 0)"""


def line_width(page: Page, selector: str, expected: float) -> float:
    """The first ``selector`` line's stroke width once it is ``expected`` (the instrument is
    drawn anew as the page's run ends: a line measured as it is replaced has none), or as
    it is after 30 s. (A locator: the instrument is in a component's shadow root.)"""
    line = page.locator(selector).first
    width = float("nan")
    for _ in range(60):
        with contextlib.suppress(PlaywrightError):
            width = float(line.evaluate("e => parseFloat(getComputedStyle(e).strokeWidth)"))
        if width == expected:
            break
        page.wait_for_timeout(500)
    return width


def test_the_projector_theme_thickens_lines_and_the_lecturer_can_turn_it_off(
    app_url: str, browser: Browser
) -> None:
    """Presenter mode draws in the projector theme: the lecture's w line 5 px, not 3, and
    every Plotly line 1.75 times its width; the switch on the presenter's row (or
    ``app_projector=0`` in a bookmark) turns it off."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    wline = ".lec .fig .wline"
    try:
        page.goto(f"{app_url}/lecture?app_presenter=1&lec_t=6")
        expect(page.locator(".lec.projector")).to_have_count(1, timeout=60_000)
        assert line_width(page, wline, 5) == pytest.approx(5)
        page.goto(f"{app_url}/lecture?app_presenter=1&app_projector=0&lec_t=6")
        expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)
        expect(page.locator(".lec.projector")).to_have_count(0)
        assert line_width(page, wline, 3) == pytest.approx(3)

        page.goto(f"{app_url}/xor?app_presenter=1")
        switch = page.get_by_role("button", name="Projector theme: on")
        expect(switch).to_be_visible(timeout=60_000)
        page.wait_for_function(f"({PLOTLY_LINES})().length > 0", timeout=60_000)
        thick: list[float] = []
        for _ in range(30):  # every chart drawn: the same lines twice, a second apart
            page.wait_for_timeout(1000)
            now = page.evaluate(PLOTLY_LINES)
            if now == thick:
                break
            thick = now
        switch.click()
        expect(page.get_by_role("button", name="Projector theme: off")).to_be_visible(
            timeout=60_000
        )
        # every line drawn again at its own width: 1.75 times thinner
        page.wait_for_function(
            f"(() => {{ const w = ({PLOTLY_LINES})(), t = {thick};"
            " return w.length === t.length && w.every((x, i) => Math.abs(1.75 * x - t[i]) < 0.05);"
            " })()",
            timeout=60_000,
        )
        thin = page.evaluate(PLOTLY_LINES)
        assert [round(w * 1.75, 1) for w in thin] == [round(w, 1) for w in thick]
    finally:
        context.close()
