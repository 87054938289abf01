"""Every number a page labels γ, R, the bound (R/γ)² or M is the engine's number.

The guard: for each page of the shell's page table, read what the page shows
(its status lines, metrics, captions and formulas, with small regular expressions)
and compare it with what ``max_margin`` and ``train`` give for the data and the
settings that page uses, at the defaults, rounded as the page rounds it. Only
numbers computed from data are read: the words around them (the sidebar's
generator knobs, the texts of the proof) are other tests' business.

A page that shows none of these numbers is listed in ``NONE_SHOWN`` with the reason,
so a new row of ``PAGES`` fails here until someone says what it shows. The step numbers t
and point numbers i the pages show are checked the same way in ``test_step_numbers.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import pytest
from apptest_helpers import (
    checked_or_excused,
    default,
    lecture_status,
    margin_numbers,
    open_app,
    shared_data,
)
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, max_margin, simulate_experts, train
from perceptron_core.experts import TIE_RULE
from perceptron_core.proof import worst_case_set
from ui.look.numbers import number
from ui.look.text import asset
from ui.sgd.runs import epochs_within_cap

# a number as the pages write it: "5,940", "−0.5", LaTeX's "5{,}940" (ui.look.numbers.tex)
NUM = r"([-−]?\d(?:[\d,]|\{,\})*(?:\.\d+)?(?:e[-+−]?\d+)?)"

# pages with no number labelled γ, R, (R/γ)² or M, and why
NONE_SHOWN = {
    "pages/xor.py": "XOR is not separable: the page says there is no γ and no bound; its "
    "mistake counts are of the lifted run φ(x), not labelled M (tests/app/test_xor.py)",
    "pages/spam.py": "its own twelve e-mails: only w and the mistakes so far at the chosen "
    "step, no γ, R, bound or M (tests/app/test_spam.py)",
    "pages/variants.py": "noisy, non-separable data with reshuffled passes: test errors and "
    "mistake totals, no γ, R, bound or M value (only the formula of the bound from w₀)",
    "pages/room.py": "the class page: without a class it shows the join form; a challenge's "
    "M and bound are the margin lab's own numbers of each submission (tests/app/test_room.py)",
}


def same(shown: str, value: float, fmt: str) -> bool:
    """``shown`` is ``value`` rounded as the page rounds it (``fmt``)."""
    plain = shown.replace("{,}", "").replace(",", "").replace("−", "-")
    return float(plain) == float(format(value, fmt))


def read(pattern: str, texts: list[str]) -> list[str]:
    """Every number the pattern's group captures, in all the texts."""
    return [m.group(1) for text in texts for m in re.finditer(pattern, text)]


def metric(at: AppTest, label: Callable[[str], bool]) -> str:
    """The value of the one main-area metric whose label passes ``label``."""
    found = [m.value for m in at.main.metric if label(m.label)]
    assert len(found) == 1, [m.label for m in at.main.metric]
    return found[0]


def texts(at: AppTest) -> list[str]:
    """The main area's markdown and captions (not the sidebar, not the glossary)."""
    shown = [m.value for m in at.main.markdown] + [c.value for c in at.main.caption]
    return [s for s in shown if s.strip() != asset("glossary").strip()]


def latex(at: AppTest) -> list[str]:
    return [x.value for x in at.main.latex]


def open_ok(page: str, query: dict[str, str] | None = None) -> AppTest:
    at = open_app(page, query)
    assert not at.exception, [e.value for e in at.exception]
    return at


# ---------------------------------------------------------------------------- pages


def check_home() -> int:
    """The worked example: seed 001's four points, no bias, from w = 0, given order."""
    at = open_ok("pages/home.py")
    X, y = make_dataset("four_points")
    mm = max_margin(X, y, bias=False)
    M = train(X, y, bias=False).n_mistakes
    assert int(metric(at, lambda s: s.endswith(" M"))) == M
    assert same(metric(at, lambda s: s.endswith("γ")), mm.gamma, ".3f")
    assert same(metric(at, lambda s: "(R/γ)²" in s), mm.bound, ".2f")
    return 3


