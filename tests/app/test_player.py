"""The lecture player's windows, and what the server does with the browser's reports."""

import math

import pytest

from ui.app.state import widget_key
from ui.lecture.player import (
    PLAY,
    PRESENTER_FLIP,
    RESEND,
    SEQ,
    WINDOW,
    forget_scene,
    on_event,
    on_presenter,
    scene_window,
    sent_scene,
    window,
)

T = 250  # steps in the run


@pytest.mark.parametrize("t", [0, 1, 99, 100, 149, 150, 199, 200, 249, 250])
def test_every_step_is_in_its_window_and_windows_hold_at_most_window_plus_one_steps(t):
    start, stop = window(t, T)
    assert start <= t <= stop <= T
    assert stop - start <= WINDOW


def test_steps_inside_one_window_share_it_so_the_scene_is_not_sent_again():
    assert window(0, T) == window(57, T) == window(99, T) == (0, 100)
    assert window(100, T) == (100, 200)
    assert window(250, T) == (150, 250)  # the end of the run is shown with its past
    assert window(3, 20) == (0, 20)  # a short run is one window


def test_a_report_makes_its_step_the_servers_step_and_remembers_its_number():
    session = {"lec_t": 3}
    on_event(session, {"t": 18, "seq": 4}, n_steps=T)
    assert session["lec_t"] == 18 and session[SEQ] == 4 and PLAY not in session
    on_event(session, {"t": 17, "seq": 2}, n_steps=T)  # a late report: its step, the max seq
    assert session["lec_t"] == 17 and session[SEQ] == 4


def test_a_replay_that_runs_out_of_its_window_asks_the_next_to_play_on_but_not_past_the_end():
    session = {"lec_t": 100}
    on_event(session, {"t": 101, "seq": 1, "play": True}, n_steps=T)
    assert session["lec_t"] == 101 and session[PLAY] == 1
    on_event(session, {"t": 201, "seq": 2, "play": True}, n_steps=T)
    assert session[PLAY] == 2
    on_event(session, {"t": T, "seq": 3, "play": True}, n_steps=T)
    assert session["lec_t"] == T and session[PLAY] == 2


@pytest.mark.parametrize(
    "value",
    [
        None,
        "18",
        {"t": "18", "seq": 1},
        {"t": math.nan, "seq": 1},
        {"t": math.inf, "seq": 1},
        {"t": True, "seq": 1},
        {"t": 5},  # no number: not the browser's report
        {"t": 5, "seq": "1"},
        {"end": True},
        [18],
        {"t": None, "seq": 1},
    ],
)
def test_malformed_reports_change_nothing(value):
    session = {"lec_t": 3}
    on_event(session, value, n_steps=T)
    assert session == {"lec_t": 3}


def test_a_step_outside_the_run_is_clamped_to_it():
    session = {"lec_t": 3}
    on_event(session, {"t": 10_000, "seq": 1}, n_steps=T)
    assert session["lec_t"] == T
    on_event(session, {"t": -5, "seq": 2}, n_steps=T)
    assert session["lec_t"] == 0 and session[SEQ] == 2


@pytest.mark.parametrize("seq", [-1, 2**31, 10**30, 1e300])
def test_a_report_numbered_as_no_browser_numbers_one_changes_nothing(seq):
    session = {"lec_t": 3}
    on_event(session, {"t": 7, "seq": seq}, n_steps=T)
    assert session == {"lec_t": 3}


def test_the_presenter_switch_turns_presenter_mode_on_and_off_and_only_with_a_bool():
    session = {"app_presenter": False}
    on_presenter(session, {"on": True})
    assert session["app_presenter"] is True and session[widget_key("app_presenter")] is True
    assert session[PRESENTER_FLIP] is True
    for bad in ({"on": "yes"}, {"on": 1}, None, "on", {"off": True}):
        before = dict(session)
        on_presenter(session, bad)
        assert session == before
    on_presenter(session, {"on": False})
    assert session["app_presenter"] is False


def test_the_player_stays_in_the_fragment_only_while_the_browser_surely_holds_its_scene():
    session: dict = {}
    sent_scene(session, "run-a", 100, 200)
    assert scene_window(session, "run-a", 150) == (100, 200)
    assert scene_window(session, "run-a", 201) is None  # another window: the page again
    assert scene_window(session, "run-b", 150) is None  # another run
    session[RESEND] = True  # the browser asked: its step came without the scene
    assert scene_window(session, "run-a", 150) is None
    assert scene_window(session, "run-a", 150) == (100, 200)  # asked once, answered once
    session[PRESENTER_FLIP] = True
    assert scene_window(session, "run-a", 150) is None
    forget_scene(session)  # a full run began: what the last one sent may be dropped
    assert scene_window(session, "run-a", 150) is None


