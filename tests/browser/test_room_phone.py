"""A class on the students' own screens: student A on a 390×844 touch phone, student B on
a 1280×720 laptop, the lecturer at a 1366×768 laptop (one class, as in test_room.py).

What a student checks: a question arriving while they look at the chart puts its answer
buttons on their screen, rings the example on their own chart, and takes their answer
from there; an open margin challenge is announced on the page they are on, one tap opens
the margin lab (the phone's sidebar closed), and the question revealed before takes one
line, so the lab's numbers are on the first screen.

Screenshots go to the browser tests' screenshots folder, to be looked at.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, Route, expect

from browser.classroom import (
    FOLLOW_MS,
    Klass,
    ask,
    card,
    ensure_joined,
    key,
    main,
    no_exception,
    on_lecture,
)
from browser.devices import MAIN, SCREENSHOTS
from browser.test_lecture import status
from browser.test_room import klass  # noqa: F401 (the fixture: this module's class of three)
from tests.browser.conftest import run_ended
from ui.live import card as card_route

pytestmark = [pytest.mark.browser]

SHOTS = SCREENSHOTS
LAPTOP_SMALL = {"width": 1280, "height": 720}


def on_screen(page: Page, part: Locator) -> dict[str, float]:
    """``part`` lies wholly inside the viewport (what a person sees without scrolling)."""
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    box = part.bounding_box()
    assert box is not None, "not drawn"
    assert box["x"] >= -1 and box["x"] + box["width"] <= w + 1, (w, box)
    assert box["y"] >= -1 and box["y"] + box["height"] <= h + 1, (h, box)
    return box


def to_chart(page: Page) -> None:
    """The student scrolls down to the lecture's chart (its middle in the middle of the
    screen), as a student watching the lecturer's steps does."""
    page.locator(".lec .fig").evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_function(f"() => {MAIN}.scrollTop > 0")


def no_open_question(k: Klass) -> None:
    either = key(k.lecturer, "room_reveal").or_(key(k.lecturer, "room_ask"))
    expect(either.get_by_role("button")).to_be_visible(timeout=30_000)
    if key(k.lecturer, "room_reveal").count():
        key(k.lecturer, "room_reveal").get_by_role("button").click()
        expect(key(k.lecturer, "room_ask")).to_be_visible(timeout=10_000)


def settled(part: Locator) -> None:
    """Wait for ``part``'s animations to end. A rerun may draw the part anew meanwhile (the
    browser then aborts the wait on the old one): the new one is waited for instead."""
    for _ in range(5):
        try:
            part.evaluate("b => Promise.all(b.getAnimations({subtree: true}).map(a => a.finished))")
            return
        except PlaywrightError as err:
            if "aborted" not in str(err):
                raise
    raise AssertionError("the part was drawn anew five times while it slid in")


def bar(page: Page, qid: int) -> Locator:
    """The question's answer bar on a student's page."""
    return key(page, f"room_bar_{qid}")


