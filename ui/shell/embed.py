"""A page in a course page's frame (``?embed=1``, the setting ``embed`` of ui.app.state).

A course page (Moodle, Canvas) shows one page of the app in an ``<iframe>`` with the
settings of its link. While the link below is on the page: no sidebar and no button to
open it, no Streamlit header (its toolbar, menu and running indicator), little padding
and the whole width of the frame for the page; the page's own widgets work as anywhere.
Above the page, one small link opens the same page, with the settings it shows now, in a
new tab of the full app (without ``embed=``). The shell draws no class strip in an embed
and takes no class from the link or the browser's cookie.

Streamlit's own ``?embed=true`` (read as ``embed=1`` too) also hides its toolbar and
padding; the rules here do not depend on it.
"""

from __future__ import annotations

import streamlit as st

from ui.server.internals import testid

KEY = "app_embed"  # the link's container
# The rules are on the page only in an embed (show() mounts them), so they need no
# marker: an ``html:has(...)`` rule would restyle the whole document on every layout
ON = "html"

_CSS = f"""
{ON} section{testid("stSidebar")},
{ON} {testid("stExpandSidebarButton")},
{ON} header{testid("stHeader")} {{ display: none !important; }}
{ON} {testid("stMainBlockContainer")} {{
  padding: 0.25rem 1rem 1rem !important; max-width: 100% !important; }}
.st-key-{KEY} {{ text-align: right; font-size: 0.8rem; line-height: 1.2; }}
.st-key-{KEY} a {{ color: inherit; opacity: 0.8; }}
@media print {{ .st-key-{KEY} {{ display: none !important; }} }}
"""

# The link's address is the frame's own at the moment it is used (the settings the page
# shows now: a step taken in the player is in the address before the server reruns the
# page), without Streamlit's embed parameters.
_JS = """
export default function (component) {
  const a = component.parentElement.querySelector("a.embed-open");
  if (!a) return;
  const here = () => {
    const url = new URL(window.location.href);
    for (const name of [...url.searchParams.keys()])
      if (/^embed(_options)?$/i.test(name)) url.searchParams.delete(name);
    return url.toString();
  };
  a.href = here();
  if (a.dataset.ready) return;
  a.dataset.ready = "1";
  for (const event of ["pointerdown", "focus", "mouseenter", "keydown"])
    a.addEventListener(event, () => { a.href = here(); });
}
"""

_HTML = (
    '<a class="embed-open" target="_blank" rel="noopener" href="#">'
    "Open in Perceptron Lab \u2197</a>"
)

_link = st.components.v2.component(
    "perceptron_embed_link", html=_HTML, css=_CSS, js=_JS, isolate_styles=False
)


def show() -> None:
    """The embed's rules and its link, at the top of the page (call in an embed only)."""
    _link(key=KEY)
