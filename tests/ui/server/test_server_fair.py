"""ui.server.fair: when runs must wait, the least charged session goes first; a quiet
server makes nobody wait; a long run does not hold its place."""

import contextlib
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
    # no door here tells that a page's messages left: that wait has its own tests below
    monkeypatch.setattr(fair, "UNSENT_MAX", 10**6)
    yield who
    fair.reset()


def work(seconds: float) -> None:
    """Use the processor for ``seconds``, as a page's run does."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def hammer(who, session: str, seconds: float, run: float = 0.02) -> None:
    """Runs of ``session`` back to back for ``seconds``, as a session that never pauses."""
    who.id = session
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with fair.turn():
            work(run)


PAGE_PLACES = fair.QUIET_PAGE_PLACES  # the page places a quiet session's run may take


class Holders:
    """``pages`` page runs and ``fragments`` fragment runs of session ``hold`` that keep
    their places until released (by default, every place)."""

    def __init__(self, who, pages: int = PAGE_PLACES, fragments: int = fair.PLACES - PAGE_PLACES):
        n = pages + fragments
        self.release = threading.Event()
        self.each = [threading.Event() for _ in range(n)]  # releases one of them
        self.started = [threading.Event() for _ in range(n)]

        def hold(flag: threading.Event, mine: threading.Event, fragment: bool) -> None:
            who.id = "hold"
            with fair.turn(fragment=fragment):
                flag.set()
                while not (self.release.is_set() or mine.is_set()):
                    time.sleep(0.005)

        self.threads = [
            threading.Thread(target=hold, args=(f, m, k >= pages))
            for k, (f, m) in enumerate(zip(self.started, self.each, strict=True))
        ]
        for t in self.threads:
            t.start()
        assert all(f.wait(5) for f in self.started)

    def stop(self) -> None:
        self.release.set()
        for t in self.threads:
            t.join(5)


def page_run_waiting(who, session: str) -> tuple[threading.Thread, threading.Event]:
    """A page run of ``session`` on a thread of its own (``done`` once it ran), and a
    fragment run of this thread beside it, which must go at once."""
    done = threading.Event()

    def page_run() -> None:
        who.id = session
        with fair.turn():
            done.set()

    t = threading.Thread(target=page_run)
    t.start()
    started = time.monotonic()
    who.id = "student"
    with fair.turn(fragment=True):
        pass
    assert time.monotonic() - started < 0.2
    return t, done


def test_a_run_on_a_quiet_server_never_waits(as_session):
    start = time.monotonic()
    for _ in range(20):
        with fair.turn():
            work(0.001)
    assert time.monotonic() - start < 0.5
    assert fair.waiting() == 0


def test_when_every_place_is_held_the_least_charged_session_goes_first(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 30.0)  # places free only when a run ends
    monkeypatch.setattr(fair, "WINDOW", 60.0)  # the scripts' charges last the whole test
    for k in range(5):  # five scripts that kept the server busy
        hammer(as_session, f"script{k}", 0.15)
    holders = Holders(as_session)
    order: list[str] = []

    def run(session: str) -> None:
        as_session.id = session
        with fair.turn():
            order.append(session)

    queued = []
    for session in [f"script{k}" for k in range(5)] + ["student"]:  # the student comes last
        t = threading.Thread(target=run, args=(session,))
        t.start()
        queued.append(t)
        while fair.waiting() < len(queued):
            time.sleep(0.005)
    holders.each[0].set()  # one page place frees: it goes to the least charged
    while not order:
        time.sleep(0.005)
    assert order[0] == "student", order  # then its place passes to the next
    holders.stop()
    for t in queued:
        t.join(5)
    assert sorted(order[1:]) == [f"script{k}" for k in range(5)]


def wait_for_a_place(as_session, monkeypatch, session: str, asked_more: bool) -> float:
    """One run of ``session`` that waits 0.3 s for a place (every place held), having
    asked for a newer run meanwhile or not (then Streamlit stops it at its first call and
    starts the newer one); returns its charge over the window, in s."""
    monkeypatch.setattr(fair, "SLICE", 30.0)
    holders = Holders(as_session)
    done = threading.Event()

    def run() -> None:
        as_session.id = session
        try:
            with fair.turn():
                if asked_more:
                    raise Superseded
                done.set()
        except Superseded:
            with fair.turn():  # the newer run, at once
                done.set()

    t = threading.Thread(target=run)
    t.start()
    assert not done.wait(0.3)  # no place yet
    holders.stop()
    t.join(5)
    assert done.is_set()
    _, charged = fair.usage(session, time.monotonic())
    return charged * fair.WINDOW


def test_a_session_that_asked_for_more_while_it_waited_is_charged_the_wait(as_session, monkeypatch):
    assert wait_for_a_place(as_session, monkeypatch, "script", asked_more=True) >= 0.25


def test_waiting_alone_is_not_charged_and_a_newcomer_is_not_busy_after_it(as_session, monkeypatch):
    """A hall of phones arriving at once: each waits for the processor with one page asked
    for. Its next run (Join) is not busy: it waits for no rest and takes any place."""
    assert wait_for_a_place(as_session, monkeypatch, "phone", asked_more=False) < 0.05
    rate, charged = fair.usage("phone", time.monotonic())
    assert rate <= fair.MAX_RATE and charged <= fair.SHARE
    as_session.id = "phone"
    start = time.monotonic()
    with fair.turn():
        pass
    assert time.monotonic() - start < fair.MIN_REST  # no busy session's rest


def test_a_long_run_gives_up_its_place_and_runs_on(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 0.05)
    holders = Holders(as_session)  # runs that hold every place for ten seconds
    try:
        start = time.monotonic()
        with fair.turn():
            pass
        assert time.monotonic() - start < 2.0  # a slice and a look, not ten seconds
    finally:
        holders.stop()


def test_a_busy_sessions_long_run_keeps_its_place_until_it_ends(as_session, monkeypatch):
    """Busy sessions' long runs do not pile up beside each other past their slice (twenty
    scripts each parsing a 5,000-row upload at once), while a quiet run still goes at once."""
    monkeypatch.setattr(fair, "SLICE", 0.05)
    for session in ("script1", "script2"):  # busy: more than MAX_RATE runs a second
        hammer(as_session, session, 0.4, run=0.005)
        assert fair.usage(session, time.monotonic())[0] > fair.MAX_RATE
    release, started = threading.Event(), threading.Event()
    second_began: list[float] = []

    def long_run() -> None:
        as_session.id = "script1"
        with fair.turn():
            started.set()
            release.wait(5)

    def next_busy_run() -> None:
        as_session.id = "script2"
        with fair.turn():
            second_began.append(time.monotonic())

    first = threading.Thread(target=long_run)
    first.start()
    assert started.wait(5)
    second = threading.Thread(target=next_busy_run)
    second.start()
    time.sleep(0.5)  # ten slices
    assert not second_began, "a busy run took a place beside a busy run still running"
    as_session.id = "student"
    t0 = time.monotonic()
    with fair.turn():
        pass
    assert time.monotonic() - t0 < 0.3  # a quiet run is not held by the busy ones
    released = time.monotonic()
    release.set()
    first.join(5)
    second.join(5)
    assert second_began and second_began[0] >= released


def test_new_sessions_pages_run_one_at_a_time_and_a_step_goes_beside_them(as_session, monkeypatch):
    """Eight scripts opening pages, or a hall of phones: two page runs at once only share
    the interpreter (each takes twice as long) and queue their messages before a
    classmate's Step. A second quiet page run waits for the first; a fragment does not."""
    monkeypatch.setattr(fair, "SLICE", 30.0)
    holders = Holders(as_session, pages=1, fragments=0)  # one new session's page runs
    try:
        t, done = page_run_waiting(as_session, "new2")
        assert not done.wait(0.3)
        assert fair.is_waiting("new2")
        holders.each[0].set()  # the first page's run ends: the second goes
        assert done.wait(2)
        t.join(5)
    finally:
        holders.stop()


