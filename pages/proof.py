"""The proof, line by line: every inequality of the convergence proof with the run's numbers."""

import numpy as np
import streamlit as st

from perceptron_core import RULES, augment
from ui.app.sidebar import current_dataset
from ui.app.state import W0_MODES, bind, widget_key
from ui.compute.model import SCALE_NAMES
from ui.compute.runs import lecture_run
from ui.lecture import steps as lecture
from ui.lecture.restart import follow
from ui.look.numbers import count, number, percent
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose, safe
from ui.proof import figures as proof
from ui.proof import orders as proof_orders
from ui.proof import paper
from ui.proof import runs as proof_runs
from ui.shell import require_router

require_router()
ss = st.session_state
text = lesson_text("proof")

SHARED = "prf_"  # the lecture's settings shown here get widget keys of this page's own


def card(title: str, body: str, general: str, *live: str) -> None:
    """A step of the proof: its statement from the handouts, then the run's numbers."""
    st.subheader(title)
    st.markdown(body)
    st.latex(general)
    for line in live:
        st.latex(line)


st.title("The proof, line by line")
prose(text, "intro")
X, y, data_name = current_dataset()
with st.container(border=True, key=paper.SETTINGS_BOX):
    c = st.columns([3, 2, 3])
    c[0].selectbox(
        "mistake rule",
        list(RULES),
        **bind(ss, "lec_rule", prefix=SHARED),
        format_func=lambda r: RULES[r].text,
    )
    c[1].selectbox("start w0", W0_MODES, **bind(ss, "lec_w0", prefix=SHARED))
    if ss["lec_w0"] == "typed":
        c[1].text_input("w0 = (w1, w2[, b])", **bind(ss, "lec_w0_typed", prefix=SHARED))
    c[2].markdown(
        f"Shared with **Step by step**: bias {'on' if ss['lec_bias'] else 'off'}, "
        f"η = {number(ss['lec_eta'])}, {ss['lec_order']} order"
        f"{', ' + SCALE_NAMES[ss['lec_scale']] if ss['lec_scale'] != 'given' else ''}, at most "
        f"{count(ss['lec_max_epochs'], 'epoch')}."
    )
    c[2].page_link("pages/lecture.py", label="change them on Step by step", icon="▶️")
follow(ss, X, y)  # the run is the lecture's: a new rule or w0 here restarts it there
settings, notes = lecture.run_settings(ss, X)
for kind, note in notes:
    (st.warning if kind == "warning" else st.info)(note)
run = lecture_run(X, y, settings)
check = proof_runs.check(X, y, settings)
M, K = run.trace.n_mistakes, check.n_mistakes
names = proof.labels(check)
ended = (
    "converged" if run.trace.converged else f"stopped after {count(run.trace.n_epochs, 'epoch')}"
)
mistakes = "mistake" if M == 1 else "mistakes"
cut = None if run.trace.converged else run.trace.n_epochs  # M is then a lower bound
st.markdown(f"**{safe(data_name)}** · this run: **M = {number(M)}** {mistakes}, {ended}.")
paper.print_button()  # and the page's print rules: a handout without the widgets


st.header("The theorem")
if run.mm is None:
    st.error(text["nonsep"] + f"\n\n*Why:* {run.reason}")
else:
    general, unit = proof.theorem_latex(check, M, cut)
    left, right = st.columns(2)
    with left.container(border=True, key=f"{paper.CARD}theorem_any"):
        card("For any R (Cornell CS6780 and the handwritten notes)", text["general"], general)
    with right.container(border=True, key=f"{paper.CARD}theorem_unit"):
        card("With ‖x‖ ≤ 1 (Princeton COS 495 and EURECOM MALIS)", text["unit"], unit)
    if not proof.from_zero(check):
        st.markdown(text["theorem_start"])
        st.latex(proof.theorem_start_latex(check, M, cut))

st.header("The proof, step by step")
k = K
if K >= 2:
    wanted = ss["prf_k"] if 1 <= ss["prf_k"] <= K else K
    ss[widget_key("prf_k")] = wanted  # the setting (0 = the last mistake) drives the slider

    def keep_last() -> None:
        if ss["prf_k"] == K:
            ss["prf_k"] = 0  # at the end: stay at the end when the run changes

    st.slider("numbers at mistake k", 1, K, **bind(ss, "prf_k", then=keep_last))
    k = wanted
