"""Every "seed NNN" citation of a rule or a convention against what that handout states.

``HANDOUTS`` is a table of what each lecture handout says about the conventions the app cites
it for (the mistake rule, where the bias goes), every entry with a short quote from the
handout's text. The table lives here, so the project stands alone; the tests then check

* that each quote really is in the handout (so the table cannot drift from the seeds): the
  handouts sit beside the project, in ``../shared/seeds/``, in the workplace and in CI; a
  clone of the project alone has no such folder, and these two tests say so as they skip;
* that every ``RULES[...].source`` line cites exactly the handouts that state that rule,
  each under its own name;
* that no sentence of ``perceptron_core/``, ``README.md`` or ``assets/`` credits a rule,
  a bias placement or a bounded ‖w‖ to a handout that does not state it.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

from perceptron_core import RULES

REPO = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
NO_HANDOUTS = (
    f"the lecture handouts are not beside the project (no {SEEDS}): a clone of the project "
    "alone checks its citation table against itself only"
)


@dataclass(frozen=True)
class Handout:
    """One lecture handout: its name in the app, and what it states, with quotes."""

    title: str  # how the app names it in a "Source:" line
    title_quote: str  # a piece of that name found in the handout
    states: dict[str, tuple[str, ...]]  # fact -> quotes from the handout that state it


HANDOUTS: dict[str, Handout] = {
    "000": Handout(
        "Princeton COS 495",
        "Princeton University COS 495",
        {
            # no bias at all: f_w(x) = w^T x
            "rule:predict_gt": (
                r"predict positive iff $\mathbf{w}_t \cdot \mathbf{x} > 0$",
                "On a mistake, update as follows",
            ),
            "predict:gt": (r"predict positive iff $\mathbf{w}_t \cdot \mathbf{x} > 0$",),
        },
    ),
    "001": Handout(
        "Cornell CS6780",
        "CS6780",
        {
            # a biased hypothesis keeps b as a separate scalar: sign(w.x + b), nothing absorbed
            "rule:nonpositive": (r"IF $y_i(\vec{w}_k \cdot \vec{x}_i) \leq 0$ ### makes mistake",),
            # its hypothesis predicts with sign(a) = +1 iff a > 0, though its loop updates at <= 0
            "predict:gt": (
                r"+1 & \vec{w} \cdot \vec{x} > 0 \\ -1 & \text{else}",
                r"$sign(a) = \begin{cases} +1 & a > 0 \\ -1 & \text{else} \end{cases}$",
            ),
        },
    ),
    "002": Handout(
        "EURECOM MALIS",
        "EURECOM",
        {
            "rule:negative": (r"if $(\mathbf{w}^T \mathbf{x}_i) y_i < 0$ **then**",),
            "bias:first": (
                r"\mathbf{x}_i \text{ becomes } \begin{bmatrix} 1 \\ \mathbf{x}_i \end{bmatrix}",
                r"\mathbf{w} \text{ becomes } \begin{bmatrix} b \\ \mathbf{w} \end{bmatrix}",
            ),
        },
    ),
    "003": Handout(
        "UMass CMPSCI 689",
        "CMPSCI 689",
        {
            # +1 iff w^T x > 0, -1 iff w^T x <= 0; update iff the prediction is wrong
            "rule:predict_gt": (
                "predict according to the current model",
                "if w T x i > 0",
                "if w T x i ≤ 0",
                "else, w ← w + y i x i",
            ),
            "predict:gt": ("if w T x i > 0", "if w T x i ≤ 0"),
            "bias:last": ("BIAS (intercept, always has value 1)", "x → ( x , 1)"),
        },
    ),
    "004": Handout(
        "handwritten notes",
        "The Perceptron Algorithm",
        {
            "rule:predict_ge": (
                r"\text{if } \vec{w} \cdot \vec{x}_t \geq 0 \text{ then } \hat{y}_t = +1",
                r"\text{if } \hat{y}_t \neq y_t \text{ then }",
            ),
            "predict:ge": (r"\text{if } \vec{w} \cdot \vec{x}_t \geq 0 \text{ then }",),
            "bias:last": (r"\vec{x}' = \begin{pmatrix} \vec{x} \\ 1 \end{pmatrix}",),
        },
    ),
}

# No handout states that ||w|| stays bounded on non-separable data (seeds 002 and 003 only
# say the run does not converge); it is the perceptron cycling theorem (Block & Levin 1970).
FACTS = {
    "rule:nonpositive",
    "rule:predict_gt",
    "rule:predict_ge",
    "rule:negative",
    "predict:gt",
    "predict:ge",
    "bias:first",
    "bias:last",
    "w_bounded",
}

# What each rule of RULES means, so the ties of the engine's rules are checked too:
# (is w.x = 0 a mistake on a +1 example, on a -1 example?)
RULE_TIES = {
    "nonpositive": (True, True),  # y w.x <= 0
    "predict_gt": (True, False),  # predict +1 iff w.x > 0
    "predict_ge": (False, True),  # predict +1 iff w.x >= 0
    "negative": (False, False),  # y w.x < 0
}


def _squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def seed_texts() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.skip(NO_HANDOUTS)
    texts = {}
    for number in HANDOUTS:
        files = sorted(SEEDS.glob(f"{number}_*.txt"))
        assert len(files) == 1, f"expected one handout {number}_*.txt in {SEEDS}, got {files}"
        texts[number] = _squash(files[0].read_text(encoding="utf-8"))
    return texts


# --- (a) the table is what the handouts say ------------------------------------------------


def test_the_table_covers_every_handout():
    if not SEEDS.is_dir():
        pytest.skip(NO_HANDOUTS)
    on_disk = {p.name[:3] for p in SEEDS.glob("[0-9][0-9][0-9]_*.txt")}
    assert on_disk == set(HANDOUTS)
    for handout in HANDOUTS.values():
        assert set(handout.states) <= FACTS


@pytest.mark.parametrize("number", sorted(HANDOUTS))
def test_every_quote_occurs_in_its_handout(number, seed_texts):
    handout = HANDOUTS[number]
    text = seed_texts[number]
    assert _squash(handout.title_quote) in text
    for fact, quotes in handout.states.items():
        assert quotes, f"seed {number}: {fact} needs a quote"
        for quote in quotes:
            assert _squash(quote) in text, f"seed {number} ({fact}) does not say {quote!r}"


def test_each_handout_states_one_rule_and_at_most_one_bias_placement():
    for number, handout in HANDOUTS.items():
        rules = [f for f in handout.states if f.startswith("rule:")]
        biases = [f for f in handout.states if f.startswith("bias:")]
        assert len(rules) == 1, number
        assert len(biases) <= 1, number


# --- (b) the "Source:" line of every rule ----------------------------------------------------

CITATION = re.compile(
    r"\bseeds?\s+(\d{3}(?:\s*(?:,|/|\band\b|\bor\b|-|–)\s*\d{3})*)", flags=re.IGNORECASE
)


def _numbers(group: str) -> set[str]:
    """'000, 003' -> {'000', '003'}; '000-004' -> the five of them."""
    found: set[str] = set()
    for a, b in re.findall(r"(\d{3})\s*[-–]\s*(\d{3})", group):
        found |= {f"{i:03d}" for i in range(int(a), int(b) + 1)}
    return found | set(re.findall(r"\d{3}", group))


def cited(text: str) -> set[str]:
    """Every handout number a text cites: by the name the app gives it ("Cornell CS6780"),
    or in the code's comments and docstrings as 'seed NNN' / 'seeds NNN, MMM'."""
    out = {n for n, h in HANDOUTS.items() if h.title in " ".join(text.split())}
    for m in CITATION.finditer(text):
        out |= _numbers(m.group(1))
    return out


