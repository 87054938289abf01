"""The proof page through AppTest: every line with the run's numbers, breaking the proof with
w0 or the rule, non-separable data, the settings shared with the lecture, the adversary."""

import json
import re

import numpy as np
import pytest
from apptest_helpers import (
    NOT_PLAIN,
    assert_plain_numbers,
    lecture_status,
    lecture_step,
    open_app,
    plain_perceptron,
)
from streamlit.testing.v1 import AppTest

from perceptron_core import (
    adversarial_order,
    make_dataset,
    max_margin,
    proof_check,
    train,
    worst_case_set,
)
from ui.proof.figures import FAILS, HOLDS

PAGE = "pages/proof.py"


def proof_page(query: dict[str, str] | None = None) -> AppTest:
    at = open_app(PAGE, query)
    assert not at.exception
    return at


def markdown(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def latex(at: AppTest) -> str:
    return " ".join(x.value for x in at.latex)


def default_data():
    return make_dataset("separable", n=40, seed=0)  # the sidebar's default dataset


def test_every_line_of_the_proof_has_the_runs_numbers():
    X, y = default_data()
    mm = max_margin(X, y)
    trace = train(X, y, max_epochs=50)
    c = proof_check(trace, X, y, mm)
    K = trace.n_mistakes
    at = proof_page()
    text, tex = markdown(at), latex(at)
    assert f"M = {K}" in text and f"M = {K}" in tex
    assert f"{mm.bound:.4g}" in tex  # (R/γ)² in both forms of the theorem
    for what in (
        "Claim 1 (one step: gain ≥ γ)",
        "Lemma 1",
        "Claim 2 (one step: gain ≤ R²)",
        "Lemma 2",
        "The cross term ≤ 0",
        "Cauchy–Schwarz",
        "k ≤ (R/γ)²",
    ):
        assert f"{HOLDS} {what}" in text and f"holds at all **{K}** mistakes" in text, what
    assert FAILS not in text
    # the numbers shown are those of the last mistake k = K
    assert f"w_{{{K}}}\\cdot w^* &= {c.lemma1.large[-1]:.4g}" in tex
    assert f"\\|w_{{{K}}}\\|^2 &= {c.lemma2.small[-1]:.4g}" in tex
    # one table per card, a row per mistake
    tables = at.dataframe
    assert len(tables) == 4 and all(len(t.value) == K for t in tables)
    assert (tables[0].value["✓ claim 1"] == "✓").all()


def test_picking_a_mistake_shows_its_numbers_and_goes_into_the_url():
    X, y = default_data()
    c = proof_check(train(X, y), X, y, max_margin(X, y))
    at = proof_page()
    at.slider(key="prf_k_w").set_value(1).run()
    assert not at.exception
    assert at.session_state["prf_k"] == 1 and at.query_params["prf_k"] == "1"
    # counted from 1, as the Step by step log counts: the engine's t and i are 0-based
    t, i = c.t[0] + 1, c.i[0] + 1
    assert f"Mistake k = 1 of {c.n_mistakes}: at step t = {t}, on point i = {i}:" in " ".join(
        x.value for x in at.caption
    )
    tex = latex(at)
    assert f"w_{{1}}\\cdot w^* &= {c.lemma1.large[0]:.4g}" in tex
    assert f"\\|w_{{1}}\\|^2 &= {c.lemma2.small[0]:.4g}" in tex


def test_a_start_far_from_w_star_breaks_the_inductions_and_the_seeds_bound():
    X, y = default_data()
    mm = max_margin(X, y)
    w0 = -300 * mm.w_star  # each mistake lifts w·w* by at most R: many more than (R/γ)²
    typed = ", ".join(f"{v:.6g}" for v in w0)
    at = proof_page({"lec_w0": "typed", "lec_w0_typed": typed})
    trace = train(X, y, w0=[float(v) for v in typed.split(",")], max_epochs=50)
    assert trace.n_mistakes > mm.bound
    text = markdown(at)
    assert any("base case is gone" in w.value for w in at.warning)
    assert FAILS + " Lemma 1 (w·w* ≥ kγ) **fails**" in text and "first at k = 1:" in text
    assert FAILS + " k ≤ (R/γ)² **fails**" in text
    assert f"first at k = {int(mm.bound) + 1}:" in text
    assert HOLDS + " Claim 1 (one step: gain ≥ γ)" in text and HOLDS + " Cauchy–Schwarz" in text
    assert HOLDS + " The bound redone from w₀ holds" in text
    assert f"M = {trace.n_mistakes}" in latex(at) and "fails" in latex(at)


def test_the_strict_rule_from_zero_makes_no_mistake_and_says_why():
    at = proof_page({"lec_rule": "negative"})
    warnings = " ".join(w.value for w in at.warning)
    assert "No mistakes at all" in warnings and "w = 0 is never wrong" in warnings
    assert not at.dataframe  # nothing to tabulate


def test_non_separable_data_have_no_bound_but_claim_2_still_holds():
    X, y = make_dataset("xor", n=40, seed=0)
    trace = train(X, y, max_epochs=50)
    at = proof_page({"data_name": "xor"})
    assert any("not separable" in e.value and "no bound" in e.value for e in at.error)
    text = markdown(at)
    assert not NOT_PLAIN.findall(text + latex(at))  # no e+, no −0.00
    assert trace.n_mistakes >= 1000  # written with a thousands separator: 1,898
    shown = f"{trace.n_mistakes:,}"
    assert f"{HOLDS} Claim 2 (one step: gain ≤ R²) holds at all **{shown}** mistakes" in text
    assert "Claim 1" not in " ".join(s.value for s in at.subheader)
    assert any("no bound to compare" in i.value for i in at.info)


def test_the_rule_chosen_here_is_the_lecture_pages_rule():
    at = proof_page()
    at.selectbox(key="prf_lec_rule_w").set_value("predict_ge").run()
    assert not at.exception
    assert at.session_state["lec_rule"] == "predict_ge"
    assert at.query_params["lec_rule"] == "predict_ge"
    at.switch_page("pages/lecture.py").run()
    assert not at.exception
    assert at.selectbox(key="lec_rule_w").value == "predict_ge"
    at.selectbox(key="lec_rule_w").set_value("negative").run()  # and back again
    at.switch_page(PAGE).run()
    assert at.selectbox(key="prf_lec_rule_w").value == "negative"
    assert any("No mistakes at all" in w.value for w in at.warning)


def test_the_adversary_and_the_orders_stay_under_the_bound():
    X, y = default_data()
    mm = max_margin(X, y)
    kinds = [{"tie_break": "away"}, {"tie_break": "lowest"}] + [
        {"tie_break": "random", "seed": s} for s in range(20)
    ]
    adv = max(adversarial_order(X, y, w_star=mm.w_star, **kw).n_mistakes for kw in kinds)
    at = proof_page({"prf_orders": "30"})
    assert f"the adversary: **{adv}**" in markdown(at)
    fig = json.loads(at.get("plotly_chart")[1].proto.spec)
    shuffled = fig["data"][0]["customdata"]
    assert len(shuffled) == 30 and max(shuffled) <= mm.bound
    assert fig["data"][-1]["x"] == pytest.approx([mm.bound, mm.bound])


def test_the_worst_case_set_gets_close_to_its_bound():
    X, y = worst_case_set(0.05)
    expected = train(X, y, bias=False, max_epochs=500).n_mistakes
    at = proof_page({"prf_gamma": "0.05"})
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["bound 1/γ²"] == "400"
    assert int(metrics["given order"]) == expected
    assert 400 / 2.5 <= int(metrics["greedy adversary"]) <= 400


@pytest.mark.parametrize(("name", "value"), [("prf_orders", "5000"), ("prf_gamma", "-1")])
def test_bad_page_settings_in_the_url_fall_back_with_a_notice(name, value):
    at = open_app(query={name: value})  # the notice shows on arrival
    assert not at.exception
    assert any(name in w.value for w in at.warning)
    at.switch_page(PAGE).run()
    assert not at.exception


def test_the_slack_figure_splits_the_room_into_the_three_gaps():
    X, y = default_data()
    c = proof_check(train(X, y), X, y, max_margin(X, y))
    at = proof_page()
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    bars = [t for t in fig["data"] if t["type"] == "bar"]
    room = next(t for t in fig["data"] if t["type"] == "scatter")
    assert [b["name"].split(":")[0] for b in bars] == [
        "Lemma 1 slack",
        "Cauchy–Schwarz slack",
        "Lemma 2 gap",
    ]
    for bar, line in zip(bars, (c.lemma1, c.cauchy, c.lemma2_root), strict=True):
        np.testing.assert_allclose(bar["y"], line.slack, atol=1e-6)
    assert "units of ‖w‖" in fig["layout"]["yaxis"]["title"]["text"]
    total = np.sum([b["y"] for b in bars], axis=0)
    np.testing.assert_allclose(total, room["y"], atol=1e-5)
    np.testing.assert_allclose(
        room["y"], c.lemma2_root.large - c.lemma1.small, rtol=1e-6, atol=1e-6
    )


@pytest.mark.parametrize("pick", ["first", "last"])
def test_lemma_2_has_one_unit_per_quantity_and_the_card_agrees_with_the_chart(pick):
    # One name, one unit: the slack kR² − ‖w‖² is in ‖w‖² (the handouts' ‖w_k‖² ≤ kR²)
    # wherever it is named, and the chart's piece is the gap R√k − ‖w‖ of its square root,
    # named so in the card too, with the same number (a card in ‖w‖² units beside a chart
    # in ‖w‖ units under one name would contradict each other).
    X, y = default_data()
    c = proof_check(train(X, y), X, y, max_margin(X, y))
    k = 1 if pick == "first" else c.n_mistakes
    at = proof_page({"prf_k": str(k)} if pick == "first" else None)
    text, tex = markdown(at), latex(at)
    # the card's numbers, read back from its formula: ‖w_k‖² and kR²
    number = r"([\d.]+(?:\{,\}\d+)*)"  # LaTeX writes 5,940 as 5{,}940
    (norm_sq,) = re.findall(re.escape(f"\\|w_{{{k}}}\\|^2 &= ") + number + r" \\", tex)
    (k_r2,) = re.findall(re.escape(r"&\le k\,R^2 = ") + number, tex)
    norm_sq, k_r2 = norm_sq.replace("{,}", ""), k_r2.replace("{,}", "")
    slack = float(k_r2) - float(norm_sq)
    gap = np.sqrt(float(k_r2)) - np.sqrt(float(norm_sq))
    w = "w" + str(k).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
    said = re.search(
        rf"Lemma 2's slack kR² − ‖{w}‖² = \*\*([\d.,]+)\*\* \(in units of ‖w‖².*?"
        rf"the gap R√k − ‖{w}‖ = \*\*([\d.,]+)\*\*",
        text,
    )
    assert said, text
    shown_slack, shown_gap = (float(v.replace(",", "")) for v in said.groups())
    assert shown_slack == pytest.approx(slack, rel=2e-3, abs=2e-3)
    assert shown_gap == pytest.approx(gap, rel=2e-3, abs=2e-3)
    # the chart's Lemma 2 piece at mistake k is the card's gap, to the card's 4 digits
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    (piece,) = [t for t in fig["data"] if t["name"].startswith("Lemma 2 gap")]
    assert float(f"{piece['y'][piece['x'].index(k)]:.4g}") == shown_gap
    # the verdict's slack and the table's column are the ‖w‖² slack, and say so
    best = float(np.min(c.lemma2.slack))
    assert f"Lemma 2 (‖w‖² ≤ kR²) holds at all **{c.n_mistakes}** mistakes" in text
    assert f"(slack kR² − ‖w‖² = {best:.3g})" in text
    table = next(t.value for t in at.dataframe if "slack kη²R² − ‖w_k‖²" in t.value)

    def read(column: str) -> np.ndarray:  # the table's cells are text, as number() writes
        return np.array([float(v.replace(",", "").replace("−", "-")) for v in table[column]])

    np.testing.assert_allclose(read("slack kη²R² − ‖w_k‖²"), c.lemma2.slack, rtol=1e-3)
    np.testing.assert_allclose(read("gap ηR√k − ‖w_k‖"), c.lemma2_root.slack, rtol=1e-3)
    # no Lemma 2 / Claim 2 "slack" left in units of ‖w‖ anywhere on the page
    assert "Claim 2 slack" not in text and all("Claim 2" not in t["name"] for t in fig["data"])


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"data_name": "four_points", "lec_w0": "typed", "lec_w0_typed": "-123.4, 567.8, -910.1"},
        {"lec_eta": "0.001", "data_n": "200"},  # tiny steps: small numbers everywhere
    ],
)
def test_every_number_is_plain_no_exponent_and_no_negative_zero(query):
    shown = assert_plain_numbers(proof_page(query))  # text, formulas, tables and charts
    if query.get("lec_w0"):  # ‖w₀‖² in the millions: LaTeX's thousands commas
        assert re.search(r"\d\{,\}\d{3}\{,\}\d{3}", shown), shown


