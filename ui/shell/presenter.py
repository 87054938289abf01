"""Presenter mode on a page without a projector layout of its own (the setting
``app_presenter`` of ui.app.state; Step by step and the class page draw their own).

While the marker below is on the page: no sidebar and no button to open it (the settings
are the sidebar's: the projector shows the lesson, not its knobs), no Streamlit header,
little padding, the whole width of the screen, type that grows with the screen
(rem-based: all of the page's text), and the lessons' paragraphs folded away
(``ui.look.text.prose``: the picture on the first screen; the lecturer says the words).
The marker is a row at the top of the page with the way out, *Leave presenter mode* (a
button, reached by Tab), since the sidebar's switch is hidden with the sidebar, and the
projector theme's switch (ui.look.plots: thicker lines and marks). May
import ``ui.app``, ``ui.look`` and ``ui.server``, never a lesson.
"""

from __future__ import annotations

import streamlit as st

from ui.app.state import assign
from ui.look.style import PRESENTER_FONT, page_style
from ui.look.text import PROSE
from ui.server.internals import testid

KEY = "app_presenter_on"  # the way out's row: the marker the rules below look for
ON = f"html:has(.st-key-{KEY})"

_style = page_style(
    "app_presenter",
    f"""
{ON} {{ font-size: {PRESENTER_FONT}; }}
{ON} section{testid("stSidebar")},
{ON} {testid("stExpandSidebarButton")},
{ON} header{testid("stHeader")} {{ display: none !important; }}
{ON} {testid("stMainBlockContainer")} {{
  padding: 0.5rem 1.5rem 1rem !important; max-width: 100% !important; }}
{ON} h1 {{ padding-top: 0 !important; font-size: 2.1rem !important; }}
{ON} h2 {{ font-size: 1.6rem !important; padding: 0.5rem 0 0.25rem !important; }}
@media screen {{ {ON} [class*="st-key-{PROSE}"] {{ display: none !important; }} }}
.st-key-{KEY} {{ justify-content: flex-end; margin-bottom: -0.75rem; }}
@media print {{ .st-key-{KEY} {{ display: none !important; }} }}
""",
)


def show() -> None:
    """The rules and the way out, at the top of the page (call in presenter mode only)."""
    _style()
    on = bool(st.session_state.get("app_projector", True))
    with st.container(key=KEY, horizontal=True):
        st.button(
            f"Projector theme: {'on' if on else 'off'}",
            key="app_projector_flip",
            icon=":material/contrast:",
            type="tertiary",
            help="thicker lines, larger marks and stronger tints, for a washed-out projector",
            on_click=assign,
            args=(st.session_state, "app_projector", not on),
        )
        st.button(
            "Leave presenter mode",
            key="app_presenter_off",
            icon=":material/close_fullscreen:",
            type="tertiary",
            on_click=assign,
            args=(st.session_state, "app_presenter", False),
        )
