"""Every piece of Streamlit that is not public API and that the app relies on, in one place.

Streamlit's public API has no way to read a browser's frame or its widget's kind at the
door, or the session a run belongs to; the app reads those from Streamlit's internals, and
only here.
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
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import streamlit as st

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


FINISH_BYTES = 256  # a run's last message is smaller: larger messages are not parsed


@_or(False)
def run_finished(data: bytes) -> bool:
    """Whether ``data``, a message the server sends a browser, is the last of a run
    (Streamlit's ``ForwardMsg.script_finished``). For the fair share: the door tells it when
    a page's messages have left (ui.server.fair.sent). Waits for a public hook on a run's
    messages having been sent."""
    if len(data) > FINISH_BYTES:
        return False
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    try:
        msg.ParseFromString(data)
    except Exception:  # not a message of this wire format: nothing is known of it
        return False
    return msg.WhichOneof("type") == "script_finished"


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


# ------------------------------------------------------------------------------ the checks


@dataclass(frozen=True)
class Check:
    """One internal: what is off without it, what it is, and a probe that is True when
    this Streamlit has it as the app uses it."""

    feature: str  # the protection or feature that is off without it
    internal: str  # where it lives in Streamlit
    probe: Callable[[], bool]


_CONTEXT = "streamlit.runtime.scriptrunner_utils.script_run_context"


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


def _init_names(cls: type) -> tuple[str, ...]:
    """The names a class's ``__init__`` uses (the original's, under any wrap)."""
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


def _forward_fields() -> set[str]:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    return set(ForwardMsg.DESCRIPTOR.fields_by_name)


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
        "a classmate's answer not queued behind many pages' messages (the fair share's "
        "wait for a page's messages to leave)",
        "streamlit.proto.ForwardMsg_pb2.ForwardMsg.script_finished",
        lambda: "script_finished" in _forward_fields(),
    ),
    Check(
        "the fair share and the cache's quotas per student",
        "streamlit.runtime.scriptrunner.get_script_run_ctx",
        _has("streamlit.runtime.scriptrunner", "get_script_run_ctx"),
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
        lambda: "fragment_ids_this_run" in _context_fields() and _has(_CONTEXT, "ThreadState")(),
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
