"""Peer instruction in real browsers: a lecturer on a 1280×720 projector in presenter mode,
student A on a phone, student B on a laptop, one app server and its store.

What each person checks on screen: while the class votes the projector's strip says how
many answered, not what; "Vote again" opens a second vote (A's card shows A's
first answer); the reveal shows how many were right in each vote; A's card grades each
part of each answer on its own; closing the class leaves the lecturer a recap of both
votes and the challenge, with the summary CSV.

Screenshots to look at go to tests/browser/screenshots/.
"""

from __future__ import annotations

import csv
import io
import re
import time
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Page, expect

import perceptron_store as store
from browser.classroom import FOLLOW_MS, Klass, card, ensure_joined, key, main, no_exception
from browser.devices import DEVICES, MAIN, SCREENSHOTS
from browser.test_lecture import status
from perceptron_core import DATASETS
from ui.app import state
from ui.classmode import classroom as cr
from ui.classmode import entries as en
from ui.classmode.summary import SUMMARY_COLUMNS
from ui.compute import runs
from ui.lecture.question import at_step
from ui.lecture.steps import run_settings

pytestmark = [pytest.mark.browser]


def turning_mistake() -> int:
    """The first step t of the app's default lecture whose next example is a mistake that
    turns the line (the first mistake, from w = 0, only makes it appear)."""
    ss: dict = {}
    state.init(ss, {})
    name = ss["data_name"]
    params = tuple(
        (p.name, float(ss[state.param_key(name, p.name)])) for p in DATASETS[name].params
    )
    X, y = runs.dataset(name, int(ss["data_n"]), int(ss["data_seed"]), params)
    run = runs.lecture_run(X, y, run_settings(ss, X)[0])
    for t in range(run.trace.n_steps):
        q = at_step(run, t)
        if not isinstance(q, str) and q.mistake and q.turn != "none":
            return t
    raise AssertionError("the default lecture has no mistake that turns the line")


def shot(page: Page, name: str, *, top: bool = False) -> None:
    """A screenshot to look at (``top``: of the page's top, else where it is scrolled)."""
    if top:
        page.evaluate(f"() => {MAIN}.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 300)))")
    page.screenshot(path=SCREENSHOTS / f"rounds_{name}.png")


ANSWERED_MS = 15_000  # an answer's "Counted" (how fast it comes: test_room's FOLLOW_MS)


def vote(page: Page, qid: int, said: str, turn: str | None, counted: str) -> None:
    """Answer on the card: mistake or not, and (if given) which way, until it says
    ``counted``."""
    box = card(page, qid)
    box.get_by_role("radio", name=said, exact=True).click()
    if turn is not None:
        expect(box).to_contain_text(counted.split(",")[0], timeout=ANSWERED_MS)
        box.get_by_role("radio", name=turn, exact=True).click()
    expect(box).to_contain_text(counted, timeout=ANSWERED_MS)


@pytest.fixture
def klass(browser, app_url):
    contexts = [browser.new_context(**DEVICES[d]) for d in ("laptop", "phone", "laptop")]
    k = Klass(*(c.new_page() for c in contexts), url=app_url)
    yield k
    for c in contexts:
        c.close()


