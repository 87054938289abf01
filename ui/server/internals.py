"""Every piece of Streamlit that is not public API and that the app relies on, in one place.

Streamlit's public API has no way to read a browser's frame or its widget's kind at the
door, to send a session's waiting messages at once, or to read a widget's own key without
a copy of the whole session; the app reaches into Streamlit for those, and only here.
Each use below says what it is for, and ``CHECKS`` lists them all with the protection
or feature that is off without it. The lock (``requirements.txt``) pins the Streamlit
they were checked on, ``TESTED``; on an upgrade this is the one module to read and mend.

At a server's first run of the app, :func:`report` checks each one and prints one line
per protection or feature that is off, with the tested version, to the terminal where
``streamlit run`` was typed (never to a student's page); ``python3 -m ui.server.internals``
prints the same without a server. ``tests/ui/server/test_server_internals.py`` fails if any
check fails on the pinned version.

May import: Streamlit (its private modules too), the standard library. Nothing of the app.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import sys
import threading
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import streamlit as st

if TYPE_CHECKING:
    pass

_LOG = logging.getLogger(__name__)
TESTED = "1.67.0"  # the Streamlit every internal below was checked on (the lock's)


# ------------------------------------------------------------------------ the browser's DOM

# ``data-testid`` values of Streamlit's frontend that the app's CSS and scripts select;
# each is checked against the frontend Streamlit ships (its static JavaScript).
TESTIDS = {
    "stApp": "the app's root: its connection state (reconnect.py) and script state",
    "stSidebar": "the sidebar: hidden in presenter mode and in an embed, closed on a phone "
    "after a link",
    "stSidebarCollapseButton": "the sidebar's close button, pressed on a phone",
    "stExpandSidebarButton": "the button that reopens the sidebar, hidden in presenter mode "
    "and in an embed",
    "stHeader": "the fixed header: hidden in presenter mode, in an embed and on paper, "
    "measured on a phone",
    "stMainBlockContainer": "the page's column: its padding in presenter mode, in an embed, "
    "on paper and under the answer bar; whether the phone's open sidebar lies over it",
    "stCaptionContainer": "captions: their size in presenter mode",
    "stMarkdownContainer": "markdown text: larger type on the class page and strip",
    "stProgress": "the class strip's tally bars: their labels' size",
    "stPageLink-NavLink": "the home page's links: their titles wrap on a phone",
    "stPopoverBody": "an open menu: presenter mode's Settings, as wide as a row of controls",
    # the proof page on paper (ui.proof.paper)
    "stVerticalBlock": "a column of elements: a plain block on paper, so page breaks obey",
    "stElementContainer": "one element's box: no page break just after a heading's",
    "stHeading": "a heading: kept with what follows it on paper",
    "stHorizontalBlock": "a row of columns: the proof's settings box, one column on paper",
    "stColumn": "a column of a row: the proof's settings box, the paper's width",
    "stExpander": "an expander: left out on paper",
    "stPageLink": "a link to another page: left out on paper",
    "stElementToolbar": "a chart's or table's toolbar: left out on paper",
}
# Attributes of the app's root element that say what the app is doing.
CONNECTION_STATE = "data-test-connection-state"
ATTRIBUTES = {CONNECTION_STATE: "lost or CONNECTED: a reconnection reruns the page"}


def testid(name: str) -> str:
    """The CSS selector of Streamlit's element ``name`` (one of ``TESTIDS``)."""
    if name not in TESTIDS:
        raise ValueError(f"testid: {name!r} is not one of internals.TESTIDS")
    return f'[data-testid="{name}"]'


def _frontend_text() -> Iterator[str]:
    static = Path(st.__file__).parent / "static" / "static" / "js"
    for path in sorted(static.glob("*.js")):
        yield path.read_text(encoding="utf-8", errors="ignore")


def _missing_from_frontend(names: list[str]) -> list[str]:
    left = set(names)
    for text in _frontend_text():
        left = {n for n in left if n not in text}
        if not left:
            break
    return sorted(left)


# --------------------------------------------------------------------------- the server side

T = TypeVar("T")