def test_the_citation_parser():
    assert cited("Cornell CS6780 (seed 001), UMass CMPSCI 689 (seed 003)") == {"001", "003"}
    assert cited("seeds 000-004") == {"000", "001", "002", "003", "004"}
    assert cited("(seeds\n001, 003)") == {"001", "003"}
    assert cited("seeds 000 and 002 with R = 1") == {"000", "002"}
    assert cited("no handout") == set()
    assert cited("Princeton COS 495, UMass CMPSCI 689") == {"000", "003"}
    assert cited("the handwritten notes' derivation") == {"004"}
    assert cited("(EURECOM\nMALIS)") == {"002"}


@pytest.mark.parametrize("key", sorted(RULES))
def test_every_rule_cites_exactly_the_handouts_that_state_it(key):
    source = RULES[key].source
    stating = {n for n, h in HANDOUTS.items() if f"rule:{key}" in h.states}
    assert stating, f"no handout states the rule {key!r}"
    assert cited(source) <= stating, f"{key}: {source!r} cites a handout that does not state it"
    assert cited(source) == stating, f"{key}: {source!r} leaves out a handout that states it"


@pytest.mark.parametrize("key", sorted(RULES))
def test_every_rule_names_each_handout_it_cites_by_its_own_title(key):
    """A student knows a handout by its course, not by its file's number here."""
    source = RULES[key].source
    titles = [HANDOUTS[n].title for n in sorted(cited(source))]
    assert source.removeprefix("the ") == ", ".join(titles), (key, source)
    assert not CITATION.search(source), (key, source)


