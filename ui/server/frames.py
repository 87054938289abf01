"""A browser's frame, read at the door before Streamlit parses it: bounded work per
message, and no value Streamlit would keep only to fail on later.

The door (``ui.server.door``) hands every frame of a stream to :func:`screened`; a value it
takes out never reaches Streamlit, as if the browser had not sent it. A real browser never
sends one: these are forged messages.

- **A component's events.** A component's trigger (``json_trigger_value``) may list
  events, and Streamlit runs the component's callback once per entry, after parsing the
  JSON and, when the component mounts, deep-copying it: 8,000 entries cost the server
  about 0.8 s, a 0.4 MB event about 150 ms of the interpreter. An event's text over
  ``MAX_TRIGGER_CHARS``, or a list of over ``MAX_EVENTS`` events, is taken out.
- **A number Python cannot parse.** ``json.loads`` raises on an integer of over 4,300
  digits, inside Streamlit, before any page code can catch it; no gesture sends more than a
  double's 17 significant digits and an exponent, so an event with a run of 40 digits is
  taken out.
- **A value of another kind than its widget's** (a number for the class strip's pills):
  Streamlit would keep it, and its deserializer would raise at the start of this and every
  later run of the session. The widget's kind is the session's own record of it (``kind_of``,
  ``ui.server.internals.widget_kind``); a widget the session never drew is Streamlit's
  business, as is a frame that is not a message at all (Streamlit closes the stream, 1002).

- **An address longer than any page's.** A run's query string over ``MAX_QUERY_CHARS`` is
  taken out (the page opens with its defaults): the server answers no page at an address
  that long (uvicorn's bound on a request's head is 16 kB, nginx's 8 kB), so only a script
  sends one, and Streamlit would parse up to 512 kB of it on every run of the session.

A **timed rerun** (a ``run_every`` fragment's, ``is_auto_rerun``) goes on without the widget
values it carries: a timer changes no widget, and the values are the page's as it last drew
them. A value the server set a moment before and the browser has not drawn yet (a bank
question's data on the lecturer's page) comes back old, and Streamlit reads it as a change,
also when it merges the timer's request into the whole page's run that follows. A real
browser sends this one: it is not counted as refused.

The app's own per-message bound (one event of each kind read) is ``ui.server.guard``'s.

May import: the standard library and ``ui.server.internals`` (the wire format's type).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from ui.server import internals

MAX_EVENTS = 8  # events one component message may list (a gesture sends one)
MAX_TRIGGER_CHARS = 16_384  # a gesture's JSON is under 1 kB; guard.within allows ~13 kB
MAX_QUERY_CHARS = 16_384  # a page's address that the server answered is shorter (see above)
_LONG_NUMBER = re.compile(r"\d{40}")
_NUMBERS = frozenset({"int_value", "double_value", "uint_value"})


def same_kind(sent: str, widget: str) -> bool:
    """A browser's value fits its widget: the same kind, or a number for a number (the
    browser sends a number input's whole number as an int to a float widget)."""
    return sent == widget or (sent in _NUMBERS and widget in _NUMBERS)


def _event_refused(raw: str) -> str | None:
    if len(raw) > MAX_TRIGGER_CHARS:
        return f"a component event of {len(raw):,} characters"
    if _LONG_NUMBER.search(raw):
        return "a component event with a number of 40 or more digits"
    try:
        value = json.loads(raw)
    except ValueError:  # not JSON: Streamlit's own parser decides, as for any value
        return None
    if isinstance(value, list) and len(value) > MAX_EVENTS:
        return f"a component message listing {len(value):,} events"
    return None


def _widget_refused(widget: Any, kind_of: Callable[[str], str | None]) -> str | None:
    kind = widget.WhichOneof("value")
    if kind is None:
        return None
    if kind == "json_trigger_value":
        why = _event_refused(widget.json_trigger_value)
        if why is not None:
            return why
    expected = kind_of(widget.id)
    if expected is not None and not same_kind(kind, expected):
        return f"a value of kind {kind} for a {expected} widget"
    return None


def screened(data: bytes, kind_of: Callable[[str], str | None]) -> tuple[bytes, list[str]]:
    """The browser's frame ``data`` as Streamlit may read it, and why anything was taken
    out of it as forged (nothing: ``data`` itself, and ``[]``; a timed rerun's values: the
    frame without them, and ``[]``).

    A widget's value that must not reach Streamlit is taken out of the message, so the
    rerun still runs and answers (a forger's page goes on), as if the message had not
    carried that value: the widget keeps the one it had, and a component's event is none.

    Parameters
    ----------
    data : bytes
        One websocket frame (a ``BackMsg``), at most the door's ``MAX_FRAME_BYTES``.
    kind_of : callable
        ``kind_of(widget_id)``: the kind of value (``int_value``, ``json_trigger_value``
        ...) the stream's session drew that widget with, or None if it does not know it.
    """
    msg = internals.back_message(data)
    if msg is None or msg.WhichOneof("type") != "rerun_script":
        return data, []
    said: list[str] = []
    run = msg.rerun_script
    if len(run.query_string) > MAX_QUERY_CHARS:
        said.append(f"a query string of {len(run.query_string):,} characters")
        run.query_string = ""
    widgets = run.widget_states.widgets
    if run.is_auto_rerun and widgets:  # a timer's: no value is news
        del widgets[:]
        return msg.SerializeToString(), said
    why = [_widget_refused(widget, kind_of) for widget in widgets]
    said += [w for w in why if w is not None]
    if not said:
        return data, []
    kept = [widget for widget, w in zip(widgets, why, strict=True) if w is None]
    del widgets[:]
    widgets.extend(kept)
    return msg.SerializeToString(), said