def check_lecture() -> int:
    """The status line, at the last step: γ, R and (R/γ)² with the bias, and k = M."""
    X, y = shared_data()
    mm = max_margin(X, y, bias=True)
    trace = train(X, y, bias=True, max_epochs=default("lec_max_epochs"))
    at = open_ok("pages/lecture.py", {"lec_t": str(trace.n_steps)})
    line = lecture_status(at)  # as the browser writes it from the scene
    assert f"step t = {trace.n_steps} of {trace.n_steps}" in line
    assert read(r"mistakes k = " + NUM, [line]) == [str(trace.n_mistakes)]
    (g,) = read(r"γ = " + NUM, [line])
    (r,) = read(r"\bR = " + NUM, [line])
    (b,) = read(r"\(R/γ\)² = " + NUM, [line])
    assert same(g, mm.gamma, ".3g") and same(r, mm.radius, ".3g") and same(b, mm.bound, ".3g")
    return 4


def check_proof() -> int:
    """The lecture's run on the shared data (bias on, w₀ = 0): M, R, γ and (R/γ)² in
    the status line and the formulas; and the three-point set of the last section."""
    X, y = shared_data()
    mm = max_margin(X, y, bias=True)
    M = train(X, y, bias=True, max_epochs=default("lec_max_epochs")).n_mistakes
    at = open_ok("pages/proof.py")
    assert read(r"\*\*M = " + NUM + r"\*\* mistakes?", texts(at)) == [str(M)]
    tex = latex(at)
    rs = read(r"R = \\max_i\\\|x_i\\\| = " + NUM, tex)
    gs = read(r"(?<![A-Za-z])\\gamma = " + NUM, tex)  # not kγ
    ms = read(r"\bM = " + NUM, tex)
    bounds = read(r"\\Big\(\\frac\{R\}\{\\gamma\}\\Big\)\^2 = " + NUM, tex)
    bounds += read(r"\\frac\{1\}\{\(\\gamma/R\)\^2\} = " + NUM, tex)
    scaled = read(r"\\gamma \\leftarrow \\gamma/R = " + NUM, tex)
    assert rs and gs and ms and bounds and scaled, tex
    assert all(same(r, mm.radius, ".4g") for r in rs), rs
    assert all(same(g, mm.gamma, ".4g") for g in gs), gs
    assert all(int(m) == M for m in ms), ms
    assert all(same(b, mm.bound, ".4g") for b in bounds), bounds
    assert all(same(g, mm.gamma / mm.radius, ".4g") for g in scaled), scaled

    gamma = default("prf_gamma")
    Xw, yw = worst_case_set(gamma)
    mw = max_margin(Xw, yw, bias=False)
    given = train(Xw, yw, bias=False, max_epochs=int(mw.bound) + 2).n_mistakes
    assert same(metric(at, lambda s: s.startswith("bound")), mw.bound, ".4g")
    assert int(metric(at, lambda s: s == "given order")) == given
    caption = [c for c in texts(at) if "of the bound" in c]
    assert [same(g, mw.gamma, ".3g") for g in read(r"γ = " + NUM, caption)] == [True]
    assert [same(r, mw.radius, ".3g") for r in read(r"\bR = " + NUM, caption)] == [True]
    return 10


def check_sgd() -> int:
    """Section 3: M of the online perceptron on the shared data (no bias) for each η,
    from w₀ = 0 and from the page's w₀."""
    X, y = shared_data()
    epochs = epochs_within_cap(default("sgd_epochs"), len(y))
    w0 = (default("sgd_w1"), default("sgd_w2"))
    at = open_ok("pages/sgd.py")
    panels = read(r"\*\*η = ([\d.]+)\*\*: \d+ mistakes?", texts(at))
    counts = [int(c) for c in read(r"\*\*η = [\d.]+\*\*: " + NUM + " mistakes?", texts(at))]
    assert len(panels) == 6, panels  # three from 0, three from w₀
    for i, (eta, shown) in enumerate(zip(panels, counts, strict=True)):
        start = None if i < 3 else w0
        M = train(X, y, bias=False, max_epochs=epochs, eta=float(eta), w0=start).n_mistakes
        assert shown == M, (eta, start, shown, M)
    return 6