def seat_in_class(role):
    from ui.classmode.seat import SEAT, Seat

    seat = Seat(code="ABCDEFGH", role=role, secret="s" if role.value == "lecturer" else None)
    return {"lec_t": 3, SEAT: seat}, seat


def test_a_lecturers_play_report_says_from_where_how_fast_and_since_when(monkeypatch):
    from ui.classmode import follow
    from ui.classmode.seat import Role

    monkeypatch.setattr(follow.time, "time", lambda: 1_000.0)
    session, seat = seat_in_class(Role.LECTURER)
    on_event(session, {"t": 5, "seq": 1, "from": 5.25, "rate": 8}, n_steps=T)
    assert session["lec_t"] == 5 and seat.playing == (5.25, 8.0, 1_000.0)
    # the window ran out: the next, on the same clock (the browser's Play started 1.5 s ago)
    on_event(session, {"t": 17, "seq": 2, "from": 5.25, "rate": 8, "elapsed": 1.5}, n_steps=T)
    assert session["lec_t"] == 17 and seat.playing == (5.25, 8.0, 998.5)
    on_event(session, {"t": 19, "seq": 2}, n_steps=T)  # Pause: where it stopped, at once
    assert session["lec_t"] == 19 and seat.playing is None
    for bad in ({"from": "x", "rate": 8}, {"from": 5, "rate": 1e9}, {"from": -1, "rate": 8}):
        on_event(session, {"t": 5, "seq": 3, **bad}, n_steps=T)
        assert seat.playing is None  # not a play: standing still


def test_a_students_play_is_not_followed_and_a_followers_ask_for_a_window_moves_nothing():
    from ui.classmode.seat import Role

    session, seat = seat_in_class(Role.FOLLOWING)
    on_event(session, {"t": 5, "seq": 1, "from": 5, "rate": 8}, n_steps=T)
    assert seat.playing is None and session["lec_t"] == 5
    on_event(session, {"t": 101, "seq": 2, "follow": True}, n_steps=T)
    assert session["lec_t"] == 5 and session[SEQ] == 2  # the page takes the lecturer's step


def test_a_step_posted_to_the_route_is_the_sessions_at_its_next_run_on_any_page():
    from apptest_helpers import lecture_scene, open_app

    from ui.lecture.player import TAB
    from ui.lecture.restart import RUN
    from ui.live.reports import REPORTS, Report

    at = open_app("pages/lecture.py")
    assert not at.exception
    key, run = at.session_state[TAB], at.session_state[RUN]
    REPORTS.put(key, Report(t=7, seq=1, run=run))  # as the route keeps the page's post
    at.switch_page("pages/proof.py").run()  # another page: its URL has the step
    assert not at.exception and at.query_params["lec_t"] == "7"
    REPORTS.put(key, Report(t=9, seq=1, run=run))  # a number already acted on: nothing
    REPORTS.put(key, Report(t=30, seq=2, run="0" * 32))  # a run no longer shown: nothing
    at.switch_page("pages/lecture.py").run()
    assert lecture_scene(at)["t"] == 7 and at.session_state[SEQ] == 1
    REPORTS.put(key, Report(t=12, seq=3, run=run))
    at.run()
    assert lecture_scene(at)["t"] == 12 and at.session_state[SEQ] == 3


def test_the_offline_file_opens_at_the_step_the_page_posted_since_the_run():
    from ui.lecture.player import TAB, step_now
    from ui.lecture.restart import RUN
    from ui.live.reports import REPORTS, Report

    key, run = "ef" * 16, "12" * 16
    session = {TAB: key, RUN: run, SEQ: 4}
    REPORTS.open(key)
    now = step_now(session, 20)
    assert now() == 20
    REPORTS.put(key, Report(t=3, seq=4, run=run))  # the one the run already had
    assert now() == 20
    REPORTS.put(key, Report(t=33, seq=5, run=run))
    assert now() == 33
    REPORTS.put(key, Report(t=40, seq=6, run="34" * 16))  # another run's
    assert now() == 20
