"""Bounded work per browser message, and no traceback ever.

**One event of each kind per message.** A component's trigger may carry a list of
events, and Streamlit runs the component's callback once per entry. A forged message
with 100,000 entries would run the margin lab's edit 100,000 times, each reading the
whole list again. :func:`component_callbacks` reads the first event of each kind
(component and event name) of a message and returns at once for the rest (counters,
reset at the start of every script run by :func:`new_run`), and refuses a payload
larger than a gesture can make (:func:`within`) before anything loops over it. Events
of different kinds are all read: Streamlit merges the triggers of messages that arrive
while a run is pending into one, so the lecture's step report and the presenter key
pressed right after it reach the same run, and each must count.

**No traceback.** :func:`page` and :func:`fragment` run page code so that an
unexpected exception shows a short sentence (with a reference to the server's
log, never a path) and the rest of the app keeps working; :class:`cache.Busy`
shows its own sentence.
"""

from __future__ import annotations

import functools
import logging
import re
import secrets
import threading
import types
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from typing import Any, ParamSpec, TypeVar, overload

import streamlit as st

from ui.server import fair, internals, memory
from ui.server.cache import Busy

# a session's state: st.session_state, or a dict in the tests (ui.app.state.Session)
Session = MutableMapping[Any, Any]

P = ParamSpec("P")
R = TypeVar("R")
_LOG = logging.getLogger("perceptron_lab")

SEEN = "_events_seen"  # declared in ui.app.state.SESSION_KEYS, with every session key
MAX_ITEMS = 64  # entries of one event's payload, all levels together
MAX_DEPTH = 3  # nesting of one event's payload
MAX_TEXT = 200  # characters of one string in a payload
# Tests set this: an unexpected error then propagates (AppTest records it in
# ``at.exception``) instead of becoming the sentence a student sees.
STRICT = False


def within(
    value: Any, *, items: int = MAX_ITEMS, depth: int = MAX_DEPTH, text: int = MAX_TEXT
) -> bool:
    """Whether ``value`` is JSON-like and no bigger than a person's gesture makes it.

    Stops as soon as a limit is passed, so a huge value costs no more than a small one.
    """
    budget = items
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, level = stack.pop()
        if v is None or isinstance(v, bool | int | float):
            continue
        if isinstance(v, str):
            if len(v) > text:
                return False
            continue
        if not isinstance(v, Mapping | list | tuple) or level >= depth:
            return False
        budget -= len(v)
        if budget < 0:
            return False
        children: Iterable[Any] = v.values() if isinstance(v, Mapping) else v
        if isinstance(v, Mapping) and not all(isinstance(k, str) and len(k) <= text for k in v):
            return False
        stack.extend((c, level + 1) for c in children)
    return True


MAX_EVENTS = 8  # events one component message may list (a gesture sends one)


def bounded_dispatch(original: Callable[..., None]) -> Callable[..., None]:
    """``original`` (Streamlit's trigger dispatch), but a list of over ``MAX_EVENTS``
    events runs nothing."""

    @functools.wraps(original)
    def dispatch(self: Any, votes: Any, wid: str, *args: Any, **kwargs: Any) -> None:
        try:
            value = internals.pending_trigger(self, wid)
        except Exception:  # not deserialisable: Streamlit's own code decides
            value = None
        if isinstance(value, list) and len(value) > MAX_EVENTS:
            _LOG.warning("dropped a component message listing %d events", len(value))
            return
        original(self, votes, wid, *args, **kwargs)

    dispatch._bounded = True  # type: ignore[attr-defined]
    return dispatch


MAX_TRIGGER_CHARS = 16_384  # a gesture's JSON is under 1 kB; within() allows about 13 kB
# A number's digits in an event: Python's JSON parser refuses an int of over 4,300
# digits with an exception inside Streamlit, before any of our code runs; no gesture
# sends more than a double's 17 significant digits and an exponent.
_LONG_NUMBER = re.compile(r"\d{40}")


_NUMBERS = frozenset({"int_value", "double_value", "uint_value"})


def _same_kind(sent: str, widget: str) -> bool:
    """A browser's value fits its widget: the same kind, or a number for a number (the
    browser sends a number input's whole number as an int to a float widget)."""
    return sent == widget or (sent in _NUMBERS and widget in _NUMBERS)


def bounded_store(original: Callable[..., None]) -> Callable[..., None]:
    """``original`` (Streamlit's ``WStates.set_widget_from_proto``), but a component
    event whose JSON text is longer than ``MAX_TRIGGER_CHARS``, or holds a run of 40
    digits (a number Python's parser may refuse with an exception), is not kept: it is
    never parsed, copied or dispatched, as if the message had carried no event. Nor is
    a value of another kind than its widget's (``WidgetMetadata.value_type``)."""

    @functools.wraps(original)
    def store(self: Any, widget_state: Any) -> None:
        try:
            raw = widget_state.json_trigger_value
        except Exception:  # not a proto Streamlit knows: Streamlit's own code decides
            raw = ""
        if len(raw) > MAX_TRIGGER_CHARS:
            _LOG.warning("dropped a component event of %d characters", len(raw))
            return
        if _LONG_NUMBER.search(raw):
            _LOG.warning("dropped a component event with a number of 40 or more digits")
            return
        # A value of another kind than its widget's (an int for the class strip's pills):
        # Streamlit would keep it, and its deserializer would raise at the start of this
        # and every later run of the session, before any of our code
        try:
            expected = internals.widget_value_type(self, widget_state.id)
            kind = widget_state.WhichOneof("value")
        except Exception:  # not what Streamlit's own code expects: it decides
            expected = kind = None
        if expected is not None and kind is not None and not _same_kind(kind, expected):
            _LOG.warning("dropped a widget value of kind %s for a %s widget", kind, expected)
            return
        original(self, widget_state)

    store._bounded = True  # type: ignore[attr-defined]
    return store


