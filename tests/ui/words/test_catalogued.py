"""Every word the app shows goes through the catalogue: read from the source (``ast``).

A *shown literal* is a string written in the code (a constant, an f-string, or a sum of
them) that holds a word once its markup is set aside (HTML tags, ``$maths$``,
``:material/icon:`` names, ``{placeholders}``, entities), in a place a person reads:

- the text or label of a Streamlit element (``st.caption("...")``, ``box.button("...")``,
  ``st.tabs(["...", ...])``), and its ``label=``, ``help=`` and ``placeholder=``;
- a Plotly title, axis title, trace name or hover template (``title=``, ``name=`` of a
  ``go.*`` trace, ``hovertemplate=``).

A shown literal is a violation unless it is the message of ``t``, ``tn``, ``N_`` or
``Nn_``: an English word there would stay English in every language. A line may say
``# not words`` for a literal that is notation in every language (a file format's name, a
formula spelt in letters); the test lists how many lines say so, so that they stay few.

The check is a function of a folder, so the last test runs it on a small tree with one
violation of each kind: it must find them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MARKERS = {"t", "tn", "N_", "Nn_"}
ELEMENTS = {
    "markdown", "write", "caption", "title", "header", "subheader", "text", "info",
    "warning", "error", "success", "toast", "button", "toggle", "checkbox", "selectbox",
    "radio", "slider", "select_slider", "number_input", "text_input", "text_area",
    "expander", "download_button", "metric", "link_button", "popover", "segmented_control",
    "pills", "file_uploader", "form_submit_button", "multiselect", "tabs", "status",
    "dialog", "exception",
}  # fmt: skip
LABELS = {"label", "help", "placeholder"}
PLOTLY = {"title", "hovertemplate", "title_text"}
EXEMPT = "# not words"
# markup that is no word: tags and their attributes, style blocks, maths, icons, entities,
# format placeholders (a translated message fills them)
_MARKUP = re.compile(
    r"<style.*?</style>|<[^>]*>|\$[^$]*\$|:material/[a-z_]+:|&[a-z]+;|\{[^{}]*\}|%\{[^}]*\}",
    re.S,
)
_WORD = re.compile(r"[A-Za-z]{2,}")


def words_in(node: ast.AST) -> str:
    """The words a literal shows ('' for none): the constant text of a constant, an
    f-string or a sum of them, markup set aside; a marked message shows none."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " ".join(_WORD.findall(_MARKUP.sub(" ", node.value)))
    if isinstance(node, ast.JoinedStr):
        return words_in(ast.Constant("".join(_constant_parts(node))))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return " ".join(filter(None, (words_in(node.left), words_in(node.right))))
    if isinstance(node, ast.IfExp):
        return " ".join(filter(None, (words_in(node.body), words_in(node.orelse))))
    if isinstance(node, (ast.List, ast.Tuple)):
        return " ".join(filter(None, (words_in(e) for e in node.elts)))
    return ""


def _constant_parts(node: ast.JoinedStr) -> list[str]:
    return [v.value if isinstance(v, ast.Constant) else "{}" for v in node.values]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _is_trace(func: ast.expr) -> bool:
    """A Plotly trace or layout object: ``go.Scatter(...)``."""
    return isinstance(func, ast.Attribute) and _name(func.value) == "go"


def shown(call: ast.Call) -> list[ast.expr]:
    """The arguments of ``call`` a person reads."""
    name = _name(call.func)
    out: list[ast.expr] = []
    if (
        isinstance(call.func, ast.Attribute)
        and name in ELEMENTS
        and call.args
        and "log" not in _name(call.func.value).lower()  # a log line is for the operator
    ):
        out.append(call.args[0])
    for kw in call.keywords:
        if kw.arg in LABELS or kw.arg in PLOTLY or (kw.arg == "name" and _is_trace(call.func)):
            out.append(kw.value)
    return out


DICT_KEYS = {"title", "text", "name", "hovertemplate", "texttemplate", "label", "alt"}