@pytest.mark.parametrize("key", sorted(RULES))
def test_every_rule_has_the_ties_its_name_says(key):
    rule = RULES[key]
    assert (rule.tie_pos, rule.tie_neg) == RULE_TIES[key]


def test_the_spam_rule_of_seed_003_is_predict_gt():
    """Seed 003 predicts +1 iff w.x > 0: from w = 0 a -1 example is no mistake."""
    assert "003" in cited(RULES["predict_gt"].source)
    assert "003" not in cited(RULES["nonpositive"].source)
    assert RULES["predict_gt"].tie_neg is False


# --- (c) the prose: no convention credited to a handout that does not state it ---------------


def _normalise(text: str) -> str:
    """LaTeX, Markdown and Python spellings of w.x, <= and >= in one plain form."""
    text = re.sub(r"\\(?:mathbf|vec|boldsymbol)\{(\w)\}", r"\1", text)
    text = re.sub(r"\\(?:leq?|leqslant)\b", "≤", text)
    text = re.sub(r"\\(?:geq?|geqslant)\b", "≥", text)
    text = text.replace("<=", "≤").replace(">=", "≥").replace(r"\cdot", "·")
    text = re.sub(r"\\[,;!]", " ", text)
    return text.replace("$", "").replace("*", "").replace("`", "")


_W = r"w(?:_\w+|ᵢ)?\s*(?:·|\.)\s*x(?:_\w|ᵢ|⃗_?\w?)?"
_Y = r"y(?:_\w|ᵢ)?\s*·?\s*"
# a phrase that states a convention -> the fact it states
CLAIMS: dict[str, re.Pattern[str]] = {
    # the mistake rules, stated as rules ("mistake iff ...", "counts ... as a mistake")
    "rule:nonpositive": re.compile(
        rf"mistake\s+iff\s+{_Y}\(?{_W}\)?\s*≤\s*0|{_Y}\(?{_W}\)?\s*≤\s*0\s+(?:as|is)\s+a\s+mistake"
    ),
    "rule:negative": re.compile(
        rf"mistake\s+iff\s+{_Y}\(?{_W}\)?\s*<\s*0|{_Y}\(?{_W}\)?\s*<\s*0\s+(?:as|is)\s+a\s+mistake"
        rf"|updates?\s+only\s+when\s+{_Y}\(?{_W}\)?\s*<\s*0"
    ),
    # the prediction: +1 iff w.x > 0 (or >= 0)
    "predict:gt": re.compile(rf"(?:\+1|positive|up|spam)\s+iff\s+{_W}\s*>\s*0"),
    "predict:ge": re.compile(rf"(?:\+1|positive|up|spam)\s+iff\s+{_W}\s*≥\s*0"),
    "bias:last": re.compile(
        r"\b(?:appended|added|put|puts|placed|goes|comes)\s+(?:the\s+1\s+)?last\b"
        r"|\blast\s+(?:coordinate|column|entry|component)\b|\bbias\s+last\b",
        re.IGNORECASE,
    ),
    "bias:first": re.compile(
        r"\bprepended\b|\b(?:appended|added|put|puts|placed|goes|comes)\s+(?:the\s+1\s+)?first\b"
        r"|\bfirst\s+(?:coordinate|column|entry|component)\b|\bbias\s+first\b",
        re.IGNORECASE,
    ),
    "w_bounded": re.compile(
        r"(?:‖w‖|\|\|w\|\||\bw\b)\s+(?:stays|remains|is|stays\s+on\s+a)\s+bounded", re.IGNORECASE
    ),
}