def test_a_question_voted_twice_is_revealed_graded_part_by_part_and_recapped(klass):
    k = klass
    t = turning_mistake()
    ensure_joined(k)  # the lecturer started the class; A by the link, B by the code
    lecturer, a, b = k.lecturer, k.a, k.b
    s = store.open_store()  # the server's store (the tests' PERCEPTRON_STORE)
    code = cr.normal_code(k.code)
    assert code is not None
    # a challenge (the recap lists its results)
    opener = key(lecturer, "room_ch_open").get_by_role("button", name="Open the challenge")
    opener.scroll_into_view_if_needed()
    opener.click()
    expect(key(lecturer, "room_ch_close")).to_be_visible(timeout=10_000)

    # the projector: Step by step in presenter mode, at a step whose next example turns
    lecturer.set_viewport_size({"width": 1280, "height": 720})
    lecturer.goto(f"{k.url}/lecture?app_presenter=1&lec_t={t}")
    expect(lecturer.locator(".lec.presenter .fig")).to_be_visible(timeout=30_000)
    strip = key(lecturer, "room_strip")
    expect(strip).to_contain_text(f"Class {k.code}", timeout=15_000)
    expect(status(lecturer)).to_contain_text(f"step t = {t:,} of")
    for page in (a, b):  # the students follow the lecturer to Step by step
        main(page).get_by_role("link", name="Follow the lecturer step by step").click()
        expect(status(page)).to_contain_text(f"step t = {t:,} of", timeout=30_000)

    key(lecturer, "room_ask").get_by_role("button", name="Ask the class").click()
    expect(strip).to_contain_text(re.compile(r"Question (\d+): 0 of 2 answered"), timeout=10_000)
    qid = int(re.search(r"Question (\d+)", strip.inner_text()).group(1))
    q = cr.load_room(s, code, fresh=True).question
    assert q is not None and q.mistake and q.turn == "cw", q  # the step chosen above
    # the first vote: A "mistake, counter-clockwise" (half right), B "no mistake"
    vote(a, qid, "mistake", "counter-clockwise", "Counted: you said mistake, counter-clockwise.")
    vote(b, qid, "no mistake", None, "Counted: you said no mistake.")
    expect(strip).to_contain_text(f"Question {qid}: 2 of 2 answered", timeout=FOLLOW_MS)
    expect(strip).not_to_contain_text("mistake 1")  # how many answered, not what
    expect(strip).not_to_contain_text("%")
    for page in (a, b):  # nor does a student's page say what the others answered
        expect(card(page, qid)).not_to_contain_text("%")
        expect(card(page, qid)).not_to_contain_text("answered")
    shot(lecturer, "presenter_question_1280x720")

    # Vote again: the first vote is kept; A's card shows A's first answer
    key(lecturer, "room_again").get_by_role("button", name="Vote again").click()  # presenter
    expect(strip).to_contain_text(f"Question {qid} (vote 2): 0 of 2 answered", timeout=10_000)
    expect(card(a, qid)).to_contain_text("vote again", timeout=FOLLOW_MS)
    expect(card(a, qid)).to_contain_text("Your first vote: mistake, counter-clockwise.")
    vote(a, qid, "mistake", "clockwise", "Counted (second vote): you said mistake, clockwise.")
    vote(b, qid, "mistake", None, "Counted (second vote): you said mistake.")
    expect(strip).to_contain_text(f"Question {qid} (vote 2): 2 of 2 answered", timeout=FOLLOW_MS)
    expect(strip).not_to_contain_text("%")

    # the reveal: the answer, and how many were right in each vote, on the projector
    key(lecturer, "room_reveal").get_by_role("button", name="Reveal").click()
    expect(strip).to_contain_text(
        f"Question {qid}: a mistake · right: 1 of 2 (50%) → 2 of 2 (100%)", timeout=10_000
    )
    expect(status(lecturer)).to_contain_text(f"step t = {t + 1:,} of", timeout=10_000)
    shot(lecturer, "presenter_revealed_1280x720")
    # the revealed card is one line, graded on the last vote given; unfolded, the whole card
    for student, line in (
        (a, f"Question {qid}: ✓ right · it was a mistake, you said mistake, clockwise"),
        (b, f"Question {qid}: ✓ right · it was a mistake, you said mistake"),
    ):
        done = key(student, f"room_done_{qid}")
        expect(done).to_contain_text(line, timeout=FOLLOW_MS)
        done.get_by_text(f"Question {qid}: ").click()
    # A's card: each part of each vote graded on its own, in words and marks
    mine = card(a, qid)
    expect(mine).to_contain_text("It was a mistake", timeout=FOLLOW_MS)
    expect(mine.locator("p", has_text="Your first vote:")).to_have_text(
        "Your first vote: mistake ✓ right · counter-clockwise ✗ (the line turned clockwise)."
    )
    expect(mine.locator("p", has_text="Your second vote:")).to_have_text(
        "Your second vote: mistake ✓ right · clockwise ✓ right."
    )
    expect(card(b, qid).locator("p", has_text="Your first vote:")).to_have_text(
        "Your first vote: no mistake ✗ (it was a mistake) · which way: not answered."
    )
    mine.locator("p", has_text="Your first vote:").scroll_into_view_if_needed()
    shot(a, "phone_card_revealed_390x844")
    # the lecturer's strip out of presenter mode: the two votes side by side, as bars
    lecturer.goto(f"{k.url}/lecture?app_presenter=0")
    expect(key(lecturer, "room_strip")).to_contain_text("Second vote", timeout=30_000)
    bars = key(lecturer, "room_strip").get_by_test_id("stProgress")
    expect(bars).to_have_count(4)
    expect(bars.nth(0)).to_contain_text("mistake ✓ right: 1 (50%)")
    expect(bars.nth(2)).to_contain_text("mistake ✓ right: 2 (100%)")
    shot(lecturer, "strip_revealed_1280x720")

    # a set submitted to the challenge (a third student's, straight to the store)
    room = cr.load_room(s, code, fresh=True)
    assert room is not None and room.challenge is not None
    data = store.save_dataset(s, np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, -1]))
    seat = cr.join(s, room, "Zoe")
    en.submit(s, room, en.Submission(seat, "Zoe", data, 4, 9, 12.5, 0.3, 1.6, time.time()), 1)

    # Close the class: the lecturer is left the recap, with the summary CSV
    lecturer.goto(f"{k.url}/room")
    expect(key(lecturer, "room_code")).to_be_visible(timeout=30_000)
    lecturer.get_by_text("Yes, end it for every student").click()
    key(lecturer, "room_close").get_by_role("button", name="Close the class").click()
    expect(lecturer.locator("h1")).to_have_text(
        f"Class {k.code} is closed: the recap", timeout=15_000
    )
    recap = key(lecturer, f"room_recap_q{qid}")
    expect(recap).to_contain_text("a mistake, the line turned clockwise")
    rows = recap.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("first vote")
    expect(rows.nth(1)).to_contain_text("second vote")
    expect(recap).to_contain_text("from the first vote to the second: 1 of 2 (50%) → 2 of 2 (100%)")
    expect(main(lecturer)).to_contain_text("Challenge 1:")
    expect(main(lecturer)).to_contain_text("Zoe")
    shot(lecturer, "recap_1280x720", top=True)
    with lecturer.expect_download() as dl:
        key(lecturer, "room_recap_csv").get_by_role("button").click()
    text = Path(dl.value.path()).read_text(encoding="utf-8")
    table = list(csv.DictReader(io.StringIO(text)))
    assert tuple(table[0]) == SUMMARY_COLUMNS
    votes = [r for r in table if r["kind"] == "question" and r["number"] == str(qid)]
    assert [
        (r["vote"], r["answered"], r["right on mistake"], r["right on turn"]) for r in votes
    ] == [("1", "2", "1", "0"), ("2", "2", "2", "1")]
    assert [r["mistakes M"] for r in table if r["kind"] == "challenge"] == ["9"]
    assert "Zoe" not in text and "Ana" not in text
    for page in (a, b):  # the students: the class has ended
        expect(main(page)).to_contain_text(f"Class {k.code} has ended.", timeout=5_000)
    no_exception(lecturer, a, b)