def _or(default: Any) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A use of an internal that this Streamlit lacks (an import or an attribute gone)
    returns ``default``, so the feature is off and the page still runs; ``report``
    has said so in the terminal."""

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def safe(*args: Any, **kwargs: Any) -> T:
            try:
                return fn(*args, **kwargs)
            except (ImportError, AttributeError):
                return cast(T, default)

        return safe

    return wrap


@_or(None)
def session_id() -> str | None:
    """The id of the session whose script runs on this thread; None outside a run.
    For the fair share and the cache's quotas (per student)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_id


@_or(False)
def change_from_another_fragment() -> bool:
    """In a widget's ``on_change``: whether this run reruns fragments only and not the
    widget's own (nor, for a widget outside every fragment, the whole page). Streamlit's
    browser sends every widget's value with each rerun it asks for, a timed fragment's too,
    as it last drew them: a value the server set a moment before, not yet drawn, comes back
    old and reads as a change. A person's own change reruns the widget's fragment or the
    page, so such a change is stale and the callback keeps the server's value.
    Public alternative it waits for: the fragment a callback's widget belongs to, and the
    run's target, in ``st.context``."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

    ctx = get_script_run_ctx(suppress_warning=True)
    targets = (ctx.fragment_ids_this_run or []) if ctx is not None else []
    return bool(targets) and ThreadState.get().fragment_id not in targets


@_or(None)
def reserved_query_parameter(name: str) -> str | None:
    """The last value of the URL parameter ``name`` (``embed`` or ``embed_options``), or None
    without one or outside a run. Streamlit keeps these two out of ``st.query_params`` (they
    are its own embed mode's, ``?embed=true``), so the app's ``?embed=1`` (ui.app.state) is
    read from the run's query string; ``st.query_params.from_dict`` keeps them in the URL."""
    from urllib.parse import parse_qs

    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return None
    values = parse_qs(str(ctx.query_string or "")[:4000], keep_blank_values=True).get(name)
    return values[-1] if values else None


@_or(False)
def fragment_run() -> bool:
    """Whether the run on this thread reruns fragments only (a step's report, the live
    channel's ask), not the whole page; False outside a run. For the player's lateness: a whole
    page's run sends its messages with the rest of the page, so their delay is not the
    network's."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def back_message(data: bytes) -> Any:
    """A browser's frame parsed as Streamlit's ``BackMsg`` (its wire format), or None if it
    is not one. For the door's reading of a frame (ui.server.frames). Waits for a public
    type of a browser's message (an ``st.App`` middleware sees its bytes only)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    try:
        msg.ParseFromString(data)
    except Exception:  # not a message: Streamlit closes the stream itself (1002)
        return None
    return msg


@_or(None)
def widget_kind(session_id: str, widget_id: str) -> str | None:
    """The kind of value (``int_value``, ``json_trigger_value`` ...) that session
    ``session_id`` drew widget ``widget_id`` with (its ``WidgetMetadata.value_type``), or
    None if the session or the widget is unknown. For the door's reading of a browser's
    frame (ui.server.frames), on the server's event loop: dictionary reads only. Waits for
    a public way to know a widget's kind outside its session's script run."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    info = Runtime.instance()._session_mgr.get_session_info(session_id)
    if info is None:
        return None
    meta = info.session._session_state._new_widget_state.widget_metadata.get(widget_id)
    return None if meta is None else str(meta.value_type)


@_or(None)
def stop_pages_directory_mode() -> None:
    """Switch off Streamlit's old multipage mode (which a ``pages/`` folder beside
    app.py turns on at start), as ``st.navigation`` does: no session starting now
    reads "on" and draws the raw file names. For the first paint's navigation."""
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False


# ---------------------------------------------------------------------- the sending loop


@_or(False)
def wake_the_sender_once() -> bool:
    """Wake Streamlit's sending loop once for many messages, not once per message, once
    per process; False (and nothing changed) if this Streamlit differs.

    Every message a script enqueues wakes the loop that sends (``need_send_data``) through
    ``call_soon_threadsafe``: a write to the loop's pipe and a callback each, thousands a
    second under load. A wake already on its way, or an event already set, takes every
    message enqueued before it along: the loop clears the event before it flushes."""
    from streamlit.runtime import Runtime

    enqueued = Runtime._enqueued_some_message
    if getattr(enqueued, "_once", False):
        return True
    pending = threading.Event()  # a wake is on its way

    @functools.wraps(enqueued)
    def wake(self: Any) -> None:
        objs = self._get_async_objs()
        if pending.is_set() or objs.need_send_data.is_set():
            return
        pending.set()

        def arrive() -> None:
            pending.clear()
            objs.need_send_data.set()

        try:
            objs.eventloop.call_soon_threadsafe(arrive)
        except RuntimeError:  # the loop closed: nothing to send any more
            pending.clear()
            raise

    wake._once = True  # type: ignore[attr-defined]
    Runtime._enqueued_some_message = wake  # type: ignore[method-assign]
    return True