def test_a_fragment_inside_a_page_run_is_the_same_turn(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 30.0)
    holders = Holders(as_session, pages=PAGE_PLACES - 1)  # one page place left
    done = threading.Event()

    def page_with_fragment() -> None:
        as_session.id = "page"
        with fair.turn(), fair.turn():  # would wait for itself if the inner turn queued
            done.set()

    t = threading.Thread(target=page_with_fragment)
    t.start()
    t.join(5)
    holders.stop()
    assert done.is_set()


def test_a_busy_session_is_forgiven_after_it_pauses(as_session):
    hammer(as_session, "hammer", 0.3)
    _, charged = fair.usage("hammer", time.monotonic())
    assert charged > 0.01
    assert fair.usage("hammer", time.monotonic() + fair.WINDOW + 0.1) == (0.0, 0.0)


def test_a_student_stepping_now_and_then_is_charged_a_few_per_cent(as_session):
    for _ in range(8):  # a Step of 10 ms every quarter second
        with fair.turn():
            work(0.01)
        time.sleep(0.24)
    _, charged = fair.usage("quiet", time.monotonic())
    assert 0 < charged < 0.1


def test_busy_sessions_leave_a_place_to_everybody_else(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 30.0)
    hammer(as_session, "hammer", fair.WINDOW * 0.5, run=0.005)  # far more than 6 runs a second
    rate, _ = fair.usage("hammer", time.monotonic())
    assert rate > fair.MAX_RATE
    release = threading.Event()
    held, second = threading.Event(), threading.Event()

    def busy_run(flag: threading.Event) -> None:
        as_session.id = "hammer"
        with fair.turn():
            flag.set()
            release.wait(10)

    first = threading.Thread(target=busy_run, args=(held,))
    first.start()
    assert held.wait(5)
    other = threading.Thread(target=busy_run, args=(second,))
    other.start()
    try:
        assert not second.wait(0.3)  # a second busy run waits: one place is kept free
        as_session.id = "quiet"
        start = time.monotonic()
        with fair.turn():
            pass
        assert time.monotonic() - start < 0.2  # ... for a quiet run, at once
    finally:
        release.set()
        first.join(5)
        other.join(5)
    assert second.is_set()


