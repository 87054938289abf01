"""``ui.look.text.safe``: outside text shows as typed in every sink, never as markup.

The markdown sink is checked with an independent parser (markdown-it-py, CommonMark
with GitHub's autolinks), then for Streamlit's own extras (``:material/…:`` icons,
``:red[…]`` colours, ``:smile:`` emoji), which run on the text after the parser.
The browser tests check the same corpus in Streamlit itself.
"""

import html
import re

import pytest
from hostile_corpus import CORPUS
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from ui.look.text import JOINER, safe, shorten, visible

MD = MarkdownIt("gfm-like")  # CommonMark + tables, strikethrough and linkify
TAG = re.compile(r"<(?!/?p>)[^>]*>")  # any tag but the paragraph around the text
STREAMLIT_EXTRAS = re.compile(r":[a-z-]+(/[a-z_]+:|\[)|:[a-z_]+:")  # icons, colours, emoji
AUTOLINK = re.compile(r"(?i)https?://|www\.|\w@\w")


def rendered_text(markdown: str) -> tuple[str, str]:
    """(the HTML markdown-it makes, the text a reader sees in it)."""
    out = MD.render(markdown)
    return out, html.unescape(TAG.sub("", out.replace("<p>", "").replace("</p>", ""))).strip()


@pytest.mark.parametrize("text", CORPUS)
def test_markdown_shows_the_text_and_no_markup(text):
    out, seen = rendered_text(safe(text, limit=200))
    assert TAG.search(out) is None, out  # no link, image, emphasis, code, heading, list...
    assert seen.replace(JOINER, "") == shorten(text, 200).strip()  # the reader sees the text
    assert visible(safe(text, limit=200)) == shorten(text, 200)
    assert STREAMLIT_EXTRAS.search(seen) is None  # joiners break :icon:, :red[ and :emoji:
    assert AUTOLINK.search(seen) is None  # and http://, www. and a@b autolinks


@pytest.mark.parametrize("text", ["    0", "\t0", "        indented code?"])
def test_leading_spaces_do_not_make_a_code_block(text):
    out, _ = rendered_text(safe(text))
    assert TAG.search(out) is None, out
    assert visible(safe(text)) == shorten(text, 80)  # a tab shows as a space


@given(st.text(max_size=120))
def test_any_text_round_trips_through_the_markdown_sink(text):
    escaped = safe(text, limit=200)
    out, seen = rendered_text(escaped)
    assert TAG.search(out) is None
    assert visible(escaped) == shorten(text, 200)
    assert STREAMLIT_EXTRAS.search(seen) is None
    assert AUTOLINK.search(seen) is None


@pytest.mark.parametrize("text", CORPUS)
def test_plotly_gets_entities_for_every_character_it_reads(text):
    out = safe(text, sink="plotly", limit=200)
    assert not set('<>$%"') & set(out)  # no tag, no MathJax, no %{template}
    assert re.sub(r"&(amp|lt|gt|quot|#36|#37);", "", out).count("&") == 0
    assert html.unescape(out) == shorten(text, 200)


@pytest.mark.parametrize("text", CORPUS)
def test_html_and_latex_sinks(text):
    assert html.unescape(safe(text, sink="html", limit=200)) == shorten(text, 200)
    assert "<" not in safe(text, sink="html", limit=200)
    latex = safe(text, sink="latex", limit=200)
    # only our own text commands: no \href or any other command can be formed
    assert set(re.findall(r"\\([a-zA-Z]+)", latex)) <= {
        "textbackslash",
        "textasciicircum",
        "textasciitilde",
    }
    assert re.search(r"(?<!\\)[{}$&#^_%~]", latex.replace("{}", "")) is None


def test_long_text_is_cut_and_lines_join():
    assert safe("x" * 500, limit=10) == "x" * 9 + "…"
    assert shorten("a\nb\tc\x00d", 20) == "a b c d"


def test_an_unknown_sink_is_refused():
    with pytest.raises(ValueError, match="sink"):
        safe("x", sink="svg")  # type: ignore[arg-type]