@_or(False)
def send_a_sessions_messages_at_once() -> bool:
    """Hand each session's waiting messages to its connection in one go, once per process;
    False (and nothing changed) if this Streamlit differs.

    Streamlit's sending loop gives the event loop a turn after every message it hands to
    a connection. A turn costs little on an idle server, but while scripts run the loop
    gets the interpreter back only after they let it go (about 5 ms), so a loop that sends
    a few hundred messages a second is behind at once: 100 sessions each sending whole-page
    reruns queued thousands of them, and a classmate's three-message Step waited behind
    all of them (seconds). Handing a connection a message only queues its bytes (each
    connection has its own sender, which takes turns with the others), so the messages
    of every session go in one turn, each in its order, and the loop moves on."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.session_manager import SessionClientDisconnectedError

    flush = AppSession.flush_browser_queue
    if getattr(flush, "_at_once", False):
        return True
    if not _sending_loop():
        return False

    @functools.wraps(flush)
    def flush_and_send(self: Any) -> list[Any]:
        messages = flush(self)
        if not messages or not Runtime.exists():
            return messages
        runtime = Runtime.instance()
        info = runtime._session_mgr.get_active_session_info(self.id)
        if info is None:
            return messages
        for message in messages:
            try:
                runtime._send_message(info, message)
            except SessionClientDisconnectedError:  # as Streamlit's loop does
                runtime.disconnect_session(self.id, client=info.client)
                break
        return []

    flush_and_send._at_once = True  # type: ignore[attr-defined]
    AppSession.flush_browser_queue = flush_and_send  # type: ignore[method-assign]
    return True


def _sending_loop() -> bool:
    from streamlit.runtime import Runtime, session_manager

    loop = inspect.getsource(Runtime._loop_coroutine)
    return (
        "flush_browser_queue()" in loop
        and "self._send_message(active_session_info, msg)" in loop
        and hasattr(Runtime, "disconnect_session")
        and hasattr(session_manager, "SessionClientDisconnectedError")
    )


# --------------------------------------------------------------------- one key for widgets


# Streamlit's widget functions that read ``get_session_state().filtered_state`` only to
# ask it about their own key (``key in state``, ``state[key]``);
# tests/ui/app/test_app_state.py reads their source to check it.
WIDGET_READS = (
    ("streamlit.elements.widgets.selectbox", "SelectboxMixin", "_selectbox"),
    ("streamlit.elements.widgets.slider", "SliderMixin", "_slider"),
    ("streamlit.elements.widgets.number_input", "NumberInputMixin", "_number_input"),
    ("streamlit.elements.widgets.radio", "RadioMixin", "_radio"),
    ("streamlit.elements.widgets.text_widgets", "TextWidgetsMixin", "_text_input"),
    ("streamlit.elements.widgets.text_widgets", "TextWidgetsMixin", "_text_area"),
)


class OneKeyState(Mapping[str, Any]):
    """``filtered_state`` as the widget functions read it: a key at a time.

    ``SessionState.filtered_state`` is a new dict of every key of the session, each
    read through its presenter (a component's builds a class each time). Every
    selectbox, slider without a value and number input asks for it, only to look up
    its own key: on the lecture page with the sidebar, ten times a run over about 90
    keys, 17 % of the server's time in full reruns with 50 sessions. A user key is in
    that dict, with the value ``state[key]``, exactly when ``state[key]`` does not raise
    ``KeyError`` (the dict's entries are those reads, under each widget's key), so this
    asks the session for that one key, under the same lock. Anything else (an element
    id, an internal key, iteration) gets the whole dict.
    """

    def __init__(
        self, safe: Any, whole: Callable[[Any], dict[str, Any]], odd: tuple[str, ...]
    ) -> None:
        self._safe = safe  # a SafeSessionState
        self._whole = whole  # Streamlit's own filtered_state
        self._odd = odd  # prefixes of element ids and internal keys

    def __getitem__(self, key: str) -> Any:
        if not isinstance(key, str) or key.startswith(self._odd):
            return self._whole(self._safe)[key]
        with self._safe._lock:
            return self._safe._state[key]

    def __contains__(self, key: object) -> bool:
        try:
            self[key]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._whole(self._safe))

    def __len__(self) -> int:
        return len(self._whole(self._safe))


def widget_codes() -> frozenset[types.CodeType]:
    """The code objects of the functions in ``WIDGET_READS`` this Streamlit has."""
    codes = set()
    for module, cls, name in WIDGET_READS:
        try:
            codes.add(getattr(getattr(importlib.import_module(module), cls), name).__code__)
        except (ImportError, AttributeError):  # renamed by an upgrade: the slow way for it
            continue
    return frozenset(codes)


@_or(False)
def read_one_key_for_widgets() -> bool:
    """Make ``SafeSessionState.filtered_state`` a :class:`OneKeyState` for the functions
    of ``WIDGET_READS`` (the caller's code, one frame up), Streamlit's dict for
    everybody else, once per process. False if Streamlit no longer has that property."""
    from streamlit.runtime.state.common import GENERATED_ELEMENT_ID_PREFIX
    from streamlit.runtime.state.safe_session_state import SafeSessionState
    from streamlit.runtime.state.session_state import STREAMLIT_INTERNAL_KEY_PREFIX

    odd = (GENERATED_ELEMENT_ID_PREFIX, STREAMLIT_INTERNAL_KEY_PREFIX)
    prop = SafeSessionState.__dict__.get("filtered_state")
    if not isinstance(prop, property) or prop.fget is None:
        return False
    if hasattr(prop.fget, "whole"):  # done already
        return True
    whole = prop.fget
    callers = widget_codes()

    def filtered_state(self: Any) -> Any:
        if sys._getframe(1).f_code in callers:
            return OneKeyState(self, whole, odd)
        return whole(self)

    filtered_state.whole = whole  # type: ignore[attr-defined]
    filtered_state.odd = odd  # type: ignore[attr-defined]
    SafeSessionState.filtered_state = property(filtered_state, doc=prop.__doc__)  # type: ignore[method-assign,assignment]
    return True


# ------------------------------------------------------------------------------ the checks


@dataclass(frozen=True)
class Check:
    """One internal: what is off without it, what it is, and a probe that is True when
    this Streamlit has it as the app uses it."""

    feature: str  # the protection or feature that is off without it
    internal: str  # where it lives in Streamlit
    probe: Callable[[], bool]


def _has(module: str, *path: str) -> Callable[[], bool]:
    def probe() -> bool:
        try:
            obj: Any = importlib.import_module(module)
        except ImportError:
            return False
        for name in path:
            if not hasattr(obj, name):
                return False
            obj = getattr(obj, name)
        return True

    return probe


def _widget_functions() -> bool:
    return (
        len(widget_codes()) == len(WIDGET_READS)
        and _has(
            "streamlit.runtime.state.safe_session_state", "SafeSessionState", "filtered_state"
        )()
    )


def _safe_state_fields() -> bool:
    from streamlit.runtime.state.safe_session_state import SafeSessionState

    return {"_lock", "_state"} <= set(getattr(SafeSessionState, "__annotations__", {}))


def _init_names(cls: type) -> tuple[str, ...]:
    """The names a class's ``__init__`` uses (the original's, under a wrap of ours)."""
    init: Any = inspect.unwrap(cls.__init__)  # type: ignore[misc]
    return tuple(init.__code__.co_names)


def _session_fields() -> bool:
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.session_manager import SessionManager
    from streamlit.runtime.state.session_state import SessionState, WStates

    return (
        "_client_state" in _init_names(AppSession)
        and "_session_state" in _init_names(AppSession)
        and "_session_mgr" in _init_names(Runtime)
        and hasattr(SessionManager, "get_session_info")
        and hasattr(AppSession, "request_rerun")
        and "_new_widget_state" in getattr(SessionState, "__dataclass_fields__", {})
        and "widget_metadata" in getattr(WStates, "__dataclass_fields__", {})
    )


def _context_fields() -> dict[str, Any]:
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    return dict(getattr(ScriptRunContext, "__dataclass_fields__", {}))


def _run_query_string() -> bool:
    return "query_string" in _context_fields()


def _frontend_testids() -> bool:
    return not _missing_from_frontend(list(TESTIDS))


def _frontend_attributes() -> bool:
    return not _missing_from_frontend(list(ATTRIBUTES))


FLOOD_GUARD = "the door's check of a widget's kind (a browser's value of another kind is dropped)"
CHECKS: tuple[Check, ...] = (
    Check(
        FLOOD_GUARD,
        "Runtime._session_mgr.get_session_info, AppSession._session_state, "
        "SessionState._new_widget_state, WStates.widget_metadata",
        _session_fields,
    ),
    Check(
        "the fair share and the cache's quotas per student",
        "streamlit.runtime.scriptrunner.get_script_run_ctx",
        _has("streamlit.runtime.scriptrunner", "get_script_run_ctx"),
    ),
    Check(
        "fast widget reads (a widget reads its own key, not the whole session)",
        "SafeSessionState.filtered_state and the widget functions in WIDGET_READS",
        _widget_functions,
    ),
    Check(
        "fast widget reads (a widget reads its own key, not the whole session)",
        "SafeSessionState._lock, ._state",
        _safe_state_fields,
    ),
    Check(
        "the server's messages sent a session at a time, with one wake for many (a page's "
        "messages no longer wait behind every other page's, one per turn of the event loop)",
        "Runtime._enqueued_some_message, ._get_async_objs, ._send_message, "
        "AppSession.flush_browser_queue, the text of Runtime._loop_coroutine",
        _sending_loop,
    ),
    Check(
        "a follower's Play in time with the lecturer's (the player's lateness judged from "
        "the instrument's own reruns)",
        "ScriptRunContext.fragment_ids_this_run",
        lambda: "fragment_ids_this_run" in _context_fields(),
    ),
    Check(
        "a setting the server set kept against the old value a timed fragment's rerun "
        "brings back from the browser",
        "ScriptRunContext.fragment_ids_this_run, ThreadState.get().fragment_id",
        lambda: "fragment_ids_this_run" in _context_fields()
        and _has("streamlit.runtime.scriptrunner_utils.script_run_context", "ThreadState", "get")(),
    ),
    Check(
        "the embed (?embed=1: a page without sidebar and header in a course page's frame)",
        "ScriptRunContext.query_string (the URL's embed=, which st.query_params hides)",
        _run_query_string,
    ),
    Check(
        "the first paint's navigation (titles, not file names)",
        "PagesManager.uses_pages_directory",
        _has("streamlit.runtime.pages_manager", "PagesManager", "uses_pages_directory"),
    ),
    Check(
        "the layout of presenter mode, an embed, the phone, the class strip and the printed proof",
        "the frontend's data-testid values in TESTIDS",
        _frontend_testids,
    ),
    Check(
        "the rerun after a reconnection (reconnect.py)",
        "the frontend's data-test-connection-state attribute",
        _frontend_attributes,
    ),
)


def problems() -> list[str]:
    """One line per failed check: the feature that is off and the internal it needs."""
    out = []
    for check in CHECKS:
        try:
            ok = check.probe()
        except Exception:  # a probe that cannot even look counts as a failed check
            ok = False
        if not ok:
            out.append(f"{check.feature} is off: this Streamlit has no {check.internal}")
    return out


def message(found: list[str]) -> str:
    """What the terminal is told: nothing when every check passed."""
    if not found:
        return ""
    head = (
        f"Perceptron Lab: Streamlit {st.__version__} is not the version this app was tested "
        f"on ({TESTED}; `python3 scripts/run.py` installs it)."
    )
    return "\n".join([head, *(f"  - {line}" for line in found)])


_REPORTED = False


def report() -> list[str]:
    """Check every internal once per process and print what is off to stderr (the
    terminal of ``streamlit run``, and the server's log where stderr is redirected);
    returns the lines."""
    global _REPORTED
    if _REPORTED:
        return []
    _REPORTED = True
    found = problems()
    if found:
        print(message(found), file=sys.stderr, flush=True)
    return found


if __name__ == "__main__":  # python3 -m ui.server.internals
    found = problems()
    print(message(found) or f"Streamlit {st.__version__}: every internal the app uses is here.")
    raise SystemExit(1 if found else 0)
