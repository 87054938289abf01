"""Presenter mode on a page without a projector layout of its own (the setting
``app_presenter`` of ui.app.state; Step by step and the class page draw their own).

In presenter mode: no sidebar and no button to open it (the settings
are the sidebar's: the projector shows the lesson, not its knobs), no Streamlit header,
little padding, the whole width of the screen, type that grows with the screen
(rem-based: all of the page's text), and the lessons' paragraphs folded away
(``ui.look.text.prose``: the picture on the first screen; the lecturer says the words).
A row at the top right of the page, beside the title, holds the way out,
*Leave presenter mode* (a button, reached by Tab), since the sidebar's switch is hidden with
the sidebar, and the projector theme's switch (ui.look.plots: thicker lines and marks).

A page's own controls (its sliders and switches) are drawn in :func:`settings`: in
presenter mode they fold into a *Settings* menu at the start of that row, so that the
page's first picture is whole on the first screen (the lecturer changes a setting now and
then; the class looks at the picture). Out of presenter mode they are where they were.

May import ``ui.app``, ``ui.look`` and ``ui.server``, never a lesson.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import streamlit as st

from ui.app.state import assign
from ui.look.style import PRESENTER_FONT, page_style
from ui.look.text import PROSE
from ui.server.internals import testid
from ui.words import t

KEY = "app_presenter_on"  # the way out's row
MENU = "app_presenter_menu"  # the Settings menu's contents
# The rules are on the page only in presenter mode (show() mounts them), so they need no
# marker: an ``html:has(...)`` rule would restyle the whole document on every layout
# (Plotly lays out once a tick label: 20 ms each on a long page, seconds of a frozen page)
ON = "html"

_style = page_style(
    "app_presenter",
    f"""
{ON} {{ font-size: {PRESENTER_FONT}; }}
{ON} section{testid("stSidebar")},
{ON} {testid("stExpandSidebarButton")},
{ON} header{testid("stHeader")} {{ display: none !important; }}
{ON} {testid("stMainBlockContainer")} {{
  padding: 0.5rem 1.5rem 1rem !important; max-width: 100% !important; }}
{ON} h1 {{ padding: 0 0 0.5rem !important; font-size: 2.1rem !important; }}
/* the title never runs under the way out's row (top right): the row takes at most half the
   width, in a language whose words are 40 % longer than English too */
{ON} {testid("stMainBlockContainer")} h1 {{ padding-right: 50% !important; }}
{ON} h2 {{ font-size: 1.6rem !important; padding: 0.5rem 0 0.25rem !important; }}
@media screen {{ {ON} [class*="st-key-{PROSE}"] {{ display: none !important; }} }}
.st-key-{KEY} {{ justify-content: flex-end; position: absolute; top: 0.5rem; right: 1.5rem;
  width: auto !important; z-index: 2; background: var(--background-color, #fff); }}
{testid("stPopoverBody")}:has(.st-key-{MENU}) {{
  width: min(92vw, 64rem) !important; max-width: min(92vw, 64rem) !important; }}
@media print {{ .st-key-{KEY} {{ display: none !important; }} }}
""",
)


# The row's first place, for the page's Settings menu: set by show(), emptied by reset()
# at the start of every run (a script thread runs one session's runs one after another).
_ROW = threading.local()


def reset() -> None:
    """No Settings menu in this run (yet): the shell calls it before the page."""
    _ROW.slot = _ROW.menu = None


@contextlib.contextmanager
def settings() -> Iterator[Any]:
    """Where a page draws its controls: in presenter mode the *Settings* menu of the row
    at the top (one menu for every call of a run), elsewhere a container in place. For a
    page's whole run only: a fragment's rerun would find the last page run's row."""
    slot = getattr(_ROW, "slot", None)
    if slot is None:
        with st.container() as here:
            yield here
        return
    if _ROW.menu is None:
        with slot.popover(t("Settings"), icon=":material/tune:", key="app_presenter_settings"):
            _ROW.menu = st.container(key=MENU)  # as wide as the page's row of controls
    with _ROW.menu as menu:
        yield menu


def show() -> None:
    """The rules and the way out, at the top of the page (call in presenter mode only)."""
    _style()
    on = bool(st.session_state.get("app_projector", True))
    with st.container(key=KEY, horizontal=True):
        _ROW.slot = st.empty()
        st.button(
            t("Projector theme: on") if on else t("Projector theme: off"),
            key="app_projector_flip",
            icon=":material/contrast:",
            type="tertiary",
            help=t("thicker lines, larger marks and stronger tints, for a washed-out projector"),
            on_click=assign,
            args=(st.session_state, "app_projector", not on),
        )
        st.button(
            t("Leave presenter mode"),
            key="app_presenter_off",
            icon=":material/close_fullscreen:",
            type="tertiary",
            on_click=assign,
            args=(st.session_state, "app_presenter", False),
        )
