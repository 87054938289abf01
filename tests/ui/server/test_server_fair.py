"""ui.server.fair: sessions that keep the server busy wait their turn; others never wait."""

import threading
import time

import pytest

from ui.server import fair

# The gate is timed with the processor's clock against the wall clock: alone, not beside
# the parallel tests.
pytestmark = pytest.mark.serial


@pytest.fixture
def as_session(monkeypatch):
    fair.reset()
    who = threading.local()
    monkeypatch.setattr(fair, "session_id", lambda: getattr(who, "id", "quiet"))
    monkeypatch.setattr(fair, "ENABLED", True)
    yield who
    fair.reset()


def work(seconds: float) -> None:
    """Use the processor for ``seconds``, as a page's run does."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def hammer(seconds: float, run: float = 0.02) -> None:
    """Runs back to back for ``seconds``, as a session that never pauses."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with fair.turn():
            work(run)


def test_a_student_stepping_now_and_then_is_not_busy(as_session):
    for _ in range(12):  # a Step of 10 ms every quarter second
        with fair.turn():
            work(0.01)
        time.sleep(0.24)
    now = time.monotonic()
    rate, charged = fair.usage("quiet", now)
    assert 0 < rate < fair.MAX_RATE and 0 < charged < fair.SHARE / 10
    assert not fair.is_busy("quiet", now)


def test_a_session_that_never_pauses_becomes_busy_and_rests_as_long_as_it_ran(as_session):
    as_session.id = "hammer"
    hammer(fair.WINDOW * 0.7)
    assert fair.is_busy("hammer", time.monotonic())
    start = time.monotonic()
    with fair.turn():
        work(0.05)
    assert time.monotonic() - start >= 0.1  # 50 ms of work, then 50 ms of rest


def test_a_session_sending_many_cheap_messages_is_busy(as_session):
    """Each run cheap (2 ms), but one after another: more runs a second than a person."""
    as_session.id = "script"
    for _ in range(int(fair.MAX_RATE * fair.WINDOW) + 2):
        with fair.turn():
            work(0.002)
    rate, charged = fair.usage("script", time.monotonic())
    assert rate > fair.MAX_RATE and charged < fair.SHARE
    assert fair.is_busy("script", time.monotonic())


def test_a_quiet_session_never_waits_for_a_busy_one(as_session):
    as_session.id = "hammer"
    hammer(fair.WINDOW * 0.7)
    held, release, waited = threading.Event(), threading.Event(), threading.Event()

    def busy_run(flag: threading.Event) -> None:  # a busy session's run
        as_session.id = "hammer"
        with fair.turn():
            flag.set()
            release.wait(5)

    t = threading.Thread(target=busy_run, args=(held,))
    t.start()
    assert held.wait(5)  # it holds the one slot
    t2 = threading.Thread(target=busy_run, args=(waited,))
    try:
        as_session.id = "quiet"
        start = time.monotonic()
        with fair.turn():
            work(0.001)
        # the slot is only for busy sessions: waiting for it would take the 5 s hold
        assert time.monotonic() - start < 1.0
        t2.start()
        assert not waited.wait(0.2)  # a second busy run waits for the slot
    finally:
        release.set()
        t.join(5)
    t2.join(5)
    assert waited.is_set()


def test_a_fragment_inside_a_page_run_is_the_same_turn(as_session):
    as_session.id = "hammer"
    hammer(fair.WINDOW * 0.7)
    done = threading.Event()

    def page_with_fragment() -> None:
        as_session.id = "hammer"
        with fair.turn(), fair.turn():  # would deadlock if the inner turn took the slot
            done.set()

    t = threading.Thread(target=page_with_fragment)
    t.start()
    t.join(5)
    assert done.is_set()


def test_a_busy_session_is_forgiven_after_it_pauses(as_session):
    as_session.id = "hammer"
    hammer(fair.WINDOW * 0.7)
    assert fair.is_busy("hammer", time.monotonic())
    assert not fair.is_busy("hammer", time.monotonic() + fair.WINDOW + 0.1)


def test_new_tabs_queue_for_the_slot_only_when_many_open_at_once(as_session):
    now = time.monotonic()
    allowed = int(fair.MAX_ARRIVALS * fair.WINDOW)
    assert not any(fair.arriving(f"tab{k}", now) for k in range(allowed))
    assert fair.arriving("one too many", now)
    assert not fair.arriving("later", now + fair.WINDOW + 0.1)  # the wave has passed
    with fair.turn():  # a session that ran once is no longer arriving
        pass
    assert not fair.arriving("quiet", time.monotonic())