# A clause ends at ';', a table cell, a blank line, a list item or a sentence end.
CLAUSE_END = re.compile(r"[;|]|\n\s*\n|\n\s*[-*]\s|(?<=[.!?])\s+(?=[A-Z])")


def _clauses(text: str) -> list[str]:
    return [c for c in CLAUSE_END.split(text) if c.strip()]


def claimed_citations(text: str) -> list[tuple[str, set[str], str]]:
    """(fact, handouts cited for it, clause) for every convention the text states.

    The citation of a phrase is the first 'seed NNN' after it in its clause, or else the
    last one before it: "appended last (seeds 003, 004; seed 002 puts the 1 first)".
    """
    out = []
    for clause in _clauses(_normalise(text)):
        groups = list(CITATION.finditer(clause))
        for fact, pattern in CLAIMS.items():
            for m in pattern.finditer(clause):
                after = [g for g in groups if g.start() >= m.end()]
                before = [g for g in groups if g.end() <= m.start()]
                g = after[0] if after else (before[-1] if before else None)
                if g is not None:
                    out.append((fact, _numbers(g.group(1)), " ".join(clause.split())))
    return out


def _prose(path: Path) -> str:
    """A Markdown file's text; a Python file's docstrings and comments (its string data, such
    as the RULES source lines, is checked above), one paragraph each."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return text
    parts = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                parts.append(doc)
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            parts.append(tok.string.lstrip("#"))
    return "\n\n".join(parts)


def _prose_files() -> list[Path]:
    files = sorted((REPO / "perceptron_core").glob("*.py"))
    files += [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    files += sorted((REPO / "assets").glob("*.md"))
    return [f for f in files if f.is_file()]


def test_the_claim_finder():
    wrong = "The bias is the constant 1 appended *last* to x (seeds 002, 003, 004)."
    found = [(f, s) for f, s, _ in claimed_citations(wrong)]
    assert found == [("bias:last", {"002", "003", "004"})]
    right = "appended last (seeds 003, 004; seed 002 puts the 1 first)"
    assert {(f, frozenset(s)) for f, s, _ in claimed_citations(right)} == {
        ("bias:last", frozenset({"003", "004"})),
        ("bias:first", frozenset({"002"})),
    }
    md = r"this app counts $y\,\mathbf{w}\cdot\mathbf{x} \le 0$ as a mistake (seeds 001, 003)"
    assert [(f, s) for f, s, _ in claimed_citations(md)] == [("rule:nonpositive", {"001", "003"})]
    strict = r"Seed 002's algorithm updates only when $y_i\,\mathbf{w}\cdot\mathbf{x}_i < 0$"
    assert [(f, s) for f, s, _ in claimed_citations(strict)] == [("rule:negative", {"002"})]
    py = "predicting +1 iff ``w . x >= 0`` (seed 004's tie rule)"
    assert [(f, s) for f, s, _ in claimed_citations(py)] == [("predict:ge", {"004"})]
    consequence = 'a mistake has y·(w·x) ≤ 0 ("Negative since we made a mistake on x", seed 000)'
    assert claimed_citations(consequence) == []
    cyc = "w stays on a bounded lattice (seeds 002, 003: ||w|| stays bounded)"
    assert {f for f, _, _ in claimed_citations(cyc)} == {"w_bounded"}


@pytest.mark.parametrize("path", _prose_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_no_convention_is_credited_to_a_handout_that_does_not_state_it(path):
    wrong = [
        f"{fact} credited to seed {number}: {clause!r}"
        for fact, numbers, clause in claimed_citations(_prose(path))
        for number in sorted(numbers)
        if number not in HANDOUTS or fact not in HANDOUTS[number].states
    ]
    assert not wrong, "\n".join(wrong)


def test_no_file_says_the_bias_is_appended_last_citing_seed_002():
    """Seed 002 puts the 1 first ([1; x], [b; w]); only seeds 003 and 004 put it last.

    Over the whole text of every file (code and strings too, not only the prose)."""
    hits = [
        f"{path.relative_to(REPO)}: {clause!r}"
        for path in _prose_files()
        for fact, numbers, clause in claimed_citations(path.read_text(encoding="utf-8"))
        if fact == "bias:last" and "002" in numbers
    ]
    assert not hits, "\n".join(hits)


# --- (d) quotations of the lessons: each quoted phrase is in the handout it cites ----------

# Lessons whose every quotation is a handout's words, checked against the handout each one
# cites, where a quotation is typeset otherwise than in the handout (the glossary writes
# seed 001's LaTeX in Unicode), where the handout is named by its title ("Princeton COS
# 495") and where a table's column names it. spam.md is not one: it also quotes its own
# example e-mails; home.md and room.md quote no handout.
LESSON_QUOTING_ASSETS = (
    "experts.md",
    "glossary.md",
    "margin.md",
    "proof.md",
    "sgd.md",
    "variants.md",
    "xor.md",
)

# LaTeX commands that stand for a sign a quotation writes in Unicode; every other command
# (\vec, \mathbf, \text, \cdot, \frac, \hat, ...) is typesetting only
_LATEX_SIGNS = {
    r"\leq": "≤",
    r"\le": "≤",
    r"\geq": "≥",
    r"\ge": "≥",
    r"\neq": "≠",
    r"\leftarrow": "←",
    r"\alpha": "α",
    r"\gamma": "γ",
    r"\delta": "δ",
    r"\tau": "τ",
}
_KEPT_SIGNS = set("=<>≤≥≠+-←")


def skeleton(text: str) -> str:
    """What a quotation must keep verbatim: its letters (in their case), digits and relation
    signs, in order. Typesetting goes: LaTeX commands, $ and braces, sub- and superscript
    marks, Unicode's subscripts, arrows and hats over a letter, spaces and punctuation. So the
    glossary's "IF yᵢ(w⃗_k·x⃗ᵢ) ≤ 0" is seed 001's "IF $y_i(\\vec{w}_k \\cdot \\vec{x}_i) \\leq 0$",
    while "after M mistakes" is not seed 000's "After M mistakes"."""
    for command, sign in _LATEX_SIGNS.items():
        text = re.sub(re.escape(command) + r"(?![A-Za-z])", sign, text)
    text = re.sub(r"\\[A-Za-z]+", " ", text)
    text = unicodedata.normalize("NFKD", text).replace("−", "-")  # ᵢ -> i, ² -> 2, ŷ -> y + ^
    return "".join(
        ch
        for ch in text
        if ch in _KEPT_SIGNS or (ch.isalnum() and unicodedata.category(ch) != "Lm")
    )


