"""A class in the room in real browsers: a lecturer at a 1366×768 laptop on the
projector, student A on a phone, student B on a laptop: three browser contexts on one app
server and its store.

What each person checks on screen: the class page's QR code, code and count; a nickname
shown as typed; each student's lecture showing the lecturer's data and step (and not while
exploring alone); the question card, the live tally and the reveal; a set submitted to the
margin challenge on the projector's board, opened on Step by step in one click; a student's
forged control events refused; the summary CSV, and the class closed on every page.

The tests share one class (module-scoped contexts) and run in file order; each first puts
the pages where it needs them, so that one can also run alone (``-k``).
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit.elements.lib.utils import _compute_element_id
from streamlit.proto.WidgetStates_pb2 import WidgetState

from browser.classroom import (
    BOLD_NICK,
    CHALLENGE_SET,
    FOLLOW_MS,
    KEEP_SOCKETS,
    NICK,
    Klass,
    answer,
    ask,
    card,
    ensure_joined,
    fits,
    forge,
    key,
    last_state,
    main,
    no_exception,
    on_class_page,
    on_lecture,
    pressed,
    same_step,
    seat_of_browser,
    shots,
    sidebar,
    sidebar_link,
    start_class,
    step,
)
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import status, status_t
from tests.browser.conftest import uploader
from ui.classmode.summary import SUMMARY_COLUMNS

# One class (a lecturer and two students) for the module, its tests in order; a follower
# shows each change of the lecturer's within FOLLOW_MS, a bound of correctness on a busy
# machine (the speed, 100 followers at once, is benchmarks/load.py --room's).
pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def klass(browser, app_url):
    contexts = [browser.new_context(**DEVICES[d]) for d in ("laptop", "phone", "laptop")]
    contexts[2].add_init_script(KEEP_SOCKETS)
    k = Klass(*(c.new_page() for c in contexts), url=app_url)
    k.lecturer.on("websocket", k.record_sent(k.lecturer_sent))
    # the lecturer's browser console, shown with a failure (it names why a page that draws
    # only the strip and the glossary after "Open it" drew nothing else)
    k.lecturer.on("console", lambda m: print(f"lecturer console {m.type}: {m.text}"))
    k.lecturer.on("pageerror", lambda e: print(f"lecturer page error: {e}"))
    k.b.on("websocket", k.record_sent(k.b_sent))
    k.b.on("websocket", k.b_received)
    yield k
    for c in contexts:
        c.close()


def test_the_lecturer_starts_a_class_and_two_students_join_by_link_and_by_code(klass):
    k = klass
    start_class(k)
    page = k.lecturer
    # the projector: the QR code of the join link, the code, how to join, nobody yet
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", k.code), k.code
    qr = page.get_by_test_id("stImage").locator("img")
    expect(qr).to_have_attribute("src", re.compile(r"^data:image/svg\+xml;base64,"))
    box = qr.bounding_box()
    assert box["width"] >= 300 and abs(box["width"] - box["height"]) < 2, box
    expect(page.get_by_test_id("stImage")).to_contain_text("Scan to join")
    code_size = (
        key(page, "room_code")
        .locator("p")
        .evaluate("p => parseFloat(getComputedStyle(p).fontSize)")
    )
    assert code_size >= 48, code_size  # read from the back of the room
    said = main(page).inner_text().replace("\u2060", "")  # the word joiners that keep URLs text
    assert f"open {k.url}/join and type" in said
    expect(key(page, "room_count")).to_have_text("0 students have joined")
    shots(page, "class_page", qr, key(page, "room_code"), key(page, "room_count"))

    ensure_joined(k)  # A by the link (the code filled in), B by typing the code
    expect(main(k.a)).to_contain_text(f"You joined as {NICK}.")
    expect(sidebar(k.a)).to_contain_text(f"you joined as {NICK}")
    expect(main(k.b)).to_contain_text("You joined as Bo.")
    for student in (k.a, k.b):  # the URL carries the class; the seat is in a cookie
        expect(student).to_have_url(re.compile(rf"room={k.code.replace('-', '')}"))
        assert "seat=" not in student.url
        assert re.fullmatch(rf"{k.code.replace('-', '')}\.\w{{16}}", seat_of_browser(student))
    expect(key(page, "room_count")).to_have_text("2 students have joined", timeout=5_000)
    for p in (page, k.a, k.b):
        assert p.evaluate(BOLD_NICK) == 0
    no_exception(page, k.a, k.b)


def test_a_reload_keeps_the_seat_and_a_copied_link_gives_none(klass, browser):
    k = klass
    ensure_joined(k)
    seat = seat_of_browser(k.a)
    k.a.reload()  # the URL has the class only: the seat comes back from the cookie
    expect(k.a.locator("h1")).to_have_text(f"Class {k.code}", timeout=60_000)
    expect(main(k.a)).to_contain_text(f"You joined as {NICK}.")
    assert seat_of_browser(k.a) == seat  # the same seat, not a new one
    other = browser.new_context(**DEVICES["laptop"])
    try:  # the address, copied and opened on another device: the join form, no seat
        page = other.new_page()
        page.goto(k.a.url)
        code_box = page.get_by_test_id("stForm").get_by_label("Class code")
        expect(code_box).to_have_value(k.code, timeout=60_000)
        assert seat_of_browser(page) == ""
        no_exception(page, k.a)
    finally:
        other.close()


def test_students_follow_the_lecturer_and_one_explores_alone_then_catches_up(klass):
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    on_lecture(lecturer)
    expect(key(lecturer, "room_strip")).to_contain_text(f"Class {k.code} · 2 students")
    for s in (k.a, k.b):
        on_lecture(s)
        expect(main(s)).to_contain_text(f"Following the lecturer of class {k.code}")
    # the lecturer draws new data (seed 3) and steps
    seed = sidebar(lecturer).get_by_label("seed", exact=True)
    seed.fill("3")
    seed.press("Enter")
    expect(status(lecturer)).to_contain_text("seed 3", timeout=15_000)
    expect(status(lecturer)).to_contain_text("step t = 0 of")
    t = step(lecturer, 4)
    for s in (k.a, k.b):
        same_step(s, lecturer, t)
        expect(status(s)).to_contain_text("(n = 40, seed 3)")
    # the follower's sidebar names the lecturer's dataset (its controls folded away)
    expect(sidebar(k.b)).to_contain_text(
        "The lecturer's dataset: Separable, chosen margin (n = 40, seed 3)"
    )
    # B explores alone: B's own steps, and the lecturer's next steps pass B by
    key(k.b, "room_unfollow").get_by_role("button", name="Explore on my own").click()
    expect(main(k.b)).to_contain_text("Exploring on your own")
    mine = step(k.b, 2)
    assert mine == t + 2  # B explores from the lecturer's step on B's screen, not from 0
    t = step(lecturer, 3)
    same_step(k.a, lecturer, t)  # A follows: the lecturer's new step is in the room
    k.b.wait_for_timeout(3_000)  # A has the step already: B must NOT move meanwhile
    assert status_t(k.b) == mine
    # B follows again and catches up
    key(k.b, "room_follow").get_by_role("button", name="Follow the lecturer").click()
    same_step(k.b, lecturer, t)
    expect(main(k.b)).to_contain_text("Following the lecturer of class")
    no_exception(lecturer, k.a, k.b)


def test_a_follower_whose_live_channel_drops_reconnects_and_catches_up(klass):
    """The class's live channel of a student's page closes under it (a Wi-Fi drop, a
    server's restart): the page reconnects by itself, and shows the lecturer's step,
    taken while it was away and after, with no reload."""
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    on_lecture(lecturer)
    student = k.b  # the browser whose sockets the test sees (KEEP_SOCKETS)
    on_lecture(student)
    follow = key(student, "room_follow").get_by_role("button", name="Follow the lecturer")
    if follow.count():
        follow.click()
    expect(main(student)).to_contain_text(f"Following the lecturer of class {k.code}")
    same_step(student, lecturer, status_t(lecturer))
    channels = "() => window.__sockets.filter(s => s.url.includes('/api/live')).length"
    opened = student.evaluate(channels)
    student.evaluate("() => window.__perceptronLive.ws.close()")  # the drop
    t = step(lecturer, 2)  # while the page's channel is down or coming back
    same_step(student, lecturer, t)
    reopened = student.evaluate(channels)
    assert reopened > opened, (opened, reopened)  # a new channel, not a page reload
    t = step(lecturer, 1)
    same_step(student, lecturer, t)
    no_exception(lecturer, student)


def test_the_class_answers_the_lecturers_question_and_sees_the_reveal(klass):
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    for page in (lecturer, k.a, k.b):
        on_lecture(page)
    t, qid = ask(k)
    # the projector's chart marks the example asked about (a dotted ring and "?"), and its
    # status line names it; so do the charts of the students who follow the lecturer
    point = re.search(r"will point (\d+),", key(lecturer, "room_strip").inner_text()).group(1)
    asked = lecturer.locator(".lec svg circle.asked")
    expect(asked).to_have_count(1, timeout=10_000)
    expect(status(lecturer)).to_contain_text(f"? class question: point {point}")
    ring = (asked.get_attribute("cx"), asked.get_attribute("cy"))
    for s in (k.a, k.b):  # the next example, on each student's page
        expect(card(s, qid)).to_contain_text(
            f"At step t = {t + 1} the perceptron is shown point", timeout=FOLLOW_MS
        )
        expect(card(s, qid)).to_contain_text("Will it be a mistake?")
        expect(s.locator(".lec svg circle.asked")).to_have_count(1)
    for option in card(k.a, qid).get_by_role("radio").all():  # every answer on the phone
        option.scroll_into_view_if_needed()
        fits(k.a, option)
    card(k.a, qid).scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(exist_ok=True)
    k.a.screenshot(path=SCREENSHOTS / "room_question_card_phone.png")
    answer(k.a, qid, "mistake")
    answer(k.b, qid, "no mistake")
    strip = key(lecturer, "room_strip")
    expect(strip).to_contain_text(
        re.compile(rf"Question {qid}: will point .*\?2 of 2 answered"), timeout=FOLLOW_MS
    )
    expect(strip).not_to_contain_text("50%")  # how many answered, not what, until Reveal
    shots(lecturer, "tally", strip)
    key(lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    right = []
    for s in (k.a, k.b):  # the revealed card is one line: the truth and theirs, unfolded
        done = key(s, f"room_done_{qid}")
        expect(done).to_contain_text(f"Question {qid}: ", timeout=FOLLOW_MS)
        done.get_by_text(f"Question {qid}: ").click()
        expect(card(s, qid)).to_contain_text("Answer:")
        yours = card(s, qid).locator("p", has_text="Yours:")
        expect(yours).to_have_text(
            re.compile(
                r"^Yours: (mistake|no mistake) (✓ right|✗ \(it was (a|no) mistake\)) "
                r"· which way: not answered\.$"
            )
        )
        right.append("✓ right" in yours.inner_text())
    expect(strip.get_by_test_id("stProgress")).to_have_count(2)  # the shares, at the reveal
    assert right in ([True, False], [False, True])  # A said mistake, B no mistake
    expect(card(k.a, qid)).to_contain_text("It was a mistake" if right[0] else "No mistake")
    # the reveal stepped the lecture: t + 1 on all three pages
    expect(status(lecturer)).to_contain_text(f"step t = {t + 1:,} of", timeout=10_000)
    expect(asked).to_have_count(0)  # the example asked about is now the one just shown
    shown = lecturer.locator(".lec svg circle.shown")
    assert (shown.get_attribute("cx"), shown.get_attribute("cy")) == ring
    for s in (k.a, k.b):
        same_step(s, lecturer, t + 1)
    expect(key(lecturer, "room_ask")).to_be_visible()  # the next question can be asked
    no_exception(lecturer, k.a, k.b)


def test_a_set_submitted_to_the_challenge_is_on_the_board_and_opens_in_one_click(klass, tmp_path):
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    on_class_page(lecturer)
    expect(lecturer.get_by_label("at most this many points")).to_have_value("10")
    assert float(lecturer.get_by_label("margin γ at least").input_value()) == 0.1
    # A waits on the class page, B in the margin lab: the pages tell of the challenge
    # when it opens, with no touch of theirs
    on_class_page(k.a)
    if "/margin" not in k.b.url:
        sidebar_link(k.b, "Margin lab")
    expect(k.b.locator(".pt").first).to_be_visible(timeout=30_000)
    expect(key(k.b, "mar_challenge")).to_have_count(0)
    key(lecturer, "room_ch_open").get_by_role("button", name="Open the challenge").click()
    expect(main(lecturer)).to_contain_text("(open): at most 10 points, margin γ ≥ 0.1")
    expect(main(lecturer)).to_contain_text("No submissions yet.")
    k.challenge = True
    expect(main(k.a)).to_contain_text(
        "The lecturer's challenge: with at most 10 points", timeout=FOLLOW_MS
    )
    expect(key(k.b, "mar_challenge")).to_contain_text("Challenge 1: at most 10", timeout=FOLLOW_MS)
    # A: the margin lab takes a set of 4 points
    main(k.a).get_by_role("link", name="Open the margin lab").click()
    expect(k.a.locator(".pt").first).to_be_visible(timeout=30_000)
    box = key(k.a, "mar_challenge")
    expect(box).to_contain_text("Challenge 1: at most 10 points, γ ≥ 0.1")
    expect(box).to_contain_text("This challenge takes at most 10 points; you have 40.")
    expect(box.get_by_role("button", name="Submit this set")).to_be_disabled()
    path = tmp_path / "four.csv"
    path.write_text(CHALLENGE_SET, encoding="utf-8")
    uploader(k.a).set_input_files(str(path))
    expect(k.a.locator(".pt")).to_have_count(4, timeout=15_000)
    expect(box).to_contain_text("This set: M = 27, γ = 0.219")
    box.get_by_role("button", name="Submit this set").click()
    expect(box).to_contain_text("Submitted: M = 27 mistakes", timeout=10_000)
    expect(box).to_contain_text("You are number 1 of 1 in the room.")
    # the projector's board (it refreshes every 2 s): #1 in the chart, in the best few
    expect(main(lecturer)).to_contain_text(
        "1 submission; 1 of them make at most (R/γ)² mistakes", timeout=5_000
    )
    chart = key(lecturer, "room_chart")
    expect(chart.locator("svg text.label").filter(visible=True)).to_have_text(["#1"])
    expect(key(lecturer, "room_pick").get_by_role("combobox")).to_have_value(f"#1 {NICK}: M = 27")
    best = main(lecturer).get_by_test_id("stDataFrame").locator("table[role=grid]")
    expect(best).to_have_attribute("aria-rowcount", "2")  # the header and one submission
    assert lecturer.evaluate(BOLD_NICK) == 0
    shots(lecturer, "board", chart)
    # one click opens it on Step by step: the submission's 4 points from step 0; B, who
    # follows the lecturer, sees them too
    key(lecturer, "room_open").get_by_role("button", name="Open it").click()
    expect(lecturer.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect(sidebar(lecturer)).to_contain_text(
        "Using your data: submission #1 of the challenge (4 points)."
    )
    expect(status(lecturer)).to_contain_text("step t = 0 of")
    expect(lecturer.locator(".lec .fig")).to_have_attribute(
        "aria-label", re.compile(r"of 4 points right")
    )
    on_lecture(k.b)
    same_step(k.b, lecturer, 0)
    no_exception(lecturer, k.a, k.b)


def test_a_students_forged_control_events_are_refused_and_change_nothing(klass):
    """What a student can do from their own tab: the lecturer's buttons are not drawn on
    it; the messages those buttons send, sent by the page's own script on its own websocket
    (widget ids computed from what the server told the page), change nothing.

    Every lecturer control forged over the protocol in each state of the room (no question,
    a question open, a challenge open; in the strip's fragment and as whole-page reruns),
    and forged answers, are tests/load/test_room.py's; here only the real tab's way in."""
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    for page in (lecturer, k.a, k.b):
        on_lecture(page)
    either = key(lecturer, "room_reveal").or_(key(lecturer, "room_ask"))
    expect(either.get_by_role("button")).to_be_visible(timeout=30_000)  # the strip is drawn
    if key(lecturer, "room_reveal").count():
        key(lecturer, "room_reveal").get_by_role("button").click()
    t, qid = ask(k)
    for s in (k.a, k.b):
        expect(card(s, qid)).to_contain_text("Will it be a mistake?", timeout=FOLLOW_MS)
    for name in ("Ask the class", "Reveal", "Close the class", "Open the challenge"):
        expect(k.b.get_by_role("button", name=name)).to_have_count(0)
    # a widget's id is computable: the lecturer's Ask has the id B computes from its key
    # and the main script's hash the server sent B's page
    ask_state = pressed(k.lecturer_sent, "room_ask")
    ask_id = next(w.id for w in ask_state.widget_states.widgets if w.id.endswith("-room_ask"))
    assert _compute_element_id("button", "room_ask", active_script_hash=k.b_main_hash) == ask_id
    # Reveal: the class strip's button, sent as the lecturer's page sends it (a rerun of
    # the class strip's fragment: B's own) with B's page and widget values
    reveal = last_state(k.b_sent)
    assert k.b_strip, "B's page got no question card"
    reveal.fragment_id = k.b_strip
    reveal_id = _compute_element_id("button", "room_reveal", active_script_hash=k.b_main_hash)
    reveal.widget_states.widgets.append(WidgetState(id=reveal_id, trigger_value=True))
    forge(k, reveal)
    # Close the class (ticked) and close the challenge: the class page's buttons, in a run
    # of the class page
    room_hash = k.b_page_hashes["room"]
    close = last_state(k.b_sent)
    close.ClearField("fragment_id")
    close.page_script_hash = room_hash
    sure = _compute_element_id("checkbox", "room_sure", active_script_hash=room_hash)
    close.widget_states.widgets.append(WidgetState(id=sure, bool_value=True))
    for name in ("room_close", "room_ch_close"):
        wid = _compute_element_id("button", name, active_script_hash=room_hash)
        close.widget_states.widgets.append(WidgetState(id=wid, trigger_value=True))
    forge(k, close)
    # B's session ran the class page it asked for: a student's view of a class still open
    expect(k.b.locator("h1")).to_have_text(f"Class {k.code}", timeout=10_000)
    expect(main(k.b)).to_contain_text("You joined as Bo.")
    if k.challenge:  # still open: B's class page tells of it
        expect(main(k.b)).to_contain_text("The lecturer's challenge: with at most 10 points")
    # the room is unchanged: the question is still open (A and B can answer it, the
    # lecturer's tally counts them), the lecture did not step, the class is not closed
    answer(k.a, qid, "mistake")
    on_lecture(k.b)
    expect(card(k.b, qid)).not_to_contain_text("Answer:")
    answer(k.b, qid, "mistake")
    strip = key(lecturer, "room_strip")
    expect(strip).to_contain_text(
        re.compile(rf"Question {qid}: will point .*\?2 of 2 answered"), timeout=FOLLOW_MS
    )
    expect(strip).to_contain_text(f"Class {k.code} · 2 students")
    expect(key(lecturer, "room_reveal")).to_be_visible()
    assert status_t(lecturer) == t
    no_exception(lecturer, k.a, k.b)


def test_the_lecturers_challenge_button_says_what_it_does_next(klass):
    """Once the board says the challenge is open, the lecturer's button closes it; once it
    says closed, the button opens one (the board refreshes every 2 s)."""
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    on_class_page(lecturer)
    for _ in range(2):  # open -> closed -> open, or closed -> open -> closed
        # the controls are drawn (the page may still be running): then read which it offers
        either = key(lecturer, "room_ch_close").or_(key(lecturer, "room_ch_open"))
        expect(either.get_by_role("button")).to_be_visible(timeout=30_000)
        if key(lecturer, "room_ch_close").count():
            key(lecturer, "room_ch_close").get_by_role("button").click()
            expect(main(lecturer)).to_contain_text(re.compile(r"Challenge \d+ \(closed\)"))
            expect(key(lecturer, "room_ch_open")).to_be_visible(timeout=5_000)
        else:
            key(lecturer, "room_ch_open").get_by_role("button").click()
            expect(main(lecturer)).to_contain_text(re.compile(r"Challenge \d+ \(open\)"))
            expect(key(lecturer, "room_ch_close")).to_be_visible(timeout=5_000)
    no_exception(lecturer)


def test_the_lecturer_downloads_the_summary_and_closes_the_class(klass):
    k = klass
    ensure_joined(k)
    lecturer = k.lecturer
    on_class_page(lecturer)
    with lecturer.expect_download() as dl:
        key(lecturer, "room_csv").get_by_role("button").click()
    text = Path(dl.value.path()).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == SUMMARY_COLUMNS
    assert all(len(r) == len(SUMMARY_COLUMNS) for r in rows)
    cells = {c for r in rows[1:] for c in r}
    assert "Ana" not in text and "<b>" not in text and "Bo" not in cells  # no nickname
    for student in (k.a, k.b):
        seat = seat_of_browser(student).partition(".")[2]
        assert len(seat) == 16 and seat not in text  # no seat id
    box = key(lecturer, "room_close")
    expect(box.get_by_role("button", name="Close the class")).to_be_disabled()
    lecturer.get_by_text("Yes, end it for every student").click()
    box.get_by_role("button", name="Close the class").click()
    for page in (k.a, k.b):  # every student's page: the class has ended, the strip gone
        expect(main(page)).to_contain_text(
            f"Class {k.code} has ended. The page is yours again.", timeout=5_000
        )
    for page in (lecturer, k.a, k.b):
        expect(card(page)).to_have_count(0)
        expect(key(page, "room_strip")).to_have_count(0)
    # the lecturer: the class's recap, with the summary still to download
    expect(lecturer.locator("h1")).to_have_text(f"Class {k.code} is closed: the recap")
    expect(key(lecturer, "room_recap_csv").get_by_role("button")).to_be_visible()
    no_exception(lecturer, k.a, k.b)