def test_a_step_waits_for_no_page_run(as_session, monkeypatch):
    """Pages opened at once by many new sessions (charged nothing yet) hold the page
    places and queue; a stepping student's fragment run goes at once."""
    monkeypatch.setattr(fair, "SLICE", 30.0)
    for _ in range(8):  # the student has stepped: charged more than the new sessions
        with fair.turn(fragment=True):
            work(0.01)
    holders = Holders(as_session, fragments=0)  # every page place held
    queued = []

    def page_run(session: str) -> None:
        as_session.id = session
        with fair.turn():
            pass

    for k in range(5):
        queued.append(threading.Thread(target=page_run, args=(f"new{k}",)))
        queued[-1].start()
    while fair.waiting() < 5:
        time.sleep(0.005)
    try:
        start = time.monotonic()
        with fair.turn(fragment=True):
            pass
        assert time.monotonic() - start < 0.2
        assert fair.waiting() == 5  # the pages still wait for theirs
    finally:
        holders.stop()
        for t in queued:
            t.join(5)


def test_page_runs_wait_while_the_event_loop_is_behind_and_a_step_does_not(as_session, monkeypatch):
    """While the loop that sends every message is behind, a page run's messages would only
    queue behind the others': page runs wait for it (a Step, a few messages, does not);
    a page run on a server running nothing else never waits."""
    monkeypatch.setattr(fair, "SLICE", 30.0)
    late = [1.0]
    monkeypatch.setattr(fair, "loop_late", lambda: late[0])
    started = time.monotonic()
    with fair.turn():  # alone: nothing else is sending
        pass
    assert time.monotonic() - started < 0.2
    holders = Holders(as_session, pages=0, fragments=1)  # another run holds a place
    try:
        t, done = page_run_waiting(as_session, "page")
        assert not done.wait(0.4)  # the loop is behind
        assert fair.is_waiting("page")
        late[0] = 0.0  # it caught up: the ticker hands the place out
        assert done.wait(2)
        t.join(5)
    finally:
        holders.stop()
    assert not fair.is_waiting("page")


class Superseded(BaseException):
    """What Streamlit raises in a script whose session asked for a newer run (or whose tab
    closed): a BaseException that is not an Exception, at the script's next call."""


