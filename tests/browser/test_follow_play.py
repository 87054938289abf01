"""The lecturer presses Play and a student follows, in real browsers: the lecturer at a
1280×720 projector, the student on a 390×844 phone, one app server and its store.

What the student sees: while the lecturer's player plays at 8 steps/s, the phone's chart
plays along with the
projector's (each page's step logged every 20 ms; ``STEPS_APART`` says how close); when the
lecturer pauses, the phone stops on the lecturer's step and is still following.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser.classroom import Klass, join, key, main, on_lecture, start_class
from browser.devices import DEVICES, SCREENSHOTS
from browser.test_lecture import button, chart_t, status

# serial: it times two pages against each other, not under the parallel tests' load
pytestmark = [pytest.mark.browser, pytest.mark.serial]

SHOTS = SCREENSHOTS  # the browser tests' screenshots, to look at
QUERY = "data_name=xor&lec_max_epochs=100"  # 4,000 steps: Play crosses a window's end
START = 40  # Play stays inside the window 0..100 (after a window's fetch the phone's page
# was 5 steps behind for a while: each fetch re-anchors it with its full page run's delay)
CATCH_UP_S = 1.5  # the student's page plays along within this of the lecturer's Play
# How far apart the two pages may be while both play: the goal. The phone's page takes each
# message some 0.25 s after its server sent it (the rest of the page run, the component's
# mount), which player.js's lateness adds to the Play's elapsed time; the lecturer's Play
# starts after a count-in, by when the phone has heard of it. Without play-along the phone
# stood at the start while the lecturer went 40 steps on.
STEPS_APART = 1
# On a busy machine a page's paint now and then comes a frame or two late (a collection, a
# layout): a sample or two a step further apart than that, never more, is not a page that
# lost the Play. Persistent lag fails as before.
BLIPS = 0.02  # of the samples, at most, one step further apart than STEPS_APART
PLAY_S = 5.0  # how long the lecturer plays
FOLLOW_MS = 3_000


@pytest.fixture
def klass(browser, app_url):
    projector = browser.new_context(viewport={"width": 1280, "height": 720})
    phone = browser.new_context(**DEVICES["phone"])
    # one page a person, each in front (a second tab in a context would leave the first in
    # the background, where chromium runs its animation frames twice a second)
    student = phone.new_page()
    k = Klass(projector.new_page(), student, student, url=app_url)
    yield k
    projector.close()
    phone.close()


# Each page keeps a log of the step its player shows (the player's state, set as it
# paints) every 20 ms, with the time by the machine's clock (both browsers run on it): read
# afterwards, so that sampling costs the pages nothing and a busy test machine delays no read.
RECORD = """() => {
  const log = (window.__stepLog = []);
  setInterval(() => {
    const S = window.__perceptronLecture;
    if (S && S.data) log.push([performance.timeOrigin + performance.now(), S.t, S.pending]);
  }, 20);
}"""


def shown_at(log: list[list[float]], at: float) -> tuple[int, bool]:
    """The step a page showed at time ``at`` (its last sample before, in ms), and whether it
    was waiting for its next window then."""
    before = [(int(t), bool(waiting)) for when, t, waiting, *_ in log if when <= at]
    return before[-1] if before else (-1, False)


def test_a_follower_plays_along_with_the_lecturer_and_stops_on_the_lecturers_step(klass):
    k = klass
    lecturer, student = k.lecturer, k.a
    start_class(k)
    code = k.code
    student.goto(f"{k.url}/room?room={code.replace('-', '')}")
    expect(student.get_by_test_id("stForm").get_by_label("Class code")).to_have_value(
        code, timeout=60_000
    )
    join(student, "Pat")
    expect(student.locator("h1")).to_have_text(f"Class {code}", timeout=15_000)
    # the lecturer's lecture on a long run, at step 92 (the lecturer's cookie keeps the class)
    lecturer.goto(f"{k.url}/lecture?{QUERY}&lec_t={START}")
    expect(lecturer.locator(".lec .fig")).to_be_visible(timeout=30_000)
    expect(key(lecturer, "room_strip")).to_contain_text(f"Class {code} · 1 student")
    on_lecture(student)
    expect(main(student)).to_contain_text(f"Following the lecturer of class {code}")
    expect(status(student)).to_contain_text(f"step t = {START} of 4,000", timeout=FOLLOW_MS)
    assert lecturer.locator(".lec select.speed").input_value() == "8"

    for page in (lecturer, student):
        page.evaluate(RECORD)
    button(lecturer, "play").click()
    pressed = lecturer.evaluate("() => performance.timeOrigin + performance.now()")
    lecturer.wait_for_timeout(1500)
    SHOTS.mkdir(parents=True, exist_ok=True)  # while playing
    lecturer.screenshot(path=SHOTS / "playing_lecturer_1280x720.png")
    student.screenshot(path=SHOTS / "playing_student_390x844.png")
    lecturer.wait_for_timeout(PLAY_S * 1000 - 1500)
    button(lecturer, "play").click()  # Pause
    ended = lecturer.evaluate("() => performance.timeOrigin + performance.now()")
    stopped = chart_t(lecturer)
    lecturer.wait_for_timeout(300)
    assert chart_t(lecturer) == stopped  # paused
    lec_log, my_log = (page.evaluate("() => window.__stepLog") for page in (lecturer, student))

    # the student's page plays along within CATCH_UP_S and, from then on, while the lecturer
    # plays, shows the lecturer's step give or take one; across the end of the window each
    # page holds its last step until the server sends the next window, then both are back on
    # the Play's clock (the samples while either page waits are not compared)
    pairs = []
    for at, mine, waiting, *_ in my_log:
        if pressed <= at <= ended:
            lec, lec_waiting = shown_at(lec_log, at)
            pairs.append((round((at - pressed) / 1000, 2), lec, mine, waiting or lec_waiting))
    caught = next((i for i, (_, _, mine, _) in enumerate(pairs) if mine > START), None)
    assert caught is not None and pairs[caught][0] < CATCH_UP_S, pairs[:200:4]
    assert max(p[2] for p in pairs) >= START + 30, pairs[-20:]  # it played along to the end
    compared = [p for p in pairs[caught:] if not p[3]]
    off = [p for p in compared if abs(p[1] - p[2]) > STEPS_APART]
    far = [p for p in off if abs(p[1] - p[2]) > STEPS_APART + 1]
    waited = sum(p[3] for p in pairs) * 0.02
    assert not far and len(off) <= BLIPS * len(compared), (
        f"more than {STEPS_APART} steps apart while playing: {off} of {len(compared)} "
        f"({waited:.2f} s waited for a window)"
    )
    gaps = sorted(abs(p[1] - p[2]) for p in pairs[caught:] if not p[3])
    ahead = sorted(p[2] - p[1] for p in pairs[caught:] if not p[3])  # the phone's lead
    print(
        f"steps apart while playing: median {gaps[len(gaps) // 2]}, max {gaps[-1]}; the "
        f"phone's lead over the projector: {ahead[0]} to {ahead[-1]}, median "
        f"{ahead[len(ahead) // 2]}, caught up after {pairs[caught][0]} s"
    )
    # Pause: the student stops on the lecturer's step, still following
    expect(status(student)).to_contain_text(f"step t = {stopped:,} of", timeout=FOLLOW_MS)
    student.wait_for_timeout(1000)
    assert chart_t(student) == stopped
    expect(main(student)).to_contain_text(f"Following the lecturer of class {code}")
    expect(student.get_by_test_id("stException")).to_have_count(0)
    expect(lecturer.get_by_test_id("stException")).to_have_count(0)
