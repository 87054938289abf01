"""Every step number t and point number i a page shows counts from 1, as the handouts do, and
names the same step and point as the lecture's mistake log.

The yardstick is a plain perceptron loop written out here (``plain_run``): it counts the
examples shown, t = 1, 2, ..., and names each point by its place in the data, i = 1..n. A
student who runs the handouts' loop by hand gets these numbers; the Step by step page's
log must show them, and every other page that names a step, a point, an e-mail or a day
must name the same one. The engine keeps Python's 0-based indices (``Trace.mistake_steps``,
``ProofCheck.t`` and ``.i``); adding the 1 is the pages' job, so only what a page shows is
read here.

A page that shows no step or point number is listed in ``NONE_SHOWN`` with the reason, so
a new row of ``PAGES`` fails here until someone says what it shows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from apptest_helpers import (
    checked_or_excused,
    default,
    lecture_scene,
    margin_scene,
    open_app,
    shared_data,
)
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, simulate_experts, spam_features
from perceptron_core.experts import TIE_RULE
from ui.look.numbers import number, vector_text
from ui.spam.figures import VOCABULARIES
from ui.spam.runs import SPAM_MAX_EPOCHS
from ui.xor.figures import XOR_X, XOR_Y

SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")

# pages that name no step t and no point i, and why
NONE_SHOWN = {
    "pages/home.py": "the worked example lists seed 001's four points by their coordinates "
    "and shows M, w, γ and the bound: no step or point number",
    "pages/sgd.py": "its paths are numbered by update (mistake) k, its curves by epoch; it "
    "names no step t and no point i",
    "pages/variants.py": "test errors after each epoch, runs and their mistake totals: no step "
    "or point number",
    "pages/room.py": "the class page: without a class it shows the join form; a submission "
    "is numbered #1, #2, ... by arrival, not a step or a point",
}


# ------------------------------------------------------------------------ the plain loop


def wrong(rule: str, y: float, a: float) -> bool:
    """Is the prediction w·x = a wrong on label y? Away from a tie every rule says y·a < 0;
    at a = 0 each rule decides as its name says (seed 004's rule predicts +1, ...)."""
    if a != 0.0:
        return y * a < 0.0
    return {
        "nonpositive": True,  # mistake iff y·(w·x) <= 0
        "negative": False,  # mistake iff y·(w·x) < 0
        "predict_gt": y > 0,  # predict +1 iff w·x > 0: a tie is predicted -1
        "predict_ge": y < 0,  # predict +1 iff w·x >= 0: a tie is predicted +1
    }[rule]


@dataclass(frozen=True)
class PlainRun:
    """What the handouts' loop did, counted from 1."""

    mistakes: list[tuple[int, int]]  # (step t, point i) of each mistake, t and i from 1
    shown: list[int]  # shown[t - 1]: the point shown at step t
    weights: list[tuple[float, ...]]  # weights[t]: w after t steps (weights[0] = w0)
    n: int

    def mistake_at(self, t: int) -> bool:
        return any(s == t for s, _ in self.mistakes)


def plain_run(
    X: np.ndarray, y: np.ndarray, *, bias: bool = True, rule: str = "nonpositive", epochs: int
) -> PlainRun:
    """The perceptron from w = 0, in the given order: FOR t = 1, 2, ...: show point i, and
    on a mistake w ← w + y·x; stop after a pass with no mistake or after ``epochs`` passes."""
    rows = [[float(v) for v in x] + ([1.0] if bias else []) for x in X]
    labels = [float(v) for v in y]
    w = [0.0] * len(rows[0])
    mistakes: list[tuple[int, int]] = []
    shown: list[int] = []
    weights = [tuple(w)]
    t = 0
    for _ in range(epochs):
        clean = True
        for i, (x, label) in enumerate(zip(rows, labels, strict=True), start=1):
            t += 1
            a = sum(wj * xj for wj, xj in zip(w, x, strict=True))
            # a tie decided by rounding would make this test depend on a float's last bit
            assert a == 0.0 or abs(a) > 1e-9, f"step {t}: w·x = {a} is a tie up to rounding"
            if wrong(rule, label, a):
                w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
                mistakes.append((t, i))
                clean = False
            shown.append(i)
            weights.append(tuple(w))
        if clean:
            break
    return PlainRun(mistakes, shown, weights, len(rows))


def test_the_plain_loop_on_seed_001s_four_points():
    """Checked by hand: from w = 0 with the bias, (1, 2)+ and (2, 1)+ have w·x = 0."""
    X, y = make_dataset("four_points")
    # mistake iff y·(w·x) <= 0: w = 0 errs on point 1, then w = (1, 2, 1) gets 2 right,
    # w·x₃ = −2 is right, w·x₄ = 2 is wrong
    assert plain_run(X, y, epochs=50).mistakes[:2] == [(1, 1), (4, 4)]
    # predict +1 iff w·x >= 0 (seed 004): 1 and 2 are right at w = 0, x₃ = (−1, −1) is not
    assert plain_run(X, y, rule="predict_ge", epochs=50).mistakes[0] == (3, 3)


# ------------------------------------------------------------------------------- reading


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> list[str]:
    main = at.main
    kinds = ("markdown", "caption", "info", "warning", "success", "error")
    return [e.value for kind in kinds for e in getattr(main, kind)]


def ints(values) -> list[int]:
    return [int(str(v).replace(",", "")) for v in values]


# ---------------------------------------------------------------------------- pages


def lecture_log(query: dict[str, str], T: int) -> tuple[AppTest, list[dict]]:
    """The Step by step page at the end of its run (step T) with the mistake log open:
    (the page, the log's rows)."""
    at = ok(open_app("pages/lecture.py", query | {"lec_t": str(T)}))
    at.session_state["lec_log"] = True  # the log is built only while it is open
    ok(at.run())
    tables = [d.value for d in at.main.dataframe if "step t" in d.value]
    assert len(tables) == 1, [list(d.value) for d in at.main.dataframe]
    return at, tables[0].to_dict("records")


def check_lecture() -> int:
    """The log's step t and point, the status line's example, and the point each step's
    view names: the plain loop's, on the shared data and on seed 001's four points with
    seed 004's rule (the mistake on x₃ = (−1, −1) at step 3)."""
    X, y = shared_data()
    plain = plain_run(X, y, epochs=default("lec_max_epochs"))
    at, log = lecture_log({}, len(plain.shown))
    assert [(r["step t"], r["point"]) for r in log] == plain.mistakes
    assert [r["y"] for r in log] == [int(y[i - 1]) for _, i in plain.mistakes]
    scene = lecture_scene(at)
    views = [v for v in scene["steps"] if v["t"] > 0]
    assert views, "the scene holds no step past the start"
    for v in views:
        t, i = v["t"], plain.shown[v["t"] - 1]
        epoch, example = (t - 1) // plain.n + 1, (t - 1) % plain.n + 1
        assert v["status"][0] == f"epoch {epoch}, example {example} of {plain.n}", v["status"]
        assert v["said"].startswith(f"point {i}: "), (t, v["said"])
        assert ("mistake, w updated" in v["said"]) == plain.mistake_at(t), (t, v["said"])
        assert v["math"]["i"] == i and v["math"]["y"] == ("+1" if y[i - 1] > 0 else "−1")

    X4, y4 = make_dataset("four_points")
    four = plain_run(X4, y4, rule="predict_ge", epochs=default("lec_max_epochs"))
    query = {"data_name": "four_points", "lec_rule": "predict_ge"}
    _, log4 = lecture_log(query, len(four.shown))
    assert [(r["step t"], r["point"]) for r in log4] == four.mistakes
    assert (log4[0]["step t"], log4[0]["point"], log4[0]["x"], log4[0]["y"]) == (3, 3, "-1, -1", -1)
    return len(log) + len(views) + len(log4)


# "Mistake k = 1 of 3: at step t = 1, on point i = 1: x₁ = (0.541, −2.65), y = +1."
CAPTION = re.compile(
    r"Mistake k = ([\d,]+) of ([\d,]+): at step t = ([\d,]+), on point i = ([\d,]+): "
    r"x([₀-₉]+) = (\([^)]*\)), y = ([+−]1)"
)


def proof_caption(at: AppTest) -> tuple[int, int, int, int, str, int]:
    """(k, K, t, i, x, y) of the proof page's "Mistake k = ..." caption, checking that the
    subscript of x is the point number i."""
    found = [m for c in at.main.caption if (m := CAPTION.search(c.value))]
    assert len(found) == 1, [c.value for c in at.main.caption]
    k, K, t, i, sub, x, label = found[0].groups()
    assert sub == i.replace(",", "").translate(SUBSCRIPT), found[0].group()
    return *ints((k, K, t, i)), x, 1 if label == "+1" else -1


def check_proof() -> int:
    """The caption of every mistake k and the step t and point i columns of every table:
    the plain loop's (the proof page shows the lecture's run)."""
    X, y = shared_data()
    plain = plain_run(X, y, epochs=default("lec_max_epochs"))
    K = len(plain.mistakes)
    read = 0
    for k in range(1, K + 1):
        at = ok(open_app("pages/proof.py", {"prf_k": str(k)}))
        t, i = plain.mistakes[k - 1]
        k_shown, K_shown, t_shown, i_shown, x, label = proof_caption(at)
        assert (k_shown, K_shown, t_shown, i_shown) == (k, K, t, i)
        assert label == int(y[i - 1]), "the label shown with point i is not point i's"
        assert x == vector_text(X[i - 1]), (x, X[i - 1])
        read += 1
    tables = [d.value for d in at.main.dataframe if "step t" in d.value]
    assert len(tables) == 4, [list(d.value) for d in at.main.dataframe]
    for table in tables:
        assert ints(table["k"]) == list(range(1, K + 1))
        assert list(zip(ints(table["step t"]), ints(table["point i"]), strict=True)) == (
            plain.mistakes
        )
        read += 2 * K

    # seed 001's four points under seed 004's rule: the first mistake is on x₃ = (−1, −1)
    X4, y4 = make_dataset("four_points")
    four = plain_run(X4, y4, rule="predict_ge", epochs=default("lec_max_epochs"))
    assert four.mistakes[0] == (3, 3)
    query = {"data_name": "four_points", "lec_rule": "predict_ge", "prf_k": "1"}
    at = ok(open_app("pages/proof.py", query))
    assert proof_caption(at) == (1, len(four.mistakes), 3, 3, "(−1, −1)", -1)
    assert any("x₃ = (−1, −1)" in c.value for c in at.main.caption)
    return read + 1


def check_spam() -> int:
    """Seed 003's e-mails: the step, epoch and e-mail the step text names, whether it says
    "a mistake", and the steps of the mistake marks on the weights chart."""
    X, y = spam_features(VOCABULARIES[default("spam_vocab")])
    plain = plain_run(X, y, rule=default("spam_rule"), epochs=SPAM_MAX_EPOCHS)
    steps = [t for t, _ in plain.mistakes]
    T = len(plain.shown)
    read = 0
    for t in sorted({1, steps[0], steps[-1], T}):
        at = ok(open_app("pages/spam.py", {"spam_t": str(t)}))
        said = next(s for s in texts(at) if s.startswith("**Step "))
        i = plain.shown[t - 1]
        assert said.startswith(f"**Step {t}** (epoch {(t - 1) // plain.n + 1}): e-mail {i}, ")
        assert ("**A mistake:**" in said) == plain.mistake_at(t), (t, said)
        read += 1
    marks = next(tr for tr in traces(at) if tr["name"].startswith("a mistake"))
    assert marks["x"] == steps
    return read + len(steps)


def traces(at: AppTest) -> list[dict]:
    """Every trace of every chart of the page's main area."""
    return [tr for c in at.main.get("plotly_chart") for tr in json.loads(c.proto.spec)["data"]]


def tex_vector(entries: str) -> list[float]:
    """ "-1,\\ 1" (a vector's entries as ``ui.look.numbers.tex`` writes them) as numbers."""
    return [float(v.replace("\\ ", "").replace("{,}", "")) for v in entries.split(",")]


def check_xor() -> int:
    """The XOR corners: the step the cycle starts from (t examples shown, as the lecture's
    status line counts), and the points x_i the witness and the kernel formula name."""
    at = ok(open_app("pages/xor.py"))
    plain = plain_run(XOR_X, XOR_Y, epochs=default("xor_epochs"))
    first: dict[tuple, int] = {}
    start = None
    for t, w in enumerate(plain.weights):
        state = (w, t % plain.n)
        if state in first:
            start = first[state]
            break
        first[state] = t
    assert start is not None
    (said,) = [s for s in at.main.info if "A cycle" in s.value]
    assert f"From step t = {start} the weights repeat" in said.value
    tex = [x.value for x in at.main.latex]
    (witness,) = [s for s in tex if r"\underbrace" in s]
    z = tex_vector(re.search(r"z &= \(([^)]*)\)", witness).group(1))
    read = 1
    for part, label in re.findall(r"\\underbrace\{(.*?)\}_\{y = ([+-]1)\}", witness):
        terms = re.findall(r"([\d.]+)\\,x_\{(\d+)\}", part)
        assert terms, part
        total = np.zeros(2)
        for coef, i in terms:
            assert XOR_Y[int(i) - 1] == int(label), f"x_{i} is not labelled {label}"
            total += float(coef) * XOR_X[int(i) - 1]
            read += 1
        np.testing.assert_allclose(total, z, atol=1e-3)
    (kernel,) = [s for s in tex if r"\varphi_{\mathrm{quad}}(x_" in s]
    for i, coords in re.findall(r"x_\{(\d+)\} = \(([^)]*)\)", kernel):
        np.testing.assert_allclose(tex_vector(coords), XOR_X[int(i) - 1])
        read += 1
    return read


def check_experts() -> int:
    """Seed 004's analysts: the day of the last mistake, the days of the first days' table
    and which of them were mistakes, and the mistakes-so-far curve after each day."""
    run = simulate_experts(
        n=default("exp_n"),
        k=default("exp_k"),
        days=default("exp_days"),
        behaviour=default("exp_behaviour"),
        seed=default("exp_seed"),
    )
    X, y = np.asarray(run.predictions), np.asarray(run.truth)
    plain = plain_run(X, y, bias=False, rule=TIE_RULE, epochs=1)
    days = [t for t, _ in plain.mistakes]
    at = ok(open_app("pages/experts.py"))
    assert any(f"(the last on day {number(days[-1])})" in s for s in texts(at))
    table = next(d.value for d in at.main.dataframe if "day" in d.value)
    shown = ints(table["day"])
    assert shown == list(range(1, len(shown) + 1))
    assert [d for d, m in zip(shown, table["mistake"], strict=True) if m == "yes"] == [
        d for d in days if d <= shown[-1]
    ]
    curve = next(tr for tr in traces(at) if str(tr.get("name")).startswith("mistakes so far"))
    for day, count in zip(curve["x"], curve["y"], strict=True):
        assert count == sum(d <= day for d in days), (day, count)
    return 1 + len(shown) + len(curve["x"])


def check_margin() -> int:
    """The margin lab's point tips name each point as the lecture's chart does: point p is
    the p-th point of the data, with its coordinates and label."""
    X, y = shared_data()
    lecture = lecture_scene(ok(open_app("pages/lecture.py")))["points"]["tip"]
    tips = [p[4].split(" · ")[0] for p in margin_scene(ok(open_app("pages/margin.py")))["points"]]
    assert tips == lecture
    for p, tip in enumerate(tips, start=1):
        assert tip == f"point {p}: ({number(X[p - 1, 0])}, {number(X[p - 1, 1])}), y = " + (
            "+1" if y[p - 1] > 0 else "−1"
        )
    return len(tips)


CHECKS: dict[str, Callable[[], int]] = {
    "pages/lecture.py": check_lecture,
    "pages/proof.py": check_proof,
    "pages/spam.py": check_spam,
    "pages/xor.py": check_xor,
    "pages/experts.py": check_experts,
    "pages/margin.py": check_margin,
}


def test_every_page_is_checked_or_says_why_not():
    checked_or_excused(CHECKS, NONE_SHOWN)


@pytest.mark.parametrize("page", sorted(CHECKS))
def test_step_and_point_numbers_count_from_1_as_the_lecture_log_does(page):
    assert CHECKS[page]() > 0  # each check reads at least one number


@pytest.mark.parametrize("page", sorted(NONE_SHOWN))
def test_pages_listed_as_showing_none_name_no_step_or_point(page):
    at = ok(open_app(page))
    shown = " ".join(
        texts(at) + [h.value for h in at.main.subheader] + [x.value for x in at.main.latex]
    )
    assert not re.search(r"\bstep t = \d|\bpoint i = \d|\bpoint \d|\bexample \d|x[₀-₉]+ = ", shown)
