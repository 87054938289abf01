"""A class on its light page (``/join``, ``ui.lecture.light``): what the QR code opens on a
student's phone. A lecturer on a 1366×768 laptop runs Step by step; student A joins on a
390×844 touch phone by the join link, student B on a 1280×720 laptop by typing the code.

What a student checks there is what they check on the Streamlit pages (test_room.py): the
join form, the lecturer's step on their own chart, Play, a question's card and both its
votes, graded at the reveal, the challenge's announcement, a reload that keeps the seat,
*Explore on my own* into the full app; and a dropped network said on the page, the last
step kept on screen. Screenshots go to the browser tests' screenshots folder.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.chart_reads import WORDS_PAST_THE_EDGE
from browser.classroom import (
    FOLLOW_MS,
    Klass,
    ask,
    card,
    key,
    main,
    no_exception,
    on_class_page,
    on_lecture,
    same_step,
    seat_of_browser,
    start_class,
    step,
)
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import button, status, status_t
from browser.test_room_phone import bar, no_open_question, settled
from browser.test_room_rounds import vote

pytestmark = [pytest.mark.browser]

LAPTOP_SMALL = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def klass(browser, app_url):
    contexts = [browser.new_context(**DEVICES[d]) for d in ("laptop", "phone", "laptop")]
    k = Klass(*(c.new_page() for c in contexts), url=app_url)
    k.b.set_viewport_size(LAPTOP_SMALL)
    errors: list[str] = []
    for page in (k.a, k.b):
        page.on("pageerror", lambda e: errors.append(str(e)))
    k.errors = errors  # type: ignore[attr-defined]
    yield k
    for c in contexts:
        c.close()


def chart(page: Page):
    return page.locator("#hall-player .lec .fig")


def joined(k: Klass) -> None:
    """The class started and both students in it on the light page: A by the join link
    (the code filled in), by keyboard; B by typing the code, a wrong one first."""
    if k.joined:
        return
    start_class(k)
    on_lecture(k.lecturer)
    code = k.code.replace("-", "")
    k.a.goto(f"{k.url}/join?room={code}")
    expect(k.a.get_by_label("Class code")).to_have_value(k.code, timeout=30_000)
    k.a.get_by_label("Your nickname").click()
    k.a.keyboard.type("Ada")
    k.a.keyboard.press("Enter")
    k.b.goto(f"{k.url}/join")
    form = k.b.locator("#hall-join")
    expect(form).to_be_visible(timeout=30_000)
    k.b.get_by_label("Class code").fill("ZZZZ-ZZZZ")
    k.b.get_by_label("Your nickname").fill("Bo")
    k.b.get_by_role("button", name="Join the class").click()
    expect(k.b.get_by_role("alert")).to_contain_text("No class ZZZZ-ZZZZ is open")
    k.b.get_by_label("Class code").fill(k.code.lower())
    k.b.get_by_role("button", name="Join the class").click()
    for page, nick in ((k.a, "Ada"), (k.b, "Bo")):
        expect(page.locator("#hall-class")).to_have_text(
            f"Class {k.code}: you joined as {nick}. The chart follows the lecturer.",
            timeout=15_000,
        )
        expect(chart(page)).to_be_visible(timeout=15_000)
    k.joined = True


def test_two_students_join_on_the_light_page_and_follow_the_lecturers_steps(klass):
    k = klass
    joined(k)
    t = step(k.lecturer, 3)
    for s in (k.a, k.b):
        same_step(s, k.lecturer, t)
    # the phone's chart fits its screen's width, and the seat is the browser's cookie
    box = chart(k.a).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, box
    assert chart(k.a).evaluate(WORDS_PAST_THE_EDGE) == []  # the panels' titles whole
    assert seat_of_browser(k.a).startswith(k.code.replace("-", "") + ".")
    # the lecturer's strip counts both (it runs again on its own heartbeat)
    expect(key(k.lecturer, "room_strip")).to_contain_text("2 students", timeout=60_000)
    SCREENSHOTS.mkdir(exist_ok=True)
    k.a.screenshot(path=SCREENSHOTS / "light_phone_390x844.png")
    k.b.screenshot(path=SCREENSHOTS / "light_laptop_1280x720.png")
    assert not k.errors, k.errors


def test_the_light_page_plays_along_with_the_lecturers_play(klass):
    k = klass
    joined(k)
    t0 = status_t(k.lecturer)
    button(k.lecturer, "play").click()
    expect(status(k.a)).not_to_contain_text(f"step t = {t0:,} of", timeout=FOLLOW_MS)
    k.a.wait_for_timeout(1500)
    button(k.lecturer, "play").click()  # Pause
    k.lecturer.wait_for_timeout(500)
    t = status_t(k.lecturer)
    assert t > t0 + 2, (t0, t)
    for s in (k.a, k.b):
        same_step(s, k.lecturer, t)


def test_both_votes_are_answered_on_the_light_page_and_graded_at_the_reveal(klass):
    k = klass
    joined(k)
    lecturer = k.lecturer
    t, qid = ask(k)
    for s in (k.a, k.b):
        expect(card(s, qid)).to_contain_text("Will it be a mistake?", timeout=FOLLOW_MS)
        expect(s.locator("#hall-player .lec svg circle.asked")).to_have_count(1)
    # on the phone, the answers are on the screen, in the bar pinned under the chart
    settled(bar(k.a, qid))
    for option in bar(k.a, qid).get_by_role("radio").all():
        expect(option).to_be_in_viewport(ratio=1.0)
    k.a.screenshot(path=SCREENSHOTS / "light_question_phone_390x844.png")
    vote(k.a, qid, "mistake", None, "Counted: you said mistake.")
    vote(k.b, qid, "no mistake", None, "Counted: you said no mistake.")
    strip = key(lecturer, "room_strip")
    expect(strip).to_contain_text(
        re.compile(rf"Question {qid}: .*2 of 2 answered"), timeout=FOLLOW_MS
    )
    key(lecturer, "room_again").get_by_role("button", name="Vote again").click()
    expect(strip).to_contain_text(re.compile(r"Second vote, .*0 of 2 answered"), timeout=10_000)
    vote(k.a, qid, "no mistake", None, "Counted (second vote): you said no mistake.")
    vote(k.b, qid, "no mistake", None, "Counted (second vote): you said no mistake.")
    expect(strip).to_contain_text(re.compile(r"Second vote, .*2 of 2 answered"), timeout=FOLLOW_MS)
    key(lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    expect(status(lecturer)).to_contain_text(f"step t = {t + 1:,} of", timeout=10_000)
    for s in (k.a, k.b):
        done = key(s, f"room_done_{qid}")
        expect(done).to_contain_text(f"Question {qid}: ", timeout=FOLLOW_MS)
        done.get_by_text(f"Question {qid}: ").click()
        expect(card(s, qid)).to_contain_text("Answer:")
        expect(card(s, qid)).to_contain_text("Your second vote: no mistake")
        same_step(s, lecturer, t + 1)  # the reveal steps the lecture, on the light page too
    no_exception(lecturer)
    assert not k.errors, k.errors


def test_the_challenge_is_announced_and_the_full_app_opens_in_the_same_seat(klass):
    k = klass
    joined(k)
    lecturer = k.lecturer
    on_class_page(lecturer)
    opener = key(lecturer, "room_ch_open").get_by_role("button", name="Open the challenge")
    opener.scroll_into_view_if_needed()
    opener.click()
    for s in (k.a, k.b):
        box = s.locator("#hall-challenge")
        expect(box).to_contain_text("The lecturer's margin challenge is open:", timeout=FOLLOW_MS)
        expect(box.get_by_role("link", name="Open the margin lab")).to_have_attribute(
            "href", f"/margin?room={k.code.replace('-', '')}"
        )
    key(lecturer, "room_ch_close").get_by_role("button").click()
    expect(k.a.locator("#hall-challenge")).to_be_hidden(timeout=FOLLOW_MS)
    on_lecture(lecturer)
    t = status_t(lecturer)
    same_step(k.b, lecturer, t)
    # a reload keeps the seat: the page opens in the class, no form
    k.b.reload()
    expect(chart(k.b)).to_be_visible(timeout=15_000)
    expect(k.b.locator("#hall-join")).to_be_hidden()
    # Explore on my own: the full app, in the same seat, at the lecture's step
    k.b.get_by_role("link", name="Explore on my own").click()
    expect(k.b).to_have_url(re.compile(r"/lecture\?.*room="), timeout=15_000)
    expect(main(k.b)).to_contain_text("Following the lecturer of class", timeout=60_000)
    expect(status(k.b)).to_contain_text(f"step t = {t:,} of", timeout=FOLLOW_MS)
    # the same seat, not a third
    expect(key(lecturer, "room_strip")).not_to_contain_text("3 students", timeout=1_000)
    assert seat_of_browser(k.b).startswith(k.code.replace("-", "") + ".")


def test_a_phone_whose_network_drops_says_it_reconnects_and_keeps_the_last_step(klass):
    k = klass
    joined(k)
    on_lecture(k.lecturer)
    t = status_t(k.lecturer)
    same_step(k.a, k.lecturer, t)
    k.a.context.set_offline(True)
    try:
        expect(k.a.locator("#hall-status")).to_contain_text("Reconnecting", timeout=15_000)
        expect(status(k.a)).to_contain_text(f"step t = {t:,} of")  # still on screen
        k.a.screenshot(path=SCREENSHOTS / "light_offline_phone_390x844.png")
        t = step(k.lecturer, 2)
    finally:
        k.a.context.set_offline(False)
    expect(k.a.locator("#hall-status")).to_have_text("", timeout=30_000)
    same_step(k.a, k.lecturer, t)


def lecturer_key(k: Klass) -> str:
    """The class's secret, from the lecturer's browser's class cookie ("<code>.<secret>")."""
    jar = {c["name"]: c["value"] for c in k.lecturer.context.cookies()}
    return jar["perceptron_class"].split(".", 1)[1]