def test_a_run_setting_changed_here_restarts_the_lecture_run():
    at = open_app("pages/lecture.py")
    lecture_step(at, 5)
    at.switch_page(PAGE).run()
    assert at.session_state["lec_t"] == 5  # only looked at: the same run
    at.selectbox(key="prf_lec_rule_w").set_value("predict_ge").run()
    assert not at.exception and at.session_state["lec_t"] == 0
    assert "lec_t" not in at.query_params
    at.switch_page("pages/lecture.py").run()
    assert not at.exception and at.session_state["lec_t"] == 0
    assert "step t = 0 of" in lecture_status(at)
    lecture_step(at, 1)
    at.switch_page(PAGE).run()
    at.selectbox(key="prf_lec_w0_w").set_value("random").run()  # the start w0 too
    assert not at.exception and at.session_state["lec_t"] == 0


def four_points_from(scale: float) -> tuple[dict[str, str], np.ndarray, np.ndarray, list[float]]:
    """The 4-point set of seed 001 (bias on) started at the typed w0 = scale·w*."""
    X, y = make_dataset("four_points", n=4, seed=0)
    typed = ", ".join(f"{v:.6g}" for v in scale * max_margin(X, y).w_star)
    query = {"data_name": "four_points", "lec_w0": "typed", "lec_w0_typed": typed}
    return query, X, y, [float(v) for v in typed.split(",")]