def shown_in_dict(node: ast.Dict) -> list[ast.expr]:
    """The values of a figure's spec a person reads: ``{"title": {"text": "..."}}``,
    ``{"name": "..."}`` (a trace's legend), an annotation's ``{"text": "..."}``."""
    return [
        v
        for k, v in zip(node.keys, node.values, strict=True)
        if isinstance(k, ast.Constant) and k.value in DICT_KEYS
    ]


def violations(root: Path) -> tuple[list[str], int]:
    """Every shown literal outside the catalogue, as 'file:line: words', and how many
    lines are exempt."""
    found: list[str] = []
    exempt = 0
    files = [root / "app.py", *sorted((root / "pages").rglob("*.py"))]
    files += [p for p in sorted((root / "ui").rglob("*.py")) if "words" not in p.parts]
    for path in (p for p in files if p.is_file()):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.Dict):
                args = shown_in_dict(node)
            elif isinstance(node, ast.Call) and _name(node.func) not in MARKERS:
                args = shown(node)
            else:
                continue
            for arg in args:
                said = words_in(arg)
                if not said:
                    continue
                span = lines[arg.lineno - 1 : (arg.end_lineno or arg.lineno)]
                if any(EXEMPT in line for line in span):
                    exempt += 1
                    continue
                found.append(f"{path.relative_to(root)}:{arg.lineno}: {said[:60]}")
    return found, exempt


CACHES = {"cached", "cache", "lru_cache", "cache_data", "cache_resource"}


def translated_in_a_cache(root: Path) -> list[str]:
    """Every function kept by a cache (``@cached``, ``functools.cache``, ``lru_cache``,
    ``st.cache_data``) that calls ``t`` or ``tn`` itself: its answer would be the language of
    the session that filled the cache, for every session after it."""
    out: list[str] = []
    for path in [*sorted((root / "pages").rglob("*.py")), *sorted((root / "ui").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = {_name(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list}
            if not names & CACHES:
                continue
            calls = {_name(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)} & {"t", "tn"}
            if calls:
                out.append(f"{path.relative_to(root)}:{node.lineno}: {node.name}")
    return out


def test_no_cached_function_translates():
    assert translated_in_a_cache(ROOT) == []


def test_every_shown_literal_goes_through_the_catalogue():
    found, exempt = violations(ROOT)
    print(f"{exempt} shown literals are marked '{EXEMPT}'")
    assert not found, f"{len(found)} shown literals outside the catalogue:\n" + "\n".join(found)
    assert exempt <= 20, "notation should be rare: say it once, in a constant"


def test_the_check_finds_each_kind_of_violation(tmp_path: Path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "p.py").write_text(
        "import streamlit as st\n"
        "import plotly.graph_objects as go\n"
        "from ui.words import t\n"
        "st.caption('Mistakes so far')\n"  # a constant
        "box.button(f'Step {k} of {n}', key='b')\n"  # an f-string on a container
        "st.slider(t('ok'), help='drag it')\n"  # a help text
        "st.tabs([t('One'), 'Two'])\n"  # one tab of a list
        "go.Scatter(x=[1], name='mistakes')\n"  # a trace's legend
        "fig.update_layout(title='The bound')\n"  # a title
        "st.markdown('<div class=\"strip\">' + f'{x}' + '</div>')\n"  # markup only: fine
        "st.caption(t('Mistakes so far'))\n"  # through the catalogue: fine
        "st.latex(r'\\gamma')\n"  # not a text element: fine
        "st.caption('CSV')  # not words\n"  # exempt
        "spec = {'xaxis': {'title': {'text': 'mistake k'}}, 'name': t('w')}\n",  # a spec
        encoding="utf-8",
    )
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "runs.py").write_text(
        "@cached(max_mb=1)\ndef scene(k):\n    return t('Step {k}').format(k=k)\n\n"
        "def fine(k):\n    return t('Step {k}').format(k=k)\n",
        encoding="utf-8",
    )
    assert translated_in_a_cache(tmp_path) == ["ui/runs.py:2: scene"]
    found, exempt = violations(tmp_path)
    assert [f.split(":")[1] for f in found] == ["4", "5", "6", "7", "8", "9", "14"]
    assert "Mistakes so far" in found[0] and "drag it" in found[2] and found[3].endswith("Two")
    assert exempt == 1
