"""The challenge's board on the page: the SVG drawings of ``figures.board_svgs`` in a
``st.components.v2`` component of our own (inline SVG, so a screen reader reads its
sentence and the browser scales its text with it).

The browser shows the widest drawing whose ``from`` width its box reaches (a CSS container
query: no script measures anything). A page that must keep the board within the screen
sets the CSS variable ``--room-board-max-height`` on an ancestor (the projector's board).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ui.classmode.entries import Submission
from ui.room.figures import FRAMES, board_svgs

_SHOW = "\n".join(
    f"@container room-board (min-width: {wide}px) {{ .board .v {{ display: none; }} "
    f".board .v{i} {{ display: block; }} }}"
    for i, (wide, _) in enumerate(FRAMES)
)
_CSS = f"""
.board {{ container: room-board / inline-size; width: 100%; }}
.board .v {{ display: none; }}
.board .v0 {{ display: block; }}
{_SHOW}
.board svg {{ display: block; width: 100%; height: auto; margin: 0 auto;
  max-height: var(--room-board-max-height, none); font-family: inherit; }}
"""
_board = st.components.v2.component(
    "perceptron_room_board",
    html='<div class="board"></div>',
    css=_CSS,
    js="""export default function (component) {
  const { data, parentElement } = component;
  const box = parentElement.querySelector(".board");
  if (!box || !data || !Array.isArray(data.drawings)) return;
  const key = JSON.stringify(data.drawings.map(d => d.svg));
  if (box.drawn === key) return;  // the same board: nothing to redraw
  box.drawn = key;
  // markup built in Python from numbers only (ui/room/figures.py: no nickname in it)
  box.innerHTML = data.drawings.map((d, i) => `<div class="v v${i}">${d.svg}</div>`).join("");
}""",
    isolate_styles=True,
)


def board(subs: Sequence[Submission], *, key: str) -> None:
    """The board of ``subs`` (best first)."""
    _board(key=key, data={"drawings": board_svgs(subs)})