if K:
    st.caption(proof.mistake_caption(check, k, run.X, run.y))

with st.container(border=True, key=f"{paper.CARD}0"):
    st.subheader("0. The start w₀")
    prose(text, "start")
    st.markdown(f"This run: rule *{RULES[settings.rule].text}* ({RULES[settings.rule].source}).")
    w0 = np.asarray(run.trace.weights[0], dtype=np.float64)
    if not w0.any():
        st.latex(proof.start_zero_latex())
    else:
        st.latex(proof.start_w0_latex(w0))
        st.warning(
            "The base case is gone: both inductions (Lemma 1 and 2) assumed w₀ = 0, so their "
            "lines below may fail, and so may k ≤ (R/γ)², the bound from w₀ = 0. Redone from "
            "w₀ the proof still works with the start added to both sides, and this bound is "
            "the one the run, the random orders and the adversary below are held to:"
        )
        if run.mm is not None:
            st.latex(proof.start_latex(check))
    if K == 0:
        Xa = augment(run.X) if settings.bias else run.X
        st.warning(proof.no_mistakes_reason(run.y * (Xa @ w0), settings.rule, not w0.any()))

if K and run.mm is not None:
    # the run has w*, so proof_check filled the lines that need it
    assert check.claim1 is not None and check.lemma1 is not None
    with st.container(border=True, key=f"{paper.CARD}1"):
        general, live, lemma = proof.claim1_latex(check, k)
        card(names.claim1_title, text["claim1"], general, live, lemma)
        st.markdown(proof.verdict(check.claim1, names.claim1, ge=True))
        st.markdown(proof.verdict(check.lemma1, names.lemma1, ge=True))
        with st.expander("Why is y·(x·w*) ≥ γ?"):
            prose(text, "why_margin")
        with st.expander(f"Every mistake ({K})"):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.claim1_table(check), hide_index=True)
if K:
    with st.container(border=True, key=f"{paper.CARD}2"):
        general, live, lemma = proof.claim2_latex(check, k)
        card(names.claim2_title, text["claim2"], general, live, lemma)
        st.markdown(proof.verdict(check.claim2, names.claim2))
        st.markdown(proof.verdict(check.lemma2, names.lemma2, slack=names.lemma2_slack))
        st.markdown(proof.lemma2_units(check, k))
        cross, square = proof.why_latex(check, k)
        with st.expander("Why is 2y wᵀx < 0? (EURECOM MALIS)"):
            prose(text, "why_cross")
            st.latex(cross)
            st.markdown(proof.verdict(check.cross, "The cross term ≤ 0"))
        with st.expander("Why is 0 ≤ y² xᵀx ≤ 1? (EURECOM MALIS)"):
            prose(text, "why_square")
            st.latex(square)
        with st.expander(f"Every mistake ({K})"):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.claim2_table(check), hide_index=True)
if K and run.mm is not None:
    # the run has w*, so proof_check filled the lines that need it
    assert check.cauchy is not None and check.conclusion is not None
    with st.container(border=True, key=f"{paper.CARD}3"):
        card("3. Cauchy–Schwarz", text["cauchy"], proof.cauchy_latex(check, k))
        st.markdown(proof.verdict(check.cauchy, "Cauchy–Schwarz"))
        with st.expander(f"Every mistake ({K})"):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.cauchy_table(check), hide_index=True)
    with st.container(border=True, key=f"{paper.CARD}4"):
        chain, end = proof.conclusion_latex(check, k)
        card("4. Conclusion: M ≤ (R/γ)²", text["conclusion"], chain, end)
        st.markdown(proof.verdict(check.conclusion, "k ≤ (R/γ)²"))
        if not proof.from_zero(check) and check.conclusion_start is not None:
            st.markdown(proof.verdict(check.conclusion_start, "The bound redone from w₀"))
        with st.expander(f"Every mistake ({K})"):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.conclusion_table(check), hide_index=True)
    st.header("Which step is loose?")
    prose(text, "loose")
    st.markdown(proof.loosest(check, cut=cut is not None))
    st.plotly_chart(as_figure(proof.slack_figure(check)), config=CHART, key="prf_slack")