def test_a_question_puts_its_answers_on_the_screen_of_a_student_looking_at_the_chart(
    klass,  # noqa: F811 (pytest's fixture, imported above)
):
    k = klass
    ensure_joined(k)
    k.b.set_viewport_size(LAPTOP_SMALL)
    for page in (k.lecturer, k.a, k.b):
        on_lecture(page)
    no_open_question(k)
    for s in (k.a, k.b):
        expect(main(s)).to_contain_text("Following the lecturer of class")
        to_chart(s)
    t, qid = ask(k)
    point = re.search(r"will point (\d+),", key(k.lecturer, "room_strip").inner_text()).group(1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for s, name in ((k.a, "phone_390x844"), (k.b, "laptop_1280x720")):
        expect(card(s, qid)).to_contain_text("Will it be a mistake?", timeout=FOLLOW_MS)
        # where the student is: the answers on the screen, with the question in words
        expect(bar(s, qid)).to_contain_text(f"Question {qid}")
        expect(bar(s, qid)).to_contain_text(f"point {point}")
        # the bar slides in (a few hundred ms, longer on a busy machine): measured once it is in
        settled(bar(s, qid))
        for option in bar(s, qid).get_by_role("radio").all():
            expect(option).to_be_in_viewport(ratio=1.0)
            box = on_screen(s, option)
            print(f"{name}: answer {option.inner_text()!r} at y = {box['y']:.0f}")
        # the example is ringed (a dotted ring and "?") on the student's own chart, which is
        # still on the screen, and said in words in the chart's text and its status line
        ring = s.locator(".lec svg circle.asked")
        expect(ring).to_have_count(1)
        on_screen(s, ring)
        expect(status(s)).to_contain_text(f"? class question: point {point}")
        expect(s.locator(".lec .fig")).to_have_attribute(
            "aria-label", re.compile(rf"will point {point}, shown next, be a mistake\?")
        )
        s.screenshot(path=SHOTS / f"question_at_chart_{name}.png")
    # the phone answers by touch from where it is; the laptop by keyboard
    bar(k.a, qid).get_by_role("radio", name="mistake", exact=True).tap()
    expect(bar(k.a, qid)).to_contain_text("Counted: you said mistake.")
    ring = k.a.locator(".lec svg circle.asked")
    expect(ring).to_be_visible()  # the chart redrawn after the answer's run
    on_screen(k.a, ring)  # the page did not jump away
    k.a.screenshot(path=SHOTS / "question_answered_phone_390x844.png")
    option = bar(k.b, qid).get_by_role("radio", name="no mistake", exact=True)
    option.focus()
    k.b.keyboard.press("Enter")
    expect(bar(k.b, qid)).to_contain_text("Counted: you said no mistake.")
    expect(key(k.lecturer, "room_strip")).to_contain_text(
        re.compile(rf"Question {qid}: will point .*\?2 of 2 answered"), timeout=FOLLOW_MS
    )
    # revealed: the ring on the students' charts becomes the example just shown
    key(k.lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    for s in (k.a, k.b):
        # the time a reveal takes is test_room's to check: here the machine may be loaded
        done = key(s, f"room_done_{qid}")
        expect(done).to_contain_text(
            re.compile(rf"Question {qid}: (✓ right|✗ not this time) · it was"), timeout=15_000
        )
        expect(bar(s, qid)).to_have_count(0)
        expect(s.locator(".lec svg circle.asked")).to_have_count(0)
        expect(status(s)).to_contain_text(f"step t = {t + 1:,} of")
    k.b.set_viewport_size({"width": 1366, "height": 768})
    no_exception(k.lecturer, k.a, k.b)


def a_revealed_question(k: Klass) -> int:
    """A question the phone answered and the lecturer revealed; its number."""
    for page in (k.lecturer, k.a):
        on_lecture(page)
    no_open_question(k)
    _, qid = ask(k)
    bar(k.a, qid).get_by_role("radio", name="mistake", exact=True).tap()
    expect(bar(k.a, qid)).to_contain_text("Counted: you said mistake.")
    key(k.lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    expect(key(k.lecturer, "room_ask")).to_be_visible(timeout=10_000)
    return qid


def test_the_challenge_reaches_the_phone_and_one_tap_opens_the_lab_with_the_numbers_in_view(
    klass,  # noqa: F811 (pytest's fixture, imported above)
):
    k = klass
    ensure_joined(k)
    qid = a_revealed_question(k)
    phone = k.a
    expect(main(phone)).to_contain_text("Following the lecturer of class")
    # the lecturer opens the challenge (on the class page, under the projector's screen)
    key(k.lecturer, "room_strip")  # the lecturer is on Step by step: the class page next
    k.lecturer.goto(f"{k.url}/room")
    expect(key(k.lecturer, "room_ch_open").or_(key(k.lecturer, "room_ch_close"))).to_be_visible(
        timeout=30_000
    )
    if key(k.lecturer, "room_ch_open").count():
        key(k.lecturer, "room_ch_open").get_by_role("button", name="Open the challenge").click()
    expect(main(k.lecturer)).to_contain_text(re.compile(r"Challenge \d+ \(open\)"))
    k.challenge = True
    # Step by step on the phone says so, at the top of the page, with one tap to the lab
    phone.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
    call = key(phone, "room_challenge_call")
    expect(call).to_contain_text("The lecturer's margin challenge is open", timeout=15_000)
    expect(call).to_contain_text("at most 10 points, γ ≥ 0.1")
    on_screen(phone, call.get_by_role("link", name="Open the margin lab"))
    phone.screenshot(path=SHOTS / "challenge_call_phone_390x844.png")
    laptop = k.b  # and on a 1280×720 laptop
    laptop.set_viewport_size(LAPTOP_SMALL)
    on_lecture(laptop)
    laptop.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
    link = key(laptop, "room_challenge_call").get_by_role("link", name="Open the margin lab")
    expect(link).to_be_visible(timeout=15_000)
    on_screen(laptop, link)
    laptop.screenshot(path=SHOTS / "challenge_call_laptop_1280x720.png")
    laptop.set_viewport_size({"width": 1366, "height": 768})
    call.get_by_role("link", name="Open the margin lab").tap()
    expect(phone.locator(".pt").first).to_be_visible(timeout=30_000)
    expect(phone.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true")
    run_ended(phone)
    # the question revealed before is one line; the lab's numbers are on the first screen
    done = key(phone, f"room_done_{qid}")
    expect(done).to_contain_text(
        re.compile(rf"Question {qid}: (✓ right|✗ not this time) · it was (a|no) mistake, you said")
    )
    assert done.bounding_box()["height"] < 45, done.bounding_box()  # one line
    expect(done.get_by_text("Hide this question")).not_to_be_visible()  # folded
    assert phone.evaluate(f"() => {MAIN}.scrollTop") == 0
    phone.screenshot(path=SHOTS / "margin_lab_after_the_call_phone_390x844.png")
    for part in (".mlab .nums", ".mlab .status"):
        print(part, on_screen(phone, phone.locator(part)))
    # the first edit stops following: said once, in the page's flow, not over the numbers
    bg = phone.locator(".mlab rect.bg").bounding_box()
    points = phone.locator(".pt").count()
    phone.touchscreen.tap(bg["x"] + 14, bg["y"] + bg["height"] - 14)  # an empty corner
    expect(phone.locator(".pt")).to_have_count(points + 1)  # a +1 point there
    note = key(phone, "room_stopped")
    expect(note).to_contain_text("you no longer follow the lecturer.", timeout=15_000)
    expect(phone.get_by_test_id("stToast")).to_have_count(0)
    expect(phone.locator(".mlab .status")).to_contain_text("Added point")  # the lab's own line
    boxes = [phone.locator(p).bounding_box() for p in (".mlab .nums", ".mlab .status")]
    n = note.bounding_box()
    for b in boxes:
        assert n["y"] + n["height"] <= b["y"] or b["y"] + b["height"] <= n["y"], (n, b)
    phone.screenshot(path=SHOTS / "margin_lab_told_once_phone_390x844.png")
    # the phone's sidebar: a link to another page closes it behind itself
    phone.get_by_test_id("stExpandSidebarButton").tap()
    expect(phone.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "false")
    phone.get_by_test_id("stSidebar").get_by_role("link", name="Step by step").tap()
    expect(phone.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect(phone.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true")
    expect(main(phone)).to_contain_text("you no longer follow the lecturer.")  # the follow line
    no_exception(k.lecturer, phone)


def test_a_following_students_phone_shows_the_chart_first_and_none_of_the_lecturers_controls(
    klass,  # noqa: F811 (pytest's fixture, imported above)
):
    """A student following the lecturer on a 390×844 phone, a question open: the data
    chart is whole on the first screen, under the class strip and above the answer bar,
    the step's words under it, and no Reset, Step, Play, scrubber or presenter button on the
    page. Explore on my own brings the whole instrument back."""
    k = klass
    ensure_joined(k)
    phone = k.a
    for page in (k.lecturer, phone):
        on_lecture(page)
    follow = key(phone, "room_follow").get_by_role("button", name="Follow the lecturer")
    if follow.count():
        follow.click()
    expect(main(phone)).to_contain_text("Following the lecturer of class")
    no_open_question(k)
    _, qid = ask(k)
    expect(bar(phone, qid)).to_contain_text(f"Question {qid}", timeout=FOLLOW_MS)
    settled(bar(phone, qid))
    phone.evaluate(f"() => {MAIN}.scrollTo(0, 0)")  # the first screen, as the page opened
    lec = phone.locator(".lec")
    for control in (".bar", ".scrub", ".tools", "[data-act]", "input[type=range]", "select"):
        expect(lec.locator(control)).to_have_count(0)
    chart = phone.locator(".lec .fig g.panel").first  # the data, the "?" ring on it
    box = on_screen(phone, chart)
    answers = bar(phone, qid).bounding_box()
    assert box["y"] + box["height"] <= answers["y"] + 1, (box, answers)  # not under the bar
    strip = key(phone, "room_unfollow")
    assert strip.bounding_box()["y"] < box["y"]  # the strip, then the chart
    assert status(phone).bounding_box()["y"] > box["y"]  # the step's words under the chart
    on_screen(phone, phone.locator(".lec svg circle.asked"))
    phone.screenshot(path=SHOTS / "following_phone_390x844.png")
    # exploring: the student's own instrument, every control back
    strip.get_by_role("button", name="Explore on my own").click()
    expect(main(phone)).to_contain_text("Exploring on your own")
    expect(lec.locator("[data-act=step]")).to_have_count(1, timeout=15_000)
    expect(lec.locator(".scrub input[type=range]")).to_have_count(1)
    key(phone, "room_follow").get_by_role("button", name="Follow the lecturer").click()
    expect(lec.locator("[data-act=step]")).to_have_count(0, timeout=15_000)
    no_exception(k.lecturer, phone)


def test_an_answer_the_server_refuses_or_never_gets_is_said_in_the_bar_and_not_shown_counted(
    klass,  # noqa: F811 (pytest's fixture, imported above)
):
    """The phone's answer, refused by the server (too many at once) and then lost to the
    network: each time the bar says why in a sentence, the choice goes back to what was
    counted, and the next tap counts."""
    k = klass
    ensure_joined(k)
    for page in (k.lecturer, k.a):
        on_lecture(page)
    no_open_question(k)
    _, qid = ask(k)
    expect(bar(k.a, qid)).to_contain_text(f"Question {qid}", timeout=FOLLOW_MS)
    mistake = bar(k.a, qid).get_by_role("radio", name="mistake", exact=True)
    busy = json.dumps({"error": card_route.BUSY})

    def refuse(route: Route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=429, content_type="application/json", body=busy)
        else:
            route.continue_()

    def lose(route: Route) -> None:
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    for stand_in, said in ((refuse, "Many answers at once"), (lose, "could not be sent")):
        k.a.route(f"**{card_route.PATH}*", stand_in)
        mistake.tap()
        expect(bar(k.a, qid).get_by_role("alert")).to_contain_text(said)
        expect(mistake).to_have_attribute("aria-checked", "false")  # as counted: nothing
        expect(bar(k.a, qid)).not_to_contain_text("Counted")
        k.a.unroute(f"**{card_route.PATH}*")
    mistake.tap()
    expect(bar(k.a, qid)).to_contain_text("Counted: you said mistake.")
    expect(bar(k.a, qid).get_by_role("alert")).to_have_count(0)
    expect(mistake).to_have_attribute("aria-checked", "true")
    no_exception(k.lecturer, k.a)
