"""The margin lab on a student's own device: a 390x844 phone with touch, a 1366x768 laptop.

What a student checks: the picture, the mode buttons and γ, R, the bound and M are on one
screen of the phone; a touch drag and a tap do what they say and name the point they took;
no line on the instrument names a point from an earlier picture (after undo, delete,
upload); the mode buttons are reached with the keyboard.
"""

import math
import re

import pytest
from playwright.sync_api import Page, expect

from browser.devices import DEVICES, SCREENSHOTS, STICKING_OUT
from browser.test_margin import SURFACE, centre, metric, mode, said, settle, tick
from tests.browser.conftest import uploader

pytestmark = pytest.mark.browser

PHONE, LAPTOP = DEVICES["phone"], DEVICES["laptop"]


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


@pytest.fixture
def laptop(browser):
    context = browser.new_context(**LAPTOP)
    yield context.new_page()
    context.close()


def arrive(page: Page, app_url: str) -> None:
    """Open the margin lab as a student does: at the top of the page, nothing scrolled."""
    page.goto(f"{app_url}/margin")
    expect(page.locator(".pt").first).to_be_visible(timeout=30_000)
    settle(page)


def answered(page: Page, before: int) -> None:
    expect(page.locator(SURFACE)).to_have_attribute("data-tick", str(before + 1), timeout=15_000)
    settle(page)


def touch_drag(page: Page, start, end, steps: int = 12) -> None:
    """A finger's drag, as the phone's touch screen sends it (touch, not mouse, events)."""
    cdp = page.context.new_cdp_session(page)
    send = cdp.send
    send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]},
    )
    for k in range(1, steps + 1):
        f = k / steps
        x, y = start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
        send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def centres(page: Page) -> list[tuple[float, float]]:
    return page.locator(".pt").evaluate_all(
        "gs => gs.map(g => { const m = g.querySelector('.mark').getBoundingClientRect();"
        " return [m.x + m.width / 2, m.y + m.height / 2]; })"
    )


def scrolled(page: Page) -> float:
    return page.evaluate(
        "() => document.querySelector('[data-testid=\"stMain\"]')?.scrollTop ?? window.scrollY"
    )


def test_the_picture_the_mode_buttons_and_the_numbers_are_on_one_phone_screen(app_url, phone):
    arrive(phone, app_url)
    assert scrolled(phone) == 0
    for part in (".mlab .tools", SURFACE, ".mlab .nums", ".mlab .status"):
        box = phone.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (part, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (part, box)
    names = phone.locator(".mlab .tools button").all_inner_texts()
    assert [re.sub(r"^✓\s*", "", n) for n in names] == [
        "add +1",
        "add −1",
        "flip",
        "delete",
        "move",
    ]
    for label in ("margin γ", "radius R", "bound", "mistakes M"):
        assert metric(phone, label)
    # the help speaks of taps and the buttons: no shift, alt, hover or click on a phone
    help_line = said(phone).inner_text()
    assert help_line.startswith("Tap empty space to add a +1 point")
    assert not re.search(r"shift|alt|hover|click", help_line, re.I)
    assert phone.evaluate(STICKING_OUT) == {"sideways": 0, "out": []}
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / "margin-phone-one-screen.png"))


def test_a_finger_drags_a_point_and_the_page_does_not_scroll(app_url, phone):
    arrive(phone, app_url)
    gamma = metric(phone, "margin γ")
    support = phone.locator(".pt:has(circle.support)").first
    i = int(support.get_attribute("data-i"))
    x, y = centre(support.locator(".mark"))
    before = tick(phone)
    touch_drag(phone, (x, y), (x + 40, y - 60))
    answered(phone, before)
    expect(said(phone)).to_have_text(re.compile(rf"^Moved point {i + 1} to \(.+\)\.$"))
    assert metric(phone, "margin γ") != gamma
    assert scrolled(phone) == 0  # the drag moved the point, not the page
    nx, ny = centre(phone.locator(f'.pt[data-i="{i}"] .mark'))
    assert math.hypot(nx - (x + 40), ny - (y - 60)) < 3


def test_a_tap_between_close_points_takes_the_nearest_and_says_which(app_url, phone):
    arrive(phone, app_url)
    mode(phone, "flip")
    c = centres(phone)
    # the closest pair on screen: their marks overlap, the later one drawn on top
    a, b = min(
        ((i, j) for i in range(len(c)) for j in range(i + 1, len(c))),
        key=lambda p: math.dist(c[p[0]], c[p[1]]),
    )
    assert math.dist(c[a], c[b]) < 14  # within one mark of each other: a real test of the pick
    aim = (c[a][0] + 0.3 * (c[b][0] - c[a][0]), c[a][1] + 0.3 * (c[b][1] - c[a][1]))
    label = phone.locator(f'.pt[data-i="{a}"]').get_attribute("class")
    before = tick(phone)
    phone.touchscreen.tap(*aim)
    answered(phone, before)
    new = "−1" if "plus" in label else "+1"
    expect(said(phone)).to_have_text(f"Flipped point {a + 1} to label {new}.")