def test_a_run_superseded_while_it_waited_hands_its_place_to_the_newer_run(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 30.0)
    holders = Holders(as_session, pages=PAGE_PLACES - 1, fragments=0)  # one page place left
    order: list[str] = []

    def runs(session: str) -> None:
        as_session.id = session
        try:
            with fair.turn():
                raise Superseded  # Streamlit, at the stale run's first call
        except Superseded:
            with fair.turn():  # Streamlit starts the newer run at once
                order.append(session)

    def other() -> None:
        as_session.id = "other"
        with fair.turn():
            order.append("other")

    try:
        first = threading.Thread(target=runs, args=("old",))
        first.start()
        first.join(5)
        assert order == ["old"]  # the newer run went in the place the stale one got
        assert fair.waiting() == 0
        late = threading.Thread(target=other)
        late.start()
        late.join(5)
        assert order == ["old", "other"]  # the kept place was given back
    finally:
        holders.stop()


def test_a_place_kept_for_a_run_that_never_comes_is_free_again_after_a_slice(
    as_session, monkeypatch
):
    """A run whose tab closed while it waited is stopped at its first call: the place kept
    for a newer run that never comes is anyone's after ``SLICE``."""
    monkeypatch.setattr(fair, "SLICE", 0.2)
    as_session.id = "gone"
    for _ in range(fair.PLACES):
        with contextlib.suppress(Superseded), fair.turn(fragment=True):
            raise Superseded
    as_session.id = "next"
    started = time.monotonic()
    with fair.turn(fragment=True):
        pass
    assert time.monotonic() - started < 1.0


def test_an_error_in_a_page_gives_its_place_back_at_once(as_session):
    """A page's own exception is no rerun: nothing is kept for it."""
    as_session.id = "oops"
    for _ in range(fair.PLACES + 1):
        with contextlib.suppress(ValueError), fair.turn():
            raise ValueError("a page's bug")
    assert not fair._CARRIED and not fair._HELD


def test_a_page_run_waits_for_a_late_loop_a_second_at_most(as_session, monkeypatch):
    monkeypatch.setattr(fair, "SLICE", 30.0)
    monkeypatch.setattr(fair, "loop_late", lambda: 1.0)  # behind, and stays so
    holders = Holders(as_session, pages=0, fragments=1)  # another run holds a place
    try:
        started = time.monotonic()
        with fair.turn():
            pass
        waited = time.monotonic() - started
        assert fair.LATE_WAIT <= waited < fair.LATE_WAIT + 1.0
    finally:
        holders.stop()


def test_a_slow_run_is_told_in_the_servers_log_and_a_quick_one_is_not(
    as_session, monkeypatch, caplog
):
    monkeypatch.setattr(fair, "SLOW_S", 0.1)
    caplog.set_level("WARNING", logger=fair.__name__)
    with fair.turn():
        work(0.01)
    assert caplog.records == []
    with fair.turn(fragment=True):
        work(0.15)
    (said,) = [r.getMessage() for r in caplog.records]
    assert said.startswith("perceptron: a fragment run took 0.")
    assert "0.0 s waiting for its place" in said  # a quiet server: it ran at once


def test_a_page_waits_while_two_pages_messages_are_on_their_way(as_session, monkeypatch):
    monkeypatch.setattr(fair, "UNSENT_MAX", 2)
    monkeypatch.setattr(fair, "UNSENT_S", 30.0)  # only the door's word frees them
    for session in ("a", "b"):  # two pages ran; the door has not seen their ends leave
        as_session.id = session
        with fair.turn():
            work(0.001)
    assert fair.unsent() == 2
    began = threading.Event()

    def page() -> None:
        as_session.id = "c"
        with fair.turn():
            began.set()

    t = threading.Thread(target=page)
    t.start()
    assert not began.wait(0.3)  # a third page waits ...
    as_session.id = "student"
    start = time.monotonic()
    with fair.turn(fragment=True):  # ... but a classmate's Step does not
        pass
    assert time.monotonic() - start < 0.1
    fair.sent("a")  # the door saw a's last message leave
    assert began.wait(1.0)
    t.join(5)


def test_a_finish_the_door_never_sees_holds_pages_back_for_a_moment_only(as_session, monkeypatch):
    monkeypatch.setattr(fair, "UNSENT_MAX", 1)
    monkeypatch.setattr(fair, "UNSENT_S", 0.3)
    as_session.id = "closed"  # its tab closed before its page's last message left
    with fair.turn():
        pass
    as_session.id = "next"
    start = time.monotonic()
    with fair.turn():
        waited = time.monotonic() - start
    assert 0.2 < waited < 1.0
