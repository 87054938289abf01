"""The lecture page's player component: shortcuts and the replay <-> server bridge.

The JavaScript (``player.js``, shipped with the app, no CDN) draws nothing: it
listens for Space and "r", presses the chart's own Play/Pause, and tells the
server which step a finished or paused replay shows. What Python does with
those events is in :func:`on_event`, a pure function the tests call directly
(``AppTest`` cannot fire component events).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import streamlit as st

_JS = (Path(__file__).with_name("player.js")).read_text(encoding="utf-8")
_player = st.components.v2.component("perceptron_player", js=_JS)

REPLAY = "lec_replay"  # session key: first step of the replay on show, or absent
AUTOPLAY = "lec_autoplay"  # session key: a new value asks the browser to press Play once
DEFAULT_SPEED = 8  # steps per second of Space / the Play button


def start_replay(session: MutableMapping[str, Any], t: int, n_steps: int) -> None:
    """Replay from step t (from 0 if the run is over) and ask the browser to play it."""
    session[REPLAY] = 0 if t >= n_steps else t
    session["lec_t"] = session[REPLAY]
    session[AUTOPLAY] = session.get(AUTOPLAY, 0) + 1


def stop_replay(session: MutableMapping[str, Any]) -> None:
    session.pop(REPLAY, None)


def on_event(
    session: MutableMapping[str, Any], name: str, value: Any, *, n_steps: int, window: int
) -> None:
    """Apply one event from the browser; anything malformed is ignored.

    ``play``: start a replay at the current step. ``at``: a replay stopped at
    ``value["t"]``; at the end of its window with steps left, the next window
    starts playing.
    """
    if name == "play":
        start_replay(session, int(session.get("lec_t", 0)), n_steps)
        return
    if name != "at" or not isinstance(value, dict) or REPLAY not in session:
        return
    t = value.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or t != t:
        return
    first = int(session[REPLAY])
    t = int(min(max(t, first), min(first + window - 1, n_steps)))
    session["lec_t"] = t
    if value.get("end") is True and t < n_steps:
        start_replay(session, t, n_steps)


def player(
    session: MutableMapping[str, Any],
    *,
    chart: str,
    reset: str,
    n_steps: int,
    window: int,
    rerun: Callable[[], None] | None = None,
) -> None:
    """Mount the (invisible) player for the chart inside ``st.container(key=chart)``."""

    def handle(name: str) -> Callable[[], None]:
        def callback() -> None:
            on_event(session, name, session["lec_player"][name], n_steps=n_steps, window=window)

        return callback

    _player(
        key="lec_player",
        data={
            "chart": chart,
            "reset": reset,
            "speed": DEFAULT_SPEED,
            "autoplay": session.get(AUTOPLAY) if REPLAY in session else None,
        },
        on_play_change=handle("play"),
        on_at_change=handle("at"),
    )
