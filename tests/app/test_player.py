"""The lecture chart's windows of frames, and what the server does with a stopped replay."""

import math

import pytest

from ui.lecture.player import AUTOPLAY, WINDOW, on_event, window

T = 250  # steps in the run


@pytest.mark.parametrize("t", [0, 1, 99, 100, 149, 150, 199, 200, 249, 250])
def test_every_step_is_in_its_window_and_windows_hold_at_most_window_plus_one_frames(t):
    start, stop = window(t, T)
    assert start <= t <= stop <= T
    assert stop - start <= WINDOW


def test_steps_inside_one_window_share_it_so_the_chart_is_not_redrawn():
    assert window(0, T) == window(57, T) == window(99, T) == (0, 100)
    assert window(100, T) == (100, 200)
    assert window(250, T) == (150, 250)  # the end of the run is shown with its past
    assert window(3, 20) == (0, 20)  # a short run is one window


def test_a_stopped_replay_makes_its_step_the_servers_step():
    session = {"lec_t": 3}
    on_event(session, {"t": 18, "end": False}, n_steps=T, start=0, stop=100)
    assert session["lec_t"] == 18 and AUTOPLAY not in session


def test_the_end_of_a_window_asks_the_next_window_to_play_on_but_not_the_end_of_the_run():
    session = {"lec_t": 0}
    on_event(session, {"t": 100, "end": True}, n_steps=T, start=0, stop=100)
    assert session["lec_t"] == 100 and session[AUTOPLAY] == 1
    on_event(session, {"t": 200, "end": True}, n_steps=T, start=100, stop=200)
    assert session[AUTOPLAY] == 2
    on_event(session, {"t": T, "end": True}, n_steps=T, start=150, stop=T)
    assert session["lec_t"] == T and session[AUTOPLAY] == 2


@pytest.mark.parametrize(
    "value",
    [None, "18", {"t": "18"}, {"t": math.nan}, {"t": True}, {"end": True}, [18], {"t": None}],
)
def test_malformed_reports_change_nothing(value):
    session = {"lec_t": 3}
    on_event(session, value, n_steps=T, start=0, stop=100)
    assert session == {"lec_t": 3}


def test_a_step_outside_the_window_is_clamped_to_it():
    session = {"lec_t": 3}
    on_event(session, {"t": 10_000}, n_steps=T, start=0, stop=100)
    assert session["lec_t"] == 100
    on_event(session, {"t": -5}, n_steps=T, start=100, stop=200)
    assert session["lec_t"] == 100