_LESSON_QUOTE = re.compile(r'"([^"]*)"|“([^”]*)”')
_BARE_NUMBER = re.compile(r"\b(00[0-4]):")  # a table's "001: ..." or a column "001 Cornell ..."


def _sources(unit: str) -> list[tuple[int, set[str]]]:
    """(position, handouts) of every citation in a piece of text: "seed 003", "seeds 000-004",
    a handout's title ("Princeton COS 495"), or a bare "001:"."""
    found = [(m.start(), _numbers(m.group(1))) for m in CITATION.finditer(unit)]
    found += [(m.start(), {m.group(1)}) for m in _BARE_NUMBER.finditer(unit)]
    for number, handout in HANDOUTS.items():
        found += [(m.start(), {number}) for m in re.finditer(re.escape(handout.title), unit)]
    return sorted(found, key=lambda f: f[0])


def _column_handout(head: str) -> str | None:
    """The handout a table's column head names: "Cornell CS6780", or "001 Cornell CS6780"."""
    numbered = re.match(r"(00[0-4])\b", head)
    if numbered:
        return numbered.group(1)
    return next((n for n, h in HANDOUTS.items() if h.title in head), None)


def _units(text: str) -> list[str]:
    """A Markdown text cut where a quotation's source cannot reach across: paragraphs, list
    items and table cells. A table cell starts with its column's handout ("seed 003: ...")
    when the column's head names one ("003 UMass CMPSCI 689")."""
    units: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        rows = [line for line in block.splitlines() if line.lstrip().startswith("|")]
        if not rows:
            units += re.split(r"\n\s*[-*] ", "\n" + block)
            continue
        head = [cell.strip() for cell in rows[0].strip().strip("|").split("|")]
        column = [_column_handout(cell) for cell in head]
        for row in rows[2:]:  # after the head and its |---| line
            cells = row.strip().strip("|").split("|")
            for cell, source in zip(cells, column, strict=False):
                units.append(f"seed {source}: {cell}" if source else cell)
    return [" ".join(u.split()) for u in units if u.strip()]