# Streamlit calls a component's callback once per entry of a message's list, in its own
# loop, before any of our code can refuse: 8,000 entries cost the server about 0.8 s even
# with callbacks that return at once. Then it parses the JSON and, when the component
# mounts, deep-copies the whole value: a 0.4 MB event cost about 150 ms of the interpreter
# per message. So the method that loops drops a message of more than MAX_EVENTS events,
# and the method that stores a browser's value never keeps an oversized event (both are
# Streamlit internals: ui.server.internals checks them at start and says if one is gone).
BOUNDED = internals.wrap_message_methods(bounded_dispatch, bounded_store)


def new_run(session: Session) -> int:
    """Start counting a new message's events; returns how many the last one carried."""
    seen = session.pop(SEEN, None)
    return sum(seen.values()) if isinstance(seen, dict) else 0


def component_callbacks(
    session: Session,
    key: str,
    events: Iterable[str],
    handle: Callable[[str, Any], None],
    refuse: Callable[[str], None] | None = None,
) -> dict[str, Callable[[], None]]:
    """``on_<event>_change`` callbacks for a component that read one event of each
    kind per message.

    ``handle(event, payload)`` runs for the first ``event`` of a message whose payload
    passes :func:`within`; ``refuse(sentence)`` runs for one that does not. Further
    events of the same kind in the same message are counted and not read.
    """

    def make(event: str) -> Callable[[], None]:
        kind = f"{key}:{event}"

        def callback() -> None:
            seen = session.get(SEEN)
            if not isinstance(seen, dict):
                seen = session[SEEN] = {}
            n = seen[kind] = seen.get(kind, 0) + 1
            if n > 1:
                return  # a second event of this kind in the same message: not read
            state = session.get(key)
            payload = state.get(event) if isinstance(state, Mapping) else None
            if not within(payload):
                if refuse is not None:
                    refuse("That edit was refused: it was not something a mouse or a key sends.")
                return
            handle(event, payload)

        return callback

    return {f"on_{event}_change": make(event) for event in events}


def _report(exc: BaseException) -> None:
    if isinstance(exc, Busy):
        st.info(str(exc), icon=":material/hourglass_top:")
        return
    if STRICT:
        raise exc
    ref = secrets.token_hex(3)
    _LOG.error("page error %s", ref, exc_info=exc)
    st.error(
        "Something went wrong on this part of the page, and it was not your fault. "
        "The rest of the app still works: change a setting, or go back to the defaults "
        f"with the page's link in the sidebar. (Reference for the server's log: {ref}.)",
        icon=":material/error:",
    )


_PAGE = threading.local()  # the running page's (globals, code), set by its first line
_THROWAWAY = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"})


def this_page(module_globals: dict[str, Any], code: types.CodeType) -> None:
    """Register the running page's globals (``ui.shell.require_router`` calls it)."""
    _PAGE.found = (module_globals, code)


def names_kept(code: types.CodeType) -> frozenset[str]:
    """The global names that the functions a page defines (``def``, ``lambda``, at
    any depth) may read when Streamlit calls them after the run: callbacks,
    ``format_func``, fragments. A comprehension of the page's body runs during the
    run, so its names are not kept for it."""
    names: set[str] = set()
    stack = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    stack = [c for c in stack if c.co_name not in _THROWAWAY]
    while stack:
        inner = stack.pop()
        names.update(inner.co_names)
        stack.extend(c for c in inner.co_consts if isinstance(c, types.CodeType))
    return frozenset(names)


def release(module_globals: dict[str, Any], code: types.CodeType) -> int:
    """Drop the page's results from its globals once it has run; returns how many.

    Streamlit keeps every callback, ``format_func`` lambda and fragment a page
    defines for as long as the session lives (and 120 s after its tab closes), and
    each of them holds the page's globals: a page at its heaviest settings kept
    its 10 MB run alive per student that way (1.5 GB after 240 cold opens). What
    those functions read stays; modules, functions and classes stay.
    """
    kept = names_kept(code)
    dropped = 0
    for name in list(module_globals):
        value = module_globals[name]
        if name.startswith("__") or name in kept:
            continue
        if isinstance(value, types.ModuleType | types.FunctionType | type):
            continue
        del module_globals[name]
        dropped += 1
    return dropped


def page(run: Callable[[], Any]) -> None:
    """Run a page; an exception shows a sentence, not a traceback. Afterwards the
    page's results are dropped from its globals (:func:`release`)."""
    _PAGE.found = None
    try:
        run()
    except Exception as exc:  # st.stop and st.rerun are not Exceptions: they pass
        _report(exc)
    finally:
        found, _PAGE.found = getattr(_PAGE, "found", None), None
        if found is not None:
            release(*found)
        memory.trim_now_and_then()  # what was freed goes back to the system


@overload
def fragment(fn: Callable[P, None], *, run_every: float | None = None) -> Callable[P, None]: ...


@overload
def fragment(
    fn: None = None, *, run_every: float | None = None
) -> Callable[[Callable[P, None]], Callable[P, None]]: ...


def fragment(fn: Callable[P, None] | None = None, *, run_every: float | None = None) -> Any:
    """``st.fragment`` that starts a new message's event count and shows no traceback
    (``run_every``: seconds between the reruns the browser asks for by itself)."""
    if fn is None:
        return functools.partial(fragment, run_every=run_every)

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        new_run(st.session_state)
        with fair.turn(fragment=True):  # a session that keeps the server busy waits
            try:
                fn(*args, **kwargs)
            except Exception as exc:
                _report(exc)

    return st.fragment(run, run_every=run_every)
