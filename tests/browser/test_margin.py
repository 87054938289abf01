"""The margin lab in a real browser: drag, click to add, flip, delete, with the mouse.

Reads what a student reads: the numbers γ, R, (R/γ)², M on the page, the
"Not separable" message, the sidebar's dataset line. Two browser contexts edit at
once and neither sees the other's points.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import run_ended

pytestmark = pytest.mark.browser

SURFACE = ".mlab .surface > svg"


def settle(page: Page) -> None:
    run_ended(page)


def open_margin(page: Page, app_url: str, query: str = "") -> None:
    page.goto(f"{app_url}/margin{query}")
    expect(page.locator(".pt").first).to_be_visible(timeout=30_000)
    settle(page)
    page.locator(SURFACE).scroll_into_view_if_needed()


KEYS = {"margin γ": "gamma", "radius R": "R", "bound": "bound", "mistakes M": "M"}


def metric(page: Page, label: str) -> str:
    """A number as the instrument shows it under (or beside) the picture."""
    return page.locator(f'.mlab .num[data-k="{KEYS[label]}"] .v').inner_text().strip()


def value(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def said(page: Page):
    """The instrument's line under its buttons."""
    return page.locator(".mlab .status")


def mode(page: Page, name: str) -> None:
    page.locator(".mlab .tools button", has_text=name).click()
    expect(page.locator(".mlab .tools button", has_text=name)).to_have_attribute(
        "aria-pressed", "true"
    )
    settle(page)


def tick(page: Page) -> int:
    return int(page.locator(SURFACE).get_attribute("data-tick"))


def edit(page: Page, gesture) -> None:
    """Do one gesture on the surface and wait until the page has answered it."""
    before = tick(page)
    gesture()
    expect(page.locator(SURFACE)).to_have_attribute("data-tick", str(before + 1), timeout=15_000)
    settle(page)


def centre(locator) -> tuple[float, float]:
    b = locator.bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for k in range(1, 11):
        f = k / 10
        page.mouse.move(start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f)
    page.mouse.up()


def line_ends(page: Page, css: str) -> list[list[float]]:
    """Screen coordinates of an SVG line's two ends."""
    return page.locator(css).evaluate(
        """el => { const m = el.getScreenCTM();
        const p = (x, y) => new DOMPoint(x, y).matrixTransform(m);
        const a = p(el.x1.baseVal.value, el.y1.baseVal.value);
        const b = p(el.x2.baseVal.value, el.y2.baseVal.value);
        return [[a.x, a.y], [b.x, b.y]]; }"""
    )


