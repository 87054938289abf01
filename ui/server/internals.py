"""Every piece of Streamlit that is not public API and that the app reads, in one place.

Streamlit's public API has no way to read a browser's frame, a widget's kind at the door,
the session a run belongs to, or the page's DOM; the app reads those here, and only here.
Nothing here replaces, wraps or sets anything of Streamlit's. Each read is registered with
:func:`internal`: the protection or feature that is off without it, where it lives, a
probe, and in its docstring the public alternative it waits for. The lock pins the
Streamlit they were checked on, ``TESTED``: on an upgrade this is the module to mend.

At a server's first run, :func:`report` prints one line per feature that is off to the
terminal of ``streamlit run`` (never to a page); ``python3 -m ui.server.internals`` prints
the same without a server, and ``tests/ui/server/test_server_internals.py`` fails if any
probe fails on the pinned version. A read that fails returns its default: the feature is
off and the page still runs.

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

TESTED = "1.67.0"  # the Streamlit every read below was checked on (the lock's)
T = TypeVar("T")


@dataclass(frozen=True)
class Check:
    """One internal: what is off without it, where it lives, and a probe that is True when
    this Streamlit has it as the app reads it."""

    feature: str
    internal: str
    probe: Callable[[], bool]


CHECKS: list[Check] = []


def internal(
    feature: str, where: str, probe: Callable[[], bool], *, default: Any = None
) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Register a read (see the module); it returns ``default`` if this Streamlit lacks
    what it reads (an import or an attribute gone)."""
    CHECKS.append(Check(feature, where, probe))

    def wrap(fn: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(fn)
        def safe(*args: Any, **kwargs: Any) -> T:
            try:
                return fn(*args, **kwargs)
            except (ImportError, AttributeError):
                return cast(T, default)

        return safe

    return wrap


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


def _fields(module: str, cls: str) -> set[str]:
    try:
        return set(getattr(importlib.import_module(module), cls).__dataclass_fields__)
    except (ImportError, AttributeError):
        return set()


def _ctx() -> Any:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    return get_script_run_ctx(suppress_warning=True)


_CONTEXT = "streamlit.runtime.scriptrunner_utils.script_run_context"
_FRAGMENTS = "ScriptRunContext.fragment_ids_this_run"


def _init_names(cls: type) -> tuple[str, ...]:
    """The names a class's ``__init__`` uses."""
    return tuple(inspect.unwrap(cls.__init__).__code__.co_names)  # type: ignore[misc]


def _session_fields() -> bool:
    from streamlit.runtime import Runtime
    from streamlit.runtime.app_session import AppSession

    return (
        "_session_state" in _init_names(AppSession)
        and "_session_mgr" in _init_names(Runtime)
        and _has("streamlit.runtime.session_manager", "SessionManager", "get_session_info")()
        and "_new_widget_state" in _fields("streamlit.runtime.state.session_state", "SessionState")
        and "widget_metadata" in _fields("streamlit.runtime.state.session_state", "WStates")
    )


# ----------------------------------------------------------------------- the server side


@internal(
    "the door's check of a widget's kind (a browser's value of another kind is dropped)",
    "Runtime._session_mgr.get_session_info, AppSession._session_state, "
    "SessionState._new_widget_state, WStates.widget_metadata",
    _session_fields,
)
def widget_kind(session_id: str, widget_id: str) -> str | None:
    """The kind of value (``int_value``, ``json_trigger_value`` ...) that session
    ``session_id`` drew widget ``widget_id`` with, or None if either is unknown; for the
    door (ui.server.frames), on the event loop: dictionary reads only. Waits for a public
    way to know a widget's kind outside its session's run."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    info = Runtime.instance()._session_mgr.get_session_info(session_id)
    if info is None:
        return None
    meta = info.session._session_state._new_widget_state.widget_metadata.get(widget_id)
    return None if meta is None else str(meta.value_type)


@internal(
    "the fair share and the cache's quotas per student",
    "streamlit.runtime.scriptrunner.get_script_run_ctx",
    _has("streamlit.runtime.scriptrunner", "get_script_run_ctx"),
)
def session_id() -> str | None:
    """The id of the session whose script runs on this thread; None outside a run. Waits
    for a session's id in ``st.context``."""
    ctx = _ctx()
    return None if ctx is None else ctx.session_id


@internal(
    "a setting the server set kept against the old value another fragment's rerun brings",
    f"{_FRAGMENTS}, ThreadState.get().fragment_id",
    lambda: (
        "fragment_ids_this_run" in _fields(_CONTEXT, "ScriptRunContext")
        and _has(_CONTEXT, "ThreadState")()
    ),
    default=False,
)
def change_from_another_fragment() -> bool:
    """In a widget's ``on_change``: whether this run reruns other fragments only. The
    browser sends every widget's value with each rerun, a timed fragment's too, as it last
    drew them: a value the server set a moment before comes back old and reads as a
    change, which the callback then refuses. Waits for the callback's fragment and the
    run's target in ``st.context``."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

    ctx = _ctx()
    targets = (ctx.fragment_ids_this_run or []) if ctx is not None else []
    return bool(targets) and ThreadState.get().fragment_id not in targets


@internal(
    "the embed (?embed=1: a page without sidebar and header in a course page's frame)",
    "ScriptRunContext.query_string (the URL's embed=, which st.query_params hides)",
    lambda: "query_string" in _fields(_CONTEXT, "ScriptRunContext"),
)
def reserved_query_parameter(name: str) -> str | None:
    """The last value of URL parameter ``name`` (``embed``), or None. Streamlit keeps it
    out of ``st.query_params`` (its own embed mode's); ``st.context.is_embedded`` knows
    only ``?embed=true``. Waits for the whole query in ``st.context``."""
    from urllib.parse import parse_qs

    ctx = _ctx()
    if ctx is None:
        return None
    values = parse_qs(str(ctx.query_string or "")[:4000], keep_blank_values=True).get(name)
    return values[-1] if values else None


FINISH_BYTES = 256  # a run's last message is smaller: larger ones are not parsed
_PROTO = "streamlit.proto"


@internal(
    "the door's reading of a browser's frame (its values checked, a timer's taken out)",
    "streamlit.proto.BackMsg_pb2.BackMsg",
    _has(f"{_PROTO}.BackMsg_pb2", "BackMsg"),
)
def back_message(data: bytes) -> Any:
    """A browser's frame parsed as Streamlit's ``BackMsg``, or None if it is not one (then
    Streamlit closes the stream itself). Waits for a public type of a browser's message."""
    from streamlit.proto.BackMsg_pb2 import BackMsg

    msg = BackMsg()
    try:
        msg.ParseFromString(data)
    except Exception:  # not a message of this wire format
        return None
    return msg


@internal(
    "a classmate's answer not queued behind many pages' messages (the fair share's wait "
    "for a page's messages to leave)",
    "streamlit.proto.ForwardMsg_pb2.ForwardMsg.script_finished",
    lambda: "script_finished" in _fields_of_forward(),
    default=False,
)
def run_finished(data: bytes) -> bool:
    """Whether ``data``, a message to a browser, is the last of a run (``script_finished``);
    the door tells the fair share (ui.server.fair.sent). Waits for a public hook on a run's
    messages having left."""
    if len(data) > FINISH_BYTES:
        return False
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = ForwardMsg()
    try:
        msg.ParseFromString(data)
    except Exception:  # not a message of this wire format
        return False
    return msg.WhichOneof("type") == "script_finished"


def _fields_of_forward() -> set[str]:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    return set(ForwardMsg.DESCRIPTOR.fields_by_name)


# ------------------------------------------------------------------------ the browser's DOM

# ``data-testid`` values of Streamlit's frontend that the app's CSS and scripts select, each
# checked against the frontend Streamlit ships. Each waits for a public class or part name.
TESTIDS = {
    "stApp": "the app's root: its connection state (reconnect.py) and script state",
    "stSidebar": "the sidebar: hidden in presenter mode and an embed, closed on a phone",
    "stSidebarCollapseButton": "the sidebar's close button, pressed on a phone",
    "stExpandSidebarButton": "the button reopening the sidebar, hidden in presenter mode",
    "stHeader": "the fixed header: hidden in presenter mode, an embed and on paper",
    "stMainBlockContainer": "the page's column: its padding in presenter mode, embed, paper",
    "stCaptionContainer": "captions: their size in presenter mode",
    "stMarkdownContainer": "markdown text: larger type on the class page and strip",
    "stProgress": "the class strip's tally bars: their labels' size",
    "stPageLink-NavLink": "the home page's links: their titles wrap on a phone",
    "stPopoverBody": "an open menu: presenter mode's Settings, as wide as a row of controls",
    "stLayoutWrapper": "a container's box in its column: none while a fragment draws nothing",
    "stVerticalBlock": "a column of elements: a plain block on paper, so page breaks obey",
    "stElementContainer": "one element's box: no page break just after a heading's",
    "stHeading": "a heading: kept with what follows it on paper",
    "stHorizontalBlock": "a row of columns: the proof's settings box, one column on paper",
    "stColumn": "a column of a row: the proof's settings box, the paper's width",
    "stExpander": "an expander: left out on paper",
    "stPageLink": "a link to another page: left out on paper",
    "stElementToolbar": "a chart's or table's toolbar: left out on paper",
}
CONNECTION_STATE = "data-test-connection-state"  # on the root: lost or CONNECTED
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


def _in_frontend(names: list[str]) -> bool:
    left = set(names)
    for text in _frontend_text():
        left = {n for n in left if n not in text}
        if not left:
            return True
    return not left


CHECKS.append(
    Check(
        "the layout of presenter mode, an embed, the phone, the class strip and the printed proof",
        "the frontend's data-testid values in TESTIDS",
        lambda: _in_frontend(list(TESTIDS)),
    )
)
CHECKS.append(
    Check(
        "the rerun after a reconnection (reconnect.py)",
        "the frontend's data-test-connection-state attribute",
        lambda: _in_frontend(list(ATTRIBUTES)),
    )
)


# ------------------------------------------------------------------------------ the report


def problems() -> list[str]:
    """One line per failed check: the feature that is off and the internal it needs."""
    out = []
    for check in CHECKS:
        try:
            ok = check.probe()
        except Exception:  # a probe that cannot even look counts as failed
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
    """Check every internal once per process and print what is off to stderr; returns the
    lines."""
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
