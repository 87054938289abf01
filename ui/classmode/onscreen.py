"""What reaches a student wherever they are on the page: the open question's answer bar,
pinned to the bottom of the screen.

A student on a phone watches the chart, a screen or two below the question card; a
question must not wait above the fold for them to scroll to it. The card keeps the
question's picture and its optional second part; the answer itself (mistake or not)
sits in a bar fixed to the screen's bottom edge (a panel in the bottom right corner on a
wider screen, clear of the sidebar), in the card's place in the page's order, so the
keyboard and a screen reader reach it right after the question's text.
"""

from __future__ import annotations

from streamlit.delta_generator import DeltaGenerator

from ui.classmode import classroom as cr
from ui.look.palette import ASKED
from ui.look.style import page_style
from ui.server.internals import testid
from ui.words import t

BAR = "room_bar_"  # the bar's key: BAR + the question's number

# Fixed, so it stays on the screen however far the page is scrolled; over the page's
# content (the column gets room below its end to scroll out from under it), under the
# phone's open sidebar. It slides in once, which draws the eye of a student reading the
# chart; not with prefers-reduced-motion. Mounted with the bar only, so the column's room
# below needs no ``html:has(...)`` marker (which would restyle the whole document on
# every layout of the page).
BAR_CSS = f"""
[class*="st-key-{BAR}"] {{
  position: fixed; z-index: 90; left: 0; right: 0; bottom: 0; width: auto !important;
  gap: 0.35rem; padding: 0.55rem 1rem calc(0.6rem + env(safe-area-inset-bottom));
  background: #fff; border-top: 3px dotted {ASKED};
  box-shadow: 0 -4px 16px rgba(0, 0, 0, 0.18);
  animation: room-bar-in 0.35s ease-out;
}}
@media (min-width: 768px) {{
  [class*="st-key-{BAR}"] {{
    left: auto; right: 1.25rem; bottom: 1rem; width: min(34rem, calc(100vw - 2.5rem)) !important;
    border: 3px dotted {ASKED}; border-radius: 0.75rem; padding-bottom: 0.6rem;
  }}
}}
@keyframes room-bar-in {{ from {{ transform: translateY(110%); }} to {{ transform: none; }} }}
@media (prefers-reduced-motion: reduce) {{
  [class*="st-key-{BAR}"] {{ animation: none; }}
}}
"""
_bar_style = page_style(
    "room_bar",
    BAR_CSS
    + f"""
{testid("stMainBlockContainer")} {{
  padding-bottom: 14rem !important;
}}
""",
)


def answer_bar(box: DeltaGenerator, q: cr.Question, *, ringed: bool) -> DeltaGenerator:
    """The open question's bar in the card ``box``, with its question in words; the
    caller puts the answer's buttons in it. ``ringed``: the example is ringed on the
    chart of this page (Step by step, following the lecturer), so the bar says where."""
    _bar_style()
    bar = box.container(key=f"{BAR}{q.id}")
    if q.bank:  # the lecture's state is on the chart when following; the words say it all
        bar.markdown(t("**Question {id}:** {prompt}").format(id=q.id, prompt=q.prompt))
        return bar
    said = (
        t(
            "**Question {id}:** will point {point}, ringed with “?” on your chart, be a mistake at "
            "step t = {t}?"
        )
        if ringed
        else t(
            "**Question {id}:** will point {point}, drawn in the question card, be a mistake "
            "at step t = {t}?"
        )
    )
    bar.markdown(said.format(id=q.id, point=q.point + 1, t=q.t + 1))
    return bar