def lesson_quotations(text: str) -> list[tuple[str, set[str] | None]]:
    """(quotation, handouts it is attributed to) for every quoted phrase of a Markdown text.

    Its source is the last citation before it in its paragraph, list item or table cell, or
    else the first one after it (None: no source named). A quotation with no letter or digit
    ("—" for an empty cell) names a symbol and is left out."""
    out: list[tuple[str, set[str] | None]] = []
    for unit in _units(text):
        assert unit.count('"') % 2 == 0, f"an unclosed quotation mark in {unit!r}"
        sources = _sources(unit)
        for m in _LESSON_QUOTE.finditer(unit):
            quote = m.group(1) if m.group(1) is not None else m.group(2)
            if not any(ch.isalnum() for ch in quote):
                continue
            before = [s for at, s in sources if at < m.start()]
            after = [s for at, s in sources if at > m.end()]
            out.append((quote, before[-1] if before else (after[0] if after else None)))
    return out


def test_the_lesson_quotation_finder():
    md = (
        'Seed 003 calls it "noise can cause this"; seed 002: "When the data is separable".\n\n'
        '- a list item ("after M mistakes", seed 000)\n- "unattributed"\n\n'
        'Princeton COS 495 says "W.L.O.G."; "—" is a symbol\n\n'
        "| symbol | 001 Cornell CS6780 | rule |\n|---|---|---|\n"
        '| k | k ("k = k + 1") | 004: "if w⃗·x⃗_t ≥ 0" |\n\n'
        "| symbol | UMass CMPSCI 689 | rule |\n|---|---|---|\n"
        '| k | k ("#mistakes") | Princeton COS 495: "predict positive" |'
    )
    assert lesson_quotations(md) == [
        ("noise can cause this", {"003"}),
        ("When the data is separable", {"002"}),
        ("after M mistakes", {"000"}),
        ("unattributed", None),
        ("W.L.O.G.", {"000"}),
        ("k = k + 1", {"001"}),
        ("if w⃗·x⃗_t ≥ 0", {"004"}),
        ("#mistakes", {"003"}),
        ("predict positive", {"000"}),
    ]
    latex = r"\text{if } \vec{w} \cdot \vec{x}_t \geq 0 \text{ then } \hat{y}_t = +1"
    assert skeleton("if w⃗·x⃗_t ≥ 0 then ŷ_t = +1") == skeleton(latex) == "ifwxt≥0thenyt=+1"
    assert skeleton("at most R²/δ² mistakes") == skeleton(
        r"at most $$\frac{R^2}{\delta^2}$$ mistakes"
    )
    assert skeleton("assuming ‖xᵢ‖ ≤ 1") == skeleton("assuming, || x i || ≤ 1")
    assert skeleton("after M mistakes") != skeleton("After M mistakes")  # the case is kept
    assert skeleton("x ≤ 0") != skeleton("x < 0")  # and so are the signs


@pytest.mark.parametrize("name", LESSON_QUOTING_ASSETS)
def test_every_lesson_quotation_is_verbatim_in_the_handout_it_cites(name, seed_texts):
    found = lesson_quotations((REPO / "assets" / name).read_text(encoding="utf-8"))
    assert found, f"{name} quotes no handout: take it out of LESSON_QUOTING_ASSETS"
    texts = {number: skeleton(text) for number, text in seed_texts.items()}
    wrong = [
        f"{quote!r} names no handout"
        if numbers is None
        else f"{quote!r} is not in seed " + " or ".join(sorted(numbers))
        for quote, numbers in found
        if numbers is None or not any(skeleton(quote) in texts[n] for n in numbers)
    ]
    assert not wrong, f"{name}:\n" + "\n".join(wrong)
