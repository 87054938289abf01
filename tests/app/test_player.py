"""What the server does with the player's browser events (AppTest cannot fire them)."""

import math

import pytest

from ui.player import AUTOPLAY, REPLAY, on_event, start_replay

T = 80  # steps in the run
WINDOW = 201  # frames in one replay


def replaying_from(first: int) -> dict:
    session = {"lec_t": first}
    start_replay(session, first, T)
    return session


def test_play_starts_a_replay_at_the_current_step_and_asks_the_browser_to_play():
    session = {"lec_t": 7}
    on_event(session, "play", 12345, n_steps=T, window=WINDOW)
    assert session[REPLAY] == 7 and session["lec_t"] == 7
    first_request = session[AUTOPLAY]
    on_event(session, "play", 12346, n_steps=T, window=WINDOW)
    assert session[AUTOPLAY] == first_request + 1  # each Play is a new request


def test_play_at_the_end_of_the_run_replays_it_from_the_start():
    session = {"lec_t": T}
    on_event(session, "play", 1, n_steps=T, window=WINDOW)
    assert session[REPLAY] == 0 and session["lec_t"] == 0


def test_a_paused_replay_moves_the_step_so_step_and_the_math_continue_from_there():
    session = replaying_from(3)
    on_event(session, "at", {"t": 18, "end": False}, n_steps=T, window=WINDOW)
    assert session["lec_t"] == 18 and session[REPLAY] == 3  # same replay: scrubbing stays


def test_the_end_of_a_replay_window_plays_the_next_one():
    session = replaying_from(0)
    request = session[AUTOPLAY]
    on_event(session, "at", {"t": 40, "end": True}, n_steps=T, window=41)
    assert session[REPLAY] == 40 and session["lec_t"] == 40 and session[AUTOPLAY] == request + 1
    on_event(session, "at", {"t": T, "end": True}, n_steps=T, window=41)
    assert session["lec_t"] == T and session[REPLAY] == 40  # the run is over: stop there


@pytest.mark.parametrize(
    "value",
    [None, "18", {"t": "18"}, {"t": math.nan}, {"t": True}, {"end": True}, [18], {"t": None}],
)
def test_malformed_events_change_nothing(value):
    session = replaying_from(3)
    before = dict(session)
    on_event(session, "at", value, n_steps=T, window=WINDOW)
    assert session == before


def test_a_step_outside_the_replay_is_clamped_to_it():
    session = replaying_from(10)
    on_event(session, "at", {"t": 10_000}, n_steps=T, window=WINDOW)
    assert session["lec_t"] == T
    on_event(session, "at", {"t": -5}, n_steps=T, window=WINDOW)
    assert session["lec_t"] == 10


def test_a_stray_report_after_the_replay_ended_is_ignored():
    session = {"lec_t": 5}
    on_event(session, "at", {"t": 30}, n_steps=T, window=WINDOW)
    on_event(session, "unknown", {"t": 30}, n_steps=T, window=WINDOW)
    assert session == {"lec_t": 5}
