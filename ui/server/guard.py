"""Bounded work per browser message, and no traceback ever.

**One event of each kind per message.** A component's trigger may carry a list of
events (at most ``frames.MAX_EVENTS``: the door drops a longer one before Streamlit reads
it), and Streamlit runs the component's callback once per entry.
:func:`component_callbacks` reads the first event of each kind (component and event name)
of a message and returns at once for the rest (counters, reset at the start of every
script run by :func:`new_run`), and refuses a payload larger than a gesture can make
(:func:`within`) before anything loops over it. Events of different kinds are all read:
Streamlit merges the triggers of messages that arrive while a run is pending into one, so
the lecture's step report and the presenter key pressed right after it reach the same run,
and each must count.

**No traceback.** :func:`page` and :func:`fragment` run page code so that an
unexpected exception shows a short sentence (with a reference to the server's
log, never a path) and the rest of the app keeps working; :class:`cache.Busy`
shows its own sentence.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import secrets
import threading
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from typing import Any, ParamSpec, TypeVar, overload

import streamlit as st

from ui.server import fair, memory
from ui.server.cache import Busy
from ui.words import t

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
                    refuse(t("That edit was refused: it was not something a mouse or a key sends."))
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
        t(
            "Something went wrong on this part of the page, and it was not your fault. "
            "The rest of the app still works: change a setting, or go back to the defaults "
            "with the page's link in the sidebar. (Reference for the server's log: {ref}.)"
        ).format(ref=ref),
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


_RUN = threading.local()  # this thread's script run: in the whole page, in a fragment
# the key of a fragment's own container (:func:`fragment`): ALONE + the fragment's name, so
# a fragment is drawn once a run; the shell hides it while the fragment draws nothing
ALONE = "app_alone_"


@contextlib.contextmanager
def whole_page() -> Iterator[None]:
    """The shell's run of the whole page (everything a page draws is inside it): the
    fragments drawn in it are not reruns of their own (:func:`fragment_rerun`)."""
    _RUN.whole = True
    try:
        yield
    finally:
        _RUN.whole = False


def fragment_rerun() -> bool:
    """Whether this thread runs a fragment's rerun (a report, the channel's ask): inside a
    :func:`fragment` that no :func:`whole_page` holds. False outside a fragment. A whole
    page's run sends its fragments with the rest of the page, a rerun only theirs."""
    return getattr(_RUN, "fragments", 0) > 0 and not getattr(_RUN, "whole", False)


@overload
def fragment(fn: Callable[P, None], *, run_every: float | None = None) -> Callable[P, None]: ...


@overload
def fragment(
    fn: None = None, *, run_every: float | None = None
) -> Callable[[Callable[P, None]], Callable[P, None]]: ...


def fragment(fn: Callable[P, None] | None = None, *, run_every: float | None = None) -> Any:
    """``st.fragment`` that starts a new message's event count and shows no traceback
    (``run_every``: seconds between the reruns the browser asks for by itself), drawn in a
    container of its own.

    The container holds the fragment alone, so that nothing after it in the page moves when
    the browser drops the fragment's old elements. A fragment rerun queued behind a page
    run (the live channel's ask, a timer) takes the page run's unsent elements of that
    fragment out of the server's queue; at the page run's end the browser removes the
    fragment's old elements as stale, and the next element in their parent takes their
    place; the fragment's rerun then draws over that element (a student's question card,
    drawn after the lecture's instrument, would be lost until the page runs again). Inside
    a container of its own the fragment's place is emptied, not taken."""
    if fn is None:
        return functools.partial(fragment, run_every=run_every)

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> None:
        new_run(st.session_state)
        _RUN.fragments = getattr(_RUN, "fragments", 0) + 1
        try:
            with fair.turn(fragment=True):  # a session that keeps the server busy waits
                try:
                    fn(*args, **kwargs)
                except Exception as exc:
                    _report(exc)
        finally:
            _RUN.fragments -= 1

    rerun_alone = st.fragment(run, run_every=run_every)

    @functools.wraps(fn)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> None:
        with st.container(key=f"{ALONE}{fn.__name__}"):
            rerun_alone(*args, **kwargs)

    return drawn