def test_from_w0_the_orders_and_the_adversary_are_held_to_the_bound_from_w0():
    # the runs start from w0, so (R/γ)² (the bound from w0 = 0) is not
    # theirs. The bound from w0, by hand: w0·w* + kγ <= ||w_k|| <= sqrt(||w0||² + kR²) (η = 1),
    # squared: γ²k² + (2aγ − R²)k + a² − b <= 0; its larger root.
    query, X, y, w0 = four_points_from(-10.0)
    mm = max_margin(X, y)
    Xa = np.hstack([X, np.ones((len(y), 1))])
    R2 = float(np.max(np.sum(Xa**2, axis=1)))
    a, b, g = float(np.dot(w0, mm.w_star)), float(np.dot(w0, w0)), float(mm.gamma)
    kmax = float(max(np.roots([g * g, 2 * a * g - R2, a * a - b]).real))
    assert round(kmax, 1) == 24.8 and round(mm.bound, 2) == 5.57
    given_order = train(X, y, w0=w0).n_mistakes
    assert mm.bound < given_order <= kmax  # 9: past (R/γ)², within the bound from w0
    at = proof_page(query)
    text = markdown(at)
    assert f"the bound from w₀: **{kmax:.4g}**" in text
    assert f"(R/γ)² = {mm.bound:.4g} is the bound from w₀ = 0" in text
    assert HOLDS + " The adversary's k ≤ the bound from w₀ holds" in text
    assert FAILS + " The adversary's" not in text and "For the adversary" not in text
    assert HOLDS + " The bound redone from w₀ holds" in text
    assert f"M = {given_order} \\;\\le\\; k_{{\\max}}(w_0) = {kmax:.4g}" in latex(at)
    fig = json.loads(at.get("plotly_chart")[1].proto.spec)
    assert fig["data"][-1]["x"] == pytest.approx([kmax, kmax], rel=1e-4)
    assert fig["data"][-1]["name"] == "the bound from w₀"
    assert f"the bound from w₀ = {kmax:.4g}" in fig["layout"]["annotations"][0]["text"]
    assert max(max(t["customdata"]) for t in fig["data"][:-1]) <= kmax
    assert "None of them can go past (R/γ)²" not in text