st.header("Any order, any n: the adversary")
prose(text, "orders")
if run.mm is None:
    st.info("Without w* there is no bound to compare the orders with.")
else:
    bound, _, bound_name = proof.run_bound(check)
    n_orders = st.slider("random orders", 10, 200, **bind(ss, "prf_orders"))
    counts = proof_runs.orders(X, y, settings, n_orders)
    adv = proof_runs.adversary(X, y, settings)
    assert adv is not None  # the run has w*: there is an adversary to hold to the bound
    n = len(y)
    rows = [
        (f"{len(counts['shuffled'])} random orders (n = {n})", counts["shuffled"]),
        (
            f"the same, each point ×{proof_runs.REPEAT} (n = {proof_runs.REPEAT * n})",
            counts["repeated"],
        ),
        ("this run's order", np.array([M])),
        (f"greedy adversary ({adv.name})", np.array([adv.trace.n_mistakes])),
    ]
    done = [
        counts["shuffled_converged"],
        counts["repeated_converged"],
        np.array([run.trace.converged]),
        np.array([adv.trace.converged]),
    ]
    st.plotly_chart(
        as_figure(proof_orders.orders_figure(rows, bound, name=bound_name, done=done)),
        config=CHART,
        key="prf_orders_fig",
    )
    worst = max(int(counts["shuffled"].max()), int(counts["repeated"].max()), M)
    stopped = sum(int((~np.asarray(d, dtype=bool)).sum()) for d in done[:3])
    at_least = "at least " if stopped else ""
    picks = adv.counts["random_runs"]
    st.markdown(
        f"Most mistakes in the orders drawn here ({len(counts['shuffled'])} random, as many "
        f"of the repeated points, and this run's): {at_least}**{number(worst)}**; the adversary: "
        f"**{number(adv.trace.n_mistakes)}** (picking the point that turns w furthest from "
        f"w\\*: {number(adv.counts['away'])}, the lowest-numbered wrong point: "
        f"{number(adv.counts['lowest'])}, the best of {count(picks, 'random pick')}: "
        f"{number(adv.counts['random'])}); "
        + (
            f"the bound: **{number(bound, 4)}**."
            if proof.from_zero(check)
            else f"the bound from w₀: **{number(bound, 4)}**"
            + (" (below 1: from this w₀ no mistake is possible)" if bound < 1 else "")
            + f"; (R/γ)² = {number(run.mm.bound, 4)} is the bound from w₀ = 0, and these runs "
            "all start from this w₀."
        )
    )
    if stopped:
        st.info(
            f"{count(stopped, 'run')} of this run's order, the random orders and the repeated "
            f"points stopped at the epoch limit before converging (▶ on the chart): their M is "
            "only a lower bound. More epochs on Step by step count them to the end."
        )
    if len(counts["shuffled"]) < n_orders:
        st.caption(
            f"{count(len(counts['shuffled']), 'random order')} of the {n_orders} asked for: "
            f"all the runs here stay within {proof_runs.ORDER_STEPS:,} steps."
        )
    if not adv.trace.converged:
        st.info(f"The adversary stopped after {proof_runs.ADVERSARY_STEPS:,} steps.")
    adv_line = proof.run_bound(adv.check)[1]
    assert adv_line is not None  # the adversary runs only with w*
    st.markdown(proof.verdict(adv_line, f"The adversary's k ≤ {bound_name}"))
    st.subheader("A set that gets close")
    prose(text, "worst")
    gamma = st.slider("γ of the three points", 0.02, 0.3, **bind(ss, "prf_gamma"), step=0.01)
    wc = proof_runs.worst_case(float(gamma), 20)
    m = st.columns(4)
    m[0].metric("bound 1/γ²", number(wc["bound"], 4))
    m[1].metric("given order", number(wc["given"]))
    m[2].metric("best of 20 random orders", number(wc["shuffled"]))
    m[3].metric("greedy adversary", number(wc["adversary"]))
    st.caption(
        f"The adversary makes {percent(wc['adversary'] / wc['bound'], 0)} of the bound "
        f"(γ = {number(wc['gamma'])}, R = {number(wc['radius'])})."
    )
