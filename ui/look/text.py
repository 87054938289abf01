"""One way for outside text to reach the screen: :func:`safe`.

Outside text is anything a browser sent: a URL parameter's name or value, an
uploaded file's name, a CSV cell quoted in a message, a typed e-mail. Each sink
reads its own markup, so ``safe`` escapes for the sink it is told:

- ``"markdown"`` (``st.markdown``, alerts, captions, labels): every ASCII
  punctuation character backslash-escaped (no link, image, HTML, emphasis,
  ``$`` maths or table), and an invisible word joiner (U+2060) after every
  ``:``, before every ``@`` and inside ``www``: Streamlit turns ``:material/x:``,
  ``:red[...]`` and ``:smile:`` into icons, colours and emoji, and GitHub-style
  autolinks turn ``http://…``, ``www.…`` and ``a@b.c`` into links, all after the
  backslashes are read; the joiner breaks each pattern and shows nothing.
- ``"plotly"`` (titles, axis labels, hover, annotations): ``&``, ``<``, ``>``,
  ``"``, ``$`` and ``%`` as HTML entities, which Plotly shows as the characters
  (no ``<a>``, ``<span style>`` or ``<br>``, no MathJax, no ``%{…}`` template).
- ``"html"`` (component props that become markup, SVG text): ``html.escape``.
- ``"latex"`` (inside ``\\text{…}`` of ``st.latex``): TeX's special characters
  as their text commands, so no ``\\href`` or other command can be formed.

Control characters and line breaks become spaces, and text longer than
``limit`` characters is cut with an ellipsis before escaping, so one value
never fills a page.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import streamlit as st

from ui import words

Sink = Literal["markdown", "plotly", "html", "latex"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_PUNCT = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
_WWW = re.compile(r"(?i)(w)(ww)")
JOINER = "\u2060"  # WORD JOINER: zero width, not shown
_PLOTLY = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "$": "&#36;", "%": "&#37;"}
_LATEX = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


def shorten(text: object, limit: int) -> str:
    """``text`` as one line of at most ``limit`` characters (an ellipsis marks a cut)."""
    s = _CONTROL.sub(" ", str(text))
    return s if len(s) <= limit else s[: max(limit - 1, 0)] + "…"


def safe(text: object, *, sink: Sink = "markdown", limit: int = 80) -> str:
    """Outside text, escaped for ``sink``: it shows as typed and is never read as markup.

    Parameters
    ----------
    text : object
        What the browser sent (converted with ``str``).
    sink : {"markdown", "plotly", "html", "latex"}
        Where the result goes (see the module's docstring).
    limit : int
        Characters kept before escaping (the rest becomes "…").

    Returns
    -------
    str
        The escaped text, at most a few times ``limit`` characters long.
    """
    s = shorten(text, limit)
    if sink == "markdown":
        s = s.replace(":", ":" + JOINER).replace("@", JOINER + "@")
        s = _WWW.sub(r"\1" + JOINER + r"\2", s)
        if s.startswith("    "):  # four leading spaces would start a code block
            s = JOINER + s
        return _PUNCT.sub(r"\\\1", s)
    if sink == "plotly":
        return "".join(_PLOTLY.get(ch, ch) for ch in s)
    if sink == "html":
        return html.escape(s, quote=True)
    if sink == "latex":
        return "".join(_LATEX.get(ch, ch) for ch in s)
    raise ValueError(f"sink must be markdown, plotly, html or latex, not {sink!r}")


def visible(escaped: str) -> str:
    """What a reader sees of ``safe(..., sink="markdown")``: the escapes and joiners removed.

    For tests and for text that is compared with what the page shows.
    """
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", escaped).replace(JOINER, "")


def sections(text: str) -> dict[str, str]:
    """A markdown file cut at its ``## `` headings: {heading: body}."""
    out: dict[str, str] = {}
    for part in ("\n" + text).split("\n## ")[1:]:
        head, _, body = part.partition("\n")
        out[head.strip()] = body.strip()
    return out


def vector(v: Any) -> str:
    """A vector in LaTeX, 3 significant digits: (0.5,\\ -1,\\ 1)."""
    return "(" + ",\\ ".join(f"{x:.3g}" for x in v) + ")"


ASSETS = Path(__file__).resolve().parents[2] / "assets"


def asset(page: str) -> str:
    """``assets/<page>.md`` in this run's language: ``assets/<page>.<lang>.md``, a lesson
    translated whole, where there is one, else the English (each read once per process)."""
    return _asset(page, words.language())


@functools.lru_cache(maxsize=128)
def _asset(page: str, code: str) -> str:
    translated = ASSETS / f"{page}.{code}.md"
    if code != words.ENGLISH and translated.is_file():
        return translated.read_text(encoding="utf-8")
    text = (ASSETS / f"{page}.md").read_text(encoding="utf-8")
    if code == words.PSEUDO:  # every paragraph of prose stretched (not maths nor a table)
        return "\n\n".join(_stretched(p) for p in text.split("\n\n"))
    return text


def _stretched(paragraph: str) -> str:
    head, body = "", paragraph
    if paragraph.startswith("## "):  # a section's name (``lesson_text``'s key) stays
        head, _, body = paragraph.partition("\n")
        head += "\n"
    if not body.strip() or body.lstrip().startswith(("$$", "|", "```", "<")):
        return paragraph
    # a list is stretched item by item, each item's markers its own, as a translation is
    items = re.split(r"\n(?=(?:[-*]|\d+\.) )", body)
    return head + "\n".join(words.stretch(item) for item in items)


def lesson_text(page: str) -> MappingProxyType[str, str]:
    """``assets/<page>.md`` (in this run's language) cut at its ``## `` headings:
    {heading: body}, read-only."""
    return _lesson_text(page, words.language())


@functools.lru_cache(maxsize=128)
def _lesson_text(page: str, code: str) -> MappingProxyType[str, str]:
    return MappingProxyType(sections(_asset(page, code)))


def prose(texts: MappingProxyType[str, str], name: str) -> None:
    """A lesson's paragraphs ``name`` (``lesson_text``), in a block of their own. In
    presenter mode the projector shows the pictures and the lecturer says the words: the
    block folds away there (``ui.shell.presenter``) and comes back when presenter mode ends."""
    st.container(key=f"{PROSE}{name}").markdown(texts[name])


PROSE = "app_prose_"  # the key's prefix of a lesson's paragraphs (``prose``)