def test_no_mistakes_because_w0_separates_names_w0_not_the_strict_rule():
    # K = 0 under the default rule (y·(w·x) <= 0 is a mistake)
    query, X, y, w0 = four_points_from(10.0)
    assert train(X, y, w0=w0).n_mistakes == 0
    at = proof_page(query)
    assert at.session_state["lec_rule"] == "nonpositive"
    reason = next(w.value for w in at.warning if "No mistakes at all" in w.value)
    assert "w₀ already separates the data" in reason
    assert "strict rule" not in reason and "w = 0 is never wrong" not in reason


def page_words(at: AppTest) -> str:
    """Every text the proof page shows, without the app-wide glossary under it."""
    glossary = {
        m.value for e in at.expander if e.label == "Symbols and notation" for m in e.markdown
    }
    kinds = (at.title, at.header, at.subheader, at.markdown, at.caption, at.latex)
    kinds += (at.warning, at.info, at.error)
    return " ".join(x.value for kind in kinds for x in kind if x.value not in glossary)


@pytest.mark.parametrize("start", ["zero", "typed"])
def test_the_start_is_w0_and_w_k_counts_mistakes_on_the_whole_page(start):
    # one convention, said once how it maps to the handouts' w₁
    query = four_points_from(-10.0)[0] if start == "typed" else None
    words = page_words(proof_page(query))
    mapping = "w₀ is the starting weights (the handouts' w₁ in Princeton COS 495)"
    assert words.count(mapping) == 1
    rest = words.replace(mapping, "")
    assert "w₁" not in rest
    assert "w_1 =" not in rest and "w_1\\cdot" not in rest and "\\|w_1\\|" not in rest
    assert "0. The start w₀" in words
    assert ("w_0 = 0 \\;\\Rightarrow" if start == "zero" else "w_0 &= (") in words


