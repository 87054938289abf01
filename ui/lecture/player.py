"""The lecture page's player: the chart's step in the browser <-> the step on the server.

The JavaScript (``player.js``, shipped with the app, no CDN) draws nothing. It
moves the chart to the server's step with ``Plotly.animate`` (the chart keeps
one frame per step of a window of the run), handles Space (play/pause) and "r"
(Reset), and tells the server which step a stopped replay shows. What Python
does with that report is :func:`on_event`, a pure function the tests call
directly (``AppTest`` cannot fire component events).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import streamlit as st

from ui.kit import guard
from ui.kit.state import session_key
from ui.lecture.restart import go_to

_JS = Path(__file__).with_name("player.js").read_text(encoding="utf-8")
_player = st.components.v2.component("perceptron_player", js=_JS)

WINDOW = 100  # steps per chart: inside a window a step is a frame change in the browser
AUTOPLAY = session_key("lec_autoplay")  # a new value: press Play once
DEFAULT_SPEED = 8  # steps per second of Space


def window(t: int, n_steps: int) -> tuple[int, int]:
    """The first and last step of the chart that shows step t (t is in it)."""
    start = min((t // WINDOW) * WINDOW, max(0, n_steps - WINDOW))
    return start, min(start + WINDOW, n_steps)


def on_event(
    session: MutableMapping[str, Any], value: Any, *, n_steps: int, start: int, stop: int
) -> None:
    """A replay stopped at ``value["t"]``: make it the step. Malformed values are ignored.

    At the end of the window (``value["end"]``) with steps left, the next
    window is asked to play on.
    """
    if not isinstance(value, dict):
        return
    t = value.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float) or t != t:
        return
    t = int(min(max(t, start), stop))
    go_to(session, t)
    if value.get("end") is True and t < n_steps:
        session[AUTOPLAY] = session.get(AUTOPLAY, 0) + 1


def player(
    session: MutableMapping[str, Any], *, chart: str, reset: str, t: int, n_steps: int
) -> None:
    """Mount the (invisible) player for the chart inside ``st.container(key=chart)``."""
    start, stop = window(t, n_steps)

    def stopped(_event: str, value: Any) -> None:
        on_event(session, value, n_steps=n_steps, start=start, stop=stop)

    _player(
        key="lec_player",
        data={
            "chart": chart,
            "reset": reset,
            "t": t,
            "speed": DEFAULT_SPEED,
            "autoplay": session.get(AUTOPLAY, 0),
        },
        # the first event of a message is read, and only if it is the size of a report
        **guard.component_callbacks(session, "lec_player", ("at",), stopped),
    )