def test_the_lecturers_phone_is_the_projectors_remote(klass, browser):
    k = klass
    joined(k)
    lecturer = k.lecturer
    on_lecture(lecturer)
    no_open_question(k)
    code = k.code.replace("-", "")
    phone = browser.new_context(**DEVICES["phone"]).new_page()
    try:
        # a key that is not the class's changes nothing and says so
        phone.goto(f"{k.url}/remote?room={code}#key=not-the-key")
        expect(phone.get_by_role("alert")).to_contain_text("not this class's", timeout=30_000)
        t = status_t(lecturer)
        phone.get_by_role("button", name="Step ▶").tap()
        expect(phone.get_by_role("alert")).to_contain_text("not this class's")
        expect(status(lecturer)).to_contain_text(f"step t = {t:,} of")

        phone.goto(f"{k.url}/remote?room={code}#key={lecturer_key(k)}")
        expect(phone.locator("#rm-step")).to_have_text(re.compile(rf"^Step t = {t} of "))
        assert "key" not in phone.url  # the key is dropped from the address bar
        SCREENSHOTS.mkdir(exist_ok=True)
        phone.screenshot(path=SCREENSHOTS / "remote_phone_390x844.png")
        for name, want in (("Step ▶", t + 1), ("Step ▶", t + 2), ("◀ Back", t + 1)):
            phone.get_by_role("button", name=name).tap()
            expect(status(lecturer)).to_contain_text(f"step t = {want:,} of", timeout=5_000)
            expect(phone.locator("#rm-step")).to_have_text(
                re.compile(rf"^Step t = {want} of "), timeout=FOLLOW_MS
            )
        t = want
        for s in (k.a, k.b):
            same_step(s, lecturer, t)
        # Ask, the count of answers on the remote, Vote again, Reveal
        phone.get_by_role("button", name="Ask the class").tap()
        strip = key(lecturer, "room_strip")
        expect(strip).to_contain_text(re.compile(r"Question \d+: will point"), timeout=10_000)
        qid = int(re.search(r"Question (\d+)", strip.inner_text()).group(1))
        expect(phone.locator("#rm-question")).to_contain_text(f"Question {qid}: 0 of 2 answered")
        vote(k.a, qid, "mistake", None, "Counted: you said mistake.")
        expect(phone.locator("#rm-question")).to_contain_text("1 of 2 answered", timeout=10_000)
        phone.get_by_role("button", name="Vote again").tap()
        expect(strip).to_contain_text(re.compile(r"Second vote, .*0 of 2 answered"), timeout=10_000)
        phone.get_by_role("button", name="Reveal").tap()
        expect(status(lecturer)).to_contain_text(f"step t = {t + 1:,} of", timeout=10_000)
        expect(key(k.a, f"room_done_{qid}")).to_contain_text(f"Question {qid}: ", timeout=FOLLOW_MS)
        same_step(k.a, lecturer, t + 1)
        # Play, then Pause: the projector plays and stops, its followers with it
        phone.get_by_role("button", name="Play").tap()
        expect(status(lecturer)).not_to_contain_text(f"step t = {t + 1:,} of", timeout=10_000)
        expect(phone.get_by_role("button", name="Pause")).to_be_visible(timeout=10_000)
        phone.get_by_role("button", name="Pause").tap()
        expect(phone.get_by_role("button", name="Play")).to_be_visible(timeout=10_000)
        lecturer.wait_for_timeout(500)
        t = status_t(lecturer)
        same_step(k.a, lecturer, t)
        phone.get_by_role("button", name="Next mistake »").tap()  # (or the run's end)
        expect(status(lecturer)).not_to_contain_text(f"step t = {t:,} of", timeout=5_000)
        no_exception(lecturer)
    finally:
        phone.context.close()