def theorem_cards(at: AppTest) -> list[str]:
    """The formulas of the two theorem cards: "For any R", then "With ‖x‖ ≤ 1"."""
    general = [x.value for x in at.latex if r"R = \max_i\|x_i\|" in x.value]
    unit = [x.value for x in at.latex if r"x \leftarrow x/R" in x.value]
    assert len(general) == 1 and len(unit) == 1, latex(at)
    return general + unit


def test_from_w0_the_theorem_cards_give_the_bound_from_zero_and_tick_nothing():
    # the theorem assumes w0 = 0: from a random w0 this run's M is not held to (R/γ)², even
    # when it happens to be below it (here M = 1 against 41.3)
    X, y = default_data()
    mm = max_margin(X, y)
    w0 = np.random.default_rng(0).standard_normal(3)  # lec_w0 = random: seeded by data_seed
    M = train(X, y, w0=w0, max_epochs=50).n_mistakes
    assert 0 < M <= mm.bound
    at = proof_page({"lec_w0": "random"})
    for card in theorem_cards(at):
        assert r"\checkmark" not in card and "fails" not in card, card
        assert not re.search(r"\bM = ", card), card  # not this run's M against (R/γ)²
        assert r"\text{the bound from } w_0 = 0" in card, card
    general = theorem_cards(at)[0]
    assert f"= {mm.bound:.4g}" in general  # the bound itself is still given
    assert "says nothing about this run" in " ".join(markdown(at).split())
    assert f"M = {M} \\;\\le\\; k_{{\\max}}(w_0)" in latex(at)  # held to the bound from w0
    # from w0 = 0 the cards compare the run's M with the bound and tick it
    for card in theorem_cards(proof_page()):
        assert r"\checkmark" in card and "M = 3" in card


def test_with_eta_every_label_and_title_says_what_its_numbers_check():
    # η = 0.5: every step moves w by 0.5·y·x, so Claim 1 checks a gain of ηγ, Lemma 1 ηkγ,
    # Claim 2 η²R² and Lemma 2 kη²R²: the words say so, as the formulas do
    at = proof_page({"lec_eta": "0.5"})
    text = markdown(at)
    titles = [s.value for s in at.subheader]
    assert "1. Claim 1: w·w* grows by at least ηγ (η = 0.5)" in titles
    assert "2. Claim 2: ‖w‖² grows by at most η²R² (η = 0.5)" in titles
    for label in (
        "Claim 1 (one step: gain ≥ ηγ)",
        "Lemma 1 (w·w* ≥ ηkγ)",
        "Claim 2 (one step: gain ≤ η²R²)",
        "Lemma 2 (‖w‖² ≤ kη²R²)",
    ):
        assert f"{HOLDS} {label} holds at all **3** mistakes" in text, label
    assert "(w·w* ≥ kγ)" not in text and "(‖w‖² ≤ kR²)" not in text
    assert r"\ge \eta\,k\gamma" in latex(at)  # as the formulas write it
    # from w0 = 0 the rate changes no mistake (w is η times the run with η = 1): the
    # theorem's M ≤ (R/γ)² holds for this run as it is
    X, y = default_data()
    assert train(X, y, eta=0.5, max_epochs=50).n_mistakes == train(X, y).n_mistakes == 3
    assert all(r"\checkmark" in card and "M = 3" in card for card in theorem_cards(at))
    # with η = 1, as in every handout, no title or label says η
    at = proof_page()
    assert not [s.value for s in at.subheader if "η" in s.value]
    text = markdown(at)
    for label in ("Claim 1 (one step: gain ≥ γ)", "Lemma 1 (w·w* ≥ kγ)", "Lemma 2 (‖w‖² ≤ kR²)"):
        assert f"{HOLDS} {label} holds" in text, label


