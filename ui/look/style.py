"""CSS of our own for the page, without ``st.html``: no markup reaches the page from a run.

A component's ``css`` with ``isolate_styles=False`` is put in the document itself (not a
shadow root), once, from its definition. :func:`page_style` defines one such component
per style, at import time, and gives back the function a page calls to put it on the page.
The carrier takes no room (its own rule hides it).
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

# Presenter type scales with the screen: 18 px at 1280×720, 27 px at 1920×1080 (the
# smaller of the width's and the height's share, so a 4:3 or 16:10 projector fits too);
# the page's rem-sized text follows (and the lecture's player and chart, which read it).
PRESENTER_FONT = "clamp(12px, min(1.40625vw, 2.5vh), 72px)"


def page_style(name: str, css: str) -> Callable[[], None]:
    """Define the style ``name`` (page-prefixed, e.g. ``"home_links"``; our own constant CSS,
    never outside text).

    The rules are on the page while the style is mounted, and gone with it: a mode's rules
    (presenter mode, an embed) are mounted in that mode only and key on nothing. A rule
    keyed on ``html:has(...)`` restyles the whole document on every layout, and Plotly
    lays out once per tick label it measures (SGD's page froze 15 s that way).

    Returns
    -------
    callable
        Call it once per run, anywhere on the page, to apply the style.
    """
    key = f"{name}_style"  # ``name`` starts with its page's prefix, as every key does
    component = st.components.v2.component(
        f"perceptron_style_{name}",
        html="",
        css=f".st-key-{key} {{ display: none; }}\n{css}",
        isolate_styles=False,
    )

    def mount() -> None:
        component(key=key)

    return mount


# Asked for less motion (prefers-reduced-motion), nothing on the page moves by itself:
# Streamlit fades a rerun's stale elements and spins its running icon, so every transition
# and animation of the page ends at once (after 0.01 ms, not 0, so that their end events
# still come to the scripts that wait for them). Mounted on every page (ui.shell).
still_when_asked = page_style(
    "app_motion",
    """@media (prefers-reduced-motion: reduce) {
  *, *::before, *::after {
    animation-duration: 0.01ms !important;
    animation-iteration-count: 1 !important;
    transition-duration: 0.01ms !important;
    transition-delay: 0s !important;
    scroll-behavior: auto !important;
  }
}""",
)