def test_a_tap_out_of_reach_takes_no_point_and_says_how_far(app_url, phone):
    arrive(phone, app_url)
    mode(phone, "delete")
    bg = phone.locator(".mlab rect.bg").bounding_box()
    c = centres(phone)
    # the empty spot farthest from every point inside the picture's top-left quarter
    spots = [(bg["x"] + 12 + 6 * u, bg["y"] + 12 + 6 * v) for u in range(30) for v in range(30)]
    spot = max(spots, key=lambda s: min(math.dist(s, p) for p in c))
    assert min(math.dist(spot, p) for p in c) > 24
    n = phone.locator(".pt").count()
    phone.touchscreen.tap(*spot)
    expect(said(phone)).to_contain_text("No point within reach of that tap")
    expect(phone.locator(".pt")).to_have_count(n)


def test_move_mode_takes_a_point_with_one_tap_and_puts_it_with_the_next(app_url, phone):
    arrive(phone, app_url)
    mode(phone, "move")
    expect(said(phone)).to_have_text("Tap a point, then tap where it should go. Or drag it.")
    c = centres(phone)
    i = min(range(len(c)), key=lambda k: c[k][1])  # the highest point on screen
    phone.touchscreen.tap(*c[i])
    expect(said(phone)).to_contain_text(f"Took point {i + 1}: now tap where it should go")
    expect(phone.locator(f'.pt[data-i="{i}"]')).to_have_class(re.compile(r"\bpicked\b"))
    bg = phone.locator(".mlab rect.bg").bounding_box()
    before = tick(phone)
    phone.touchscreen.tap(bg["x"] + bg["width"] / 2, bg["y"] + bg["height"] - 20)
    answered(phone, before)
    expect(said(phone)).to_have_text(re.compile(rf"^Moved point {i + 1} to \(.+\)\.$"))
    assert centre(phone.locator(f'.pt[data-i="{i}"] .mark'))[1] > bg["y"] + bg["height"] - 40


def test_no_line_names_a_point_from_an_earlier_picture(app_url, laptop, tmp_path):
    """Undo, delete and upload: the line under the buttons always speaks of the data on show."""
    page = laptop
    arrive(page, app_url)
    # drag point 17 and undo: the line names point 17 where undo put it, and it is there
    p17 = page.locator('.pt[data-i="16"]')
    title = p17.locator("title").text_content()
    x, y = centre(p17.locator(".mark"))
    before = tick(page)
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, 9):
        page.mouse.move(x + 5 * k, y + 4 * k)
    page.mouse.up()
    answered(page, before)
    expect(said(page)).to_contain_text("Moved point 17 to")
    before = tick(page)
    page.get_by_role("button", name="Undo").click()
    answered(page, before)
    where = re.match(r"point 17: (\(.+?\))", title).group(1)
    expect(said(page)).to_have_text(f"Undid: moved point 17 back to {where}.")
    expect(page.locator('.pt[data-i="16"] title')).to_have_text(title)
    # delete point 17: the line says so, and no point of the picture has point 17's old tip
    mode(page, "delete")
    before = tick(page)
    page.locator('.pt[data-i="16"] .mark').click()
    answered(page, before)
    expect(said(page)).to_have_text(re.compile(rf"^Deleted point 17 at {re.escape(where)}"))
    assert title not in page.locator(".pt title").all_text_contents()
    # upload three points: nothing on the instrument speaks of point 17 or of 39 points
    path = tmp_path / "three.csv"
    path.write_text("x1,x2,y\n1,1,1\n2,2,1\n-1,-1,-1\n", encoding="utf-8")
    uploader(page).set_input_files(str(path))
    expect(page.locator(".pt")).to_have_count(3, timeout=15_000)
    settle(page)
    line = said(page).inner_text()
    assert "point 17" not in line and "Deleted" not in line
    assert "point" not in page.locator(".mlab .nums").inner_text()
    expect(page.locator(".mlab .num .d")).to_have_count(0)  # no change carried over
    assert metric(page, "radius R") == "3"  # ‖(2, 2, 1)‖ = 3: the uploaded points' R


def test_the_mode_buttons_are_reached_and_pressed_with_the_keyboard(app_url, laptop):
    arrive(laptop, app_url)
    flip = laptop.locator(".mlab .tools button", has_text="flip")
    flip.focus()
    laptop.keyboard.press("Space")
    expect(flip).to_have_attribute("aria-pressed", "true")
    expect(laptop.locator(".mlab .tools button[aria-pressed=true]")).to_have_count(1)
    expect(said(laptop)).to_have_text(re.compile(r"^Click a point to flip its label"))
    laptop.keyboard.press("Tab")
    laptop.keyboard.press("Enter")  # the next button: delete
    expect(laptop.locator(".mlab .tools button", has_text="delete")).to_have_attribute(
        "aria-pressed", "true"
    )
    settle(laptop)
    expect(laptop).to_have_url(re.compile(r"mar_mode=delete"))  # the mode is in the link
    laptop.reload()  # a new session from the link: the same mode
    expect(laptop.locator(".pt").first).to_be_visible(timeout=30_000)
    expect(laptop.locator(".mlab .tools button", has_text="delete")).to_have_attribute(
        "aria-pressed", "true"
    )