def test_one_epoch_is_written_in_the_singular():
    # the default data need two passes: at most one, the run stops after 1 epoch
    X, y = default_data()
    assert not train(X, y, max_epochs=1).converged
    words = page_words(proof_page({"lec_max_epochs": "1"}))
    assert "stopped after 1 epoch." in words and "at most 1 epoch." in words
    assert not re.search(r"\b1 epochs\b", words)


def test_the_page_carries_its_print_rules_and_keys_what_paper_leaves_out():
    """The print button's component (and with it the page's print rules) is on the page,
    and every widget the rules leave out of the handout has the key they name."""
    from ui.proof import paper

    at = proof_page()
    assert not at.exception
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert any(name.endswith("perceptron_proof_print") for name in names), names
    keys = {w.key for w in [*at.main.slider, *at.main.selectbox, *at.main.text_input]}
    assert len(keys) >= 5, keys  # the rule, w0, mistake k, the orders, γ
    assert keys <= set(paper.WIDGETS), keys - set(paper.WIDGETS)


def test_card_0_marks_the_base_case_as_failing_and_w0_not_0_as_true():
    """From w₀ = (1, −2, 0.5) the statement "w₀ ≠ 0" is true; what fails is the base case
    w₀ = 0 that both inductions assume. Every ✗ sits on a statement that is false."""
    w0 = np.array([1.0, -2.0, 0.5])
    at = proof_page({"lec_w0": "typed", "lec_w0_typed": "1, -2, 0.5"})
    card0 = next(x.value for x in at.latex if r"w_0 &=" in x.value)
    rows = card0.removeprefix(r"\begin{aligned}").removesuffix(r"\end{aligned}").split(r" \\ ")
    for row in rows:
        if r"\ne 0" in row:
            assert bool(w0.any())  # the claim on this row is true ...
            assert r"\checkmark" in row and "fails" not in row  # ... and marked so
        if "fails" in row:
            assert "base case" in row and r"w_0 &= 0" in row  # w₀ = 0: false here
    assert any("fails" in row for row in rows)


def plain_run(X: np.ndarray, y: np.ndarray, epochs: int) -> tuple[int, bool]:
    """The perceptron with bias from w = 0, counted by the plain loop (apptest_helpers)."""
    M, done, _, _ = plain_perceptron(np.column_stack([X, np.ones(len(X))]), y, epochs)
    return M, done


def test_a_run_stopped_at_the_epoch_limit_is_never_shown_as_the_whole_count():
    """Blobs 2.0 apart, spread 0.6, n = 40, seed 9: separable, but the perceptron needs 280
    epochs; the page's 50 stop it at a lower bound, which the cards and the orders say."""
    X, y = make_dataset("blobs", n=40, seed=9, distance=2.0, spread=0.6)
    M50, done50 = plain_run(X, y, 50)
    M, done = plain_run(X, y, 10_000)
    assert not done50 and done and M > M50
    at = open_app(PAGE, None, {"data_custom": (X, y, "blobs")})
    assert not at.exception
    tex = latex(at)
    assert rf"M \ge {M50:,}" in tex.replace("{,}", ",")
    theorem = next(x.value for x in at.latex if r"\Big(\frac{R}{\gamma}\Big)^2" in x.value)
    assert r"\checkmark" not in theorem  # a lower bound proves nothing either way
    text = markdown(at)
    assert "At the last mistake before the run stopped" in text
    assert re.search(r"Most mistakes in the orders drawn here \(50 random.*\): at least \*\*", text)
    assert any("stopped at the epoch limit" in i.value for i in at.info)


def test_a_table_that_shows_the_first_mistakes_says_how_many_it_leaves_out():
    X, y = make_dataset("xor", n=40, seed=0)
    at = open_app(PAGE, None, {"data_custom": (X, y, "xor")})
    assert not at.exception
    K, _ = plain_run(X, y, 50)
    assert K > 1000
    notes = [c.value for c in at.caption]
    assert f"The first 1,000 of the {K:,} mistakes; the slider above reaches every one." in notes