def no_traceback(page: Page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_dragging_a_support_vector_toward_w_star_shrinks_gamma_and_raises_the_bound(
    app_url, page, screenshot
):
    open_margin(page, app_url)
    gamma, bound = value(metric(page, "margin γ")), value(metric(page, "bound"))
    R = metric(page, "radius R")
    sv = page.locator(".pt:has(circle.support)").first
    i = sv.get_attribute("data-i")
    (ax, ay), (bx, by) = line_ends(page, f"{SURFACE} line.wstar")
    px, py = centre(sv)
    dx, dy = bx - ax, by - ay
    s = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
    qx, qy = ax + s * dx, ay + s * dy  # the foot of the perpendicular on w*
    edit(page, lambda: drag(page, (px, py), (px + 0.6 * (qx - px), py + 0.6 * (qy - py))))
    assert value(metric(page, "margin γ")) < gamma
    assert value(metric(page, "bound")) > bound
    assert metric(page, "radius R") == R  # the point moved inward: same farthest point
    expect(said(page)).to_have_text(re.compile(rf"^Moved point {int(i) + 1} to \(.+\)\.$"))
    # the numbers that changed carry their change, the one that did not carries none
    expect(page.locator('.mlab .num[data-k="gamma"] .d')).to_contain_text("▼ −")
    expect(page.locator('.mlab .num[data-k="R"] .d')).to_have_count(0)
    expect(page.get_by_test_id("stSidebar")).to_contain_text("drawn in the margin lab (40 points)")
    # a second drop on the drawn points reruns only the page's fragment: still all updated
    gamma2, bound2 = value(metric(page, "margin γ")), value(metric(page, "bound"))
    vx, vy = centre(page.locator(f'.pt[data-i="{i}"]'))  # the same point, closer still
    edit(page, lambda: drag(page, (vx, vy), (vx + 0.3 * (qx - px), vy + 0.3 * (qy - py))))
    assert value(metric(page, "margin γ")) < gamma2 and value(metric(page, "bound")) > bound2
    expect(page.get_by_role("button", name="Undo")).to_be_enabled()
    no_traceback(page)
    screenshot("margin-dragged")


def test_clicking_empty_space_adds_points_and_shift_click_adds_a_minus(app_url, page):
    open_margin(page, app_url)
    bg = page.locator(".mlab rect.bg").bounding_box()
    edit(page, lambda: page.mouse.click(bg["x"] + 25, bg["y"] + 25))  # top left: empty
    expect(page.locator(".pt")).to_have_count(41)
    expect(page.locator(".pt.plus")).to_have_count(21)
    page.keyboard.down("Shift")
    edit(page, lambda: page.mouse.click(bg["x"] + bg["width"] - 25, bg["y"] + 25))
    page.keyboard.up("Shift")
    expect(page.locator(".pt")).to_have_count(42)
    expect(page.locator(".pt.minus")).to_have_count(21)
    expect(page.get_by_test_id("stSidebar")).to_contain_text("drawn in the margin lab (42 points)")
    no_traceback(page)


def test_flipping_a_point_deep_in_its_class_makes_the_data_non_separable_and_undo_fixes_it(
    app_url, page, screenshot
):
    open_margin(page, app_url)
    gamma = metric(page, "margin γ")
    pluses = page.locator(".pt.plus")
    xs = [centre(pluses.nth(k))[0] for k in range(pluses.count())]
    leftmost = pluses.nth(xs.index(min(xs)))  # far from the line on the +1 side
    mode(page, "flip")
    edit(page, lambda: leftmost.click())
    expect(page.get_by_text("Not separable.", exact=False).first).to_be_visible()
    expect(page.locator(".mlab .banner")).to_contain_text("Not separable")
    assert metric(page, "margin γ") == "—" and metric(page, "bound") == "—"
    expect(page.get_by_text(re.compile(r"never finished a pass without one"))).to_be_visible()
    screenshot("margin-not-separable")
    page.get_by_role("button", name="Undo").click()
    settle(page)
    expect(page.locator('.mlab .num[data-k="gamma"] .v')).to_have_text(gamma)
    expect(said(page)).to_have_text(re.compile(r"^Undid: flipped point \d+ back to label \+1\.$"))
    no_traceback(page)


def test_alt_click_and_the_delete_tool_remove_points(app_url, page):
    open_margin(page, app_url)
    edit(page, lambda: page.locator(".pt").nth(3).click(modifiers=["Alt"]))
    expect(page.locator(".pt")).to_have_count(39)
    mode(page, "delete")
    edit(page, lambda: page.locator(".pt").nth(5).click())
    expect(page.locator(".pt")).to_have_count(38)
    bg = page.locator(".mlab rect.bg").bounding_box()
    page.mouse.click(bg["x"] + 25, bg["y"] + 25)  # the delete tool adds nothing
    page.wait_for_timeout(500)
    expect(page.locator(".pt")).to_have_count(38)
    no_traceback(page)


def test_a_point_dropped_far_outside_stays_on_the_surface(app_url, page):
    open_margin(page, app_url)
    p = centre(page.locator(".pt").nth(0))
    edit(page, lambda: drag(page, p, (p[0] + 2000, p[1] - 900)))
    expect(page.locator(".pt")).to_have_count(40)
    expect(said(page)).to_contain_text("Moved point 1 to")
    no_traceback(page)


def test_two_students_edit_at_once_and_neither_sees_the_others_points(app_url, browser):
    a = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    b = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    try:
        open_margin(a, app_url)
        open_margin(b, app_url)
        bg = a.locator(".mlab rect.bg").bounding_box()
        edit(a, lambda: a.mouse.click(bg["x"] + 25, bg["y"] + 25))
        edit(b, lambda: b.locator(".pt").nth(0).click(modifiers=["Alt"]))
        expect(a.locator(".pt")).to_have_count(41)
        expect(b.locator(".pt")).to_have_count(39)
        a.reload()
        open_margin(a, app_url)  # a new session of A: the generated data again
        expect(a.locator(".pt")).to_have_count(40)
        expect(b.locator(".pt")).to_have_count(39)
    finally:
        a.context.close()
        b.context.close()


def test_a_tap_on_a_touch_screen_adds_a_point(app_url, browser):
    tablet = browser.new_context(viewport={"width": 1100, "height": 1300}, has_touch=True)
    page = tablet.new_page()
    try:
        open_margin(page, app_url)
        bg = page.locator(".mlab rect.bg").bounding_box()
        edit(page, lambda: page.touchscreen.tap(bg["x"] + 25, bg["y"] + 25))
        expect(page.locator(".pt")).to_have_count(41)
        no_traceback(page)
    finally:
        tablet.close()


def test_the_keyboard_table_edits_a_coordinate(app_url, browser):
    tall = browser.new_context(viewport={"width": 1400, "height": 1800})
    page = tall.new_page()
    try:
        open_margin(page, app_url)
        gamma, R = metric(page, "margin γ"), metric(page, "radius R")
        tip = page.locator('.pt[data-i="0"] title').text_content()
        page.get_by_text("Edit the points as a table (keyboard)", exact=True).click()
        settle(page)
        grid = page.get_by_test_id("stDataFrame").first
        expect(grid).to_be_visible()
        page.wait_for_timeout(1000)  # let the grid take its final size
        edited = said(page).filter(has_text="Table edit (edited 1 row).")
        for _ in range(4):  # the canvas grid may still be laying out: try the edit again
            box = grid.bounding_box()
            page.mouse.click(box["x"] + 130, box["y"] + 52)  # select point 1's x1
            page.wait_for_timeout(300)
            page.keyboard.press("Enter")  # open the selected cell's editor
            page.wait_for_timeout(200)
            page.keyboard.press("ControlOrMeta+A")
            page.keyboard.type("2.5")
            page.wait_for_timeout(200)
            page.keyboard.press("Enter")
            try:
                expect(edited).to_be_visible(timeout=5_000)
                break
            except AssertionError:
                page.keyboard.press("Escape")
        expect(edited).to_be_visible(timeout=10_000)
        settle(page)
        # the typed value is point 1's x1 on the surface, and the numbers are the new data's
        expect(page.locator('.pt[data-i="0"] title')).to_contain_text("point 1: (2.5, ")
        assert (metric(page, "margin γ"), metric(page, "radius R")) != (gamma, R), tip
        expect(page.get_by_test_id("stSidebar")).to_contain_text("drawn in the margin lab (40")
        no_traceback(page)
    finally:
        tall.close()