def check_experts() -> int:
    """Seed 004's experts: M of one pass with its tie rule; γ the margin of the committee's
    unit vector u, D = max ‖x_t‖ and the bound (D/γ)² = n·k, all from the days shown."""
    n, k = default("exp_n"), default("exp_k")
    run = simulate_experts(
        n=n,
        k=k,
        days=default("exp_days"),
        behaviour=default("exp_behaviour"),
        seed=default("exp_seed"),
    )
    X, y = np.asarray(run.predictions), np.asarray(run.truth)
    M = train(X, y, bias=False, max_epochs=1, rule=TIE_RULE).n_mistakes
    u = np.zeros(n)
    u[np.asarray(run.committee)] = 1 / np.sqrt(k)
    gamma = float((y * (X @ u)).min())
    D = float(np.linalg.norm(X, axis=1).max())
    at = open_ok("pages/experts.py")
    assert int(metric(at, lambda s: s.startswith("mistakes M in "))) == M
    assert read(r"\*\*M = " + NUM + r"\*\* mistakes?", texts(at)) == [str(M)]
    assert same(metric(at, lambda s: s.startswith("γ")), gamma, ".4g")
    assert same(metric(at, lambda s: s.startswith("D")), D, ".4g")
    assert same(metric(at, lambda s: s.startswith("bound")), (D / gamma) ** 2, ".0f")
    return 5


def check_margin() -> int:
    """The margin lab on the shared data, bias on with c = 1: γ, R, (R/γ)², M and the
    range of M over its shuffled orders."""
    X, y = shared_data()
    assert default("mar_bias") and default("mar_c") == 1.0
    mm = max_margin(X, y, bias=True)
    epochs = default("mar_max_epochs")
    M = train(X, y, bias=True, max_epochs=epochs).n_mistakes
    at = open_ok("pages/margin.py")
    shown = margin_numbers(at)  # the instrument's numbers, as the browser writes them
    assert shown["margin γ"] == number(mm.gamma) and shown["radius R"] == number(mm.radius)
    assert shown["bound (R/γ)²"] == number(mm.bound) and shown["mistakes M"] == str(M)
    line = [m for m in texts(at) if m.startswith("M = ")]
    assert read(r"^M = \*\*" + NUM, line) == [str(M)]
    assert read(r"\(R/γ\)² = \*\*([0-9.,]+)", line) == [number(mm.bound)]
    orders = read(r"shuffled orders M was " + NUM + " to " + NUM, line)
    (n_orders,) = read(r"In " + NUM + " shuffled orders", line)
    counts = [
        train(X, y, bias=True, max_epochs=epochs, seed=s).n_mistakes for s in range(int(n_orders))
    ]
    low, high = re.search(r"M was (\d+) to (\d+)", line[0]).groups()
    assert (int(low), int(high)) == (min(counts), max(counts)), orders
    return 7


CHECKS: dict[str, Callable[[], int]] = {
    "pages/home.py": check_home,
    "pages/lecture.py": check_lecture,
    "pages/proof.py": check_proof,
    "pages/sgd.py": check_sgd,
    "pages/experts.py": check_experts,
    "pages/margin.py": check_margin,
}


def test_every_page_is_checked_or_says_why_not():
    checked_or_excused(CHECKS, NONE_SHOWN)


@pytest.mark.parametrize("page", sorted(CHECKS))
def test_numbers_labelled_gamma_r_bound_or_m_are_the_engines(page):
    assert CHECKS[page]() > 0  # each check reads at least one number


@pytest.mark.parametrize("page", sorted(NONE_SHOWN))
def test_pages_listed_as_showing_none_show_none(page):
    """No metric on them is labelled γ, R, the bound (R/γ)² or M."""
    at = open_ok(page)
    labels = [m.label for m in at.main.metric]
    assert not [s for s in labels if re.search(r"(γ|\bR\b|\bM\b|\(R/γ\)²)", s)], labels
