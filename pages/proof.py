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
from ui.lecture.steps import W0_NAMES
from ui.look.numbers import count, number, percent
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose, safe
from ui.proof import figures as proof
from ui.proof import orders as proof_orders
from ui.proof import paper
from ui.proof import runs as proof_runs
from ui.proof import slack as proof_slack
from ui.shell import require_router
from ui.words import N_, t, tn

require_router()
ss = st.session_state
text = lesson_text("proof")

SHARED = "prf_"  # the lecture's settings shown here get widget keys of this page's own
SHARED_ORDERS = {"given": N_("given order"), "shuffle": N_("shuffle order")}


def card(title: str, body: str, general: str, *live: str) -> None:
    """A step of the proof: its statement from the handouts, then the run's numbers."""
    st.subheader(title)
    st.markdown(body)
    st.latex(general)
    for line in live:
        st.latex(line)


def shared_settings() -> str:
    """Markdown: the lecture's settings this page uses but does not show as widgets."""
    scaled = ss["lec_scale"] != "given"
    if ss["lec_bias"]:
        said = (
            t(
                "Shared with **Step by step**: bias on, η = {eta}, {order}, {scale}, at most "
                "{epochs}."
            )
            if scaled
            else t("Shared with **Step by step**: bias on, η = {eta}, {order}, at most {epochs}.")
        )
    else:
        said = (
            t(
                "Shared with **Step by step**: bias off, η = {eta}, {order}, {scale}, at most "
                "{epochs}."
            )
            if scaled
            else t("Shared with **Step by step**: bias off, η = {eta}, {order}, at most {epochs}.")
        )
    return said.format(
        eta=number(ss["lec_eta"]),
        order=t(SHARED_ORDERS[ss["lec_order"]]),
        scale=t(SCALE_NAMES[ss["lec_scale"]]),
        epochs=count(ss["lec_max_epochs"], "epoch"),
    )


def most_said(from_zero: bool, below_one: bool) -> str:
    """The orders' sentence (placeholders drawn, worst, adversary, away, lowest, picks,
    random, bound, bound0), against the bound that applies: from w₀ = 0, or from w₀."""
    if from_zero:
        return t(
            "Most mistakes in the orders drawn here ({drawn} random, as many of the repeated "
            "points, and this run's): {worst}; the adversary: **{adversary}** (picking the "
            "point that turns w furthest from w\\*: {away}, the lowest-numbered wrong point: "
            "{lowest}, the best of {picks}: {random}); the bound: **{bound}**."
        )
    if below_one:
        return t(
            "Most mistakes in the orders drawn here ({drawn} random, as many of the repeated "
            "points, and this run's): {worst}; the adversary: **{adversary}** (picking the "
            "point that turns w furthest from w\\*: {away}, the lowest-numbered wrong point: "
            "{lowest}, the best of {picks}: {random}); the bound from w₀: **{bound}** (below 1: "
            "from this w₀ no mistake is possible); (R/γ)² = {bound0} is the bound from w₀ = 0, "
            "and these runs all start from this w₀."
        )
    return t(
        "Most mistakes in the orders drawn here ({drawn} random, as many of the repeated "
        "points, and this run's): {worst}; the adversary: **{adversary}** (picking the "
        "point that turns w furthest from w\\*: {away}, the lowest-numbered wrong point: "
        "{lowest}, the best of {picks}: {random}); the bound from w₀: **{bound}**; (R/γ)² = "
        "{bound0} is the bound from w₀ = 0, and these runs all start from this w₀."
    )


st.title(t("The proof, line by line"))
prose(text, "intro")
X, y, data_name = current_dataset()
with st.container(border=True, key=paper.SETTINGS_BOX):
    c = st.columns([3, 2, 3])
    c[0].selectbox(
        t("mistake rule"),
        list(RULES),
        **bind(ss, "lec_rule", prefix=SHARED),
        format_func=lambda r: t(RULES[r].text),
    )
    c[1].selectbox(
        t("start w0"),
        W0_MODES,
        **bind(ss, "lec_w0", prefix=SHARED),
        format_func=lambda m: t(W0_NAMES[m]),
    )
    if ss["lec_w0"] == "typed":
        c[1].text_input("w0 = (w1, w2[, b])", **bind(ss, "lec_w0_typed", prefix=SHARED))
    c[2].markdown(shared_settings())
    c[2].page_link("pages/lecture.py", label=t("change them on Step by step"), icon="▶️")
follow(ss, X, y)  # the run is the lecture's: a new rule or w0 here restarts it there
settings, notes = lecture.run_settings(ss, X)
for kind, note in notes:
    (st.warning if kind == "warning" else st.info)(note)
run = lecture_run(X, y, settings)
check = proof_runs.check(X, y, settings)
M, K = run.trace.n_mistakes, check.n_mistakes
names = proof.labels(check)
cut = None if run.trace.converged else run.trace.n_epochs  # M is then a lower bound
this_run = (
    tn(
        "**{name}** · this run: **M = {M}** mistake, converged.",
        "**{name}** · this run: **M = {M}** mistakes, converged.",
        M,
    )
    if run.trace.converged
    else tn(
        "**{name}** · this run: **M = {M}** mistake, stopped after {epochs}.",
        "**{name}** · this run: **M = {M}** mistakes, stopped after {epochs}.",
        M,
    )
)
st.markdown(
    this_run.format(name=safe(data_name), M=number(M), epochs=count(run.trace.n_epochs, "epoch"))
)
paper.print_button()  # and the page's print rules: a handout without the widgets


st.header(t("The theorem"))
if run.mm is None:
    st.error(text["nonsep"] + "\n\n" + t("*Why:* {reason}").format(reason=run.reason))
else:
    general, unit = proof.theorem_latex(check, M, cut)
    left, right = st.columns(2)
    with left.container(border=True, key=f"{paper.CARD}theorem_any"):
        card(t("For any R (Cornell CS6780 and the handwritten notes)"), text["general"], general)
    with right.container(border=True, key=f"{paper.CARD}theorem_unit"):
        card(t("With ‖x‖ ≤ 1 (Princeton COS 495 and EURECOM MALIS)"), text["unit"], unit)
    if not proof.from_zero(check):
        st.markdown(text["theorem_start"])
        st.latex(proof.theorem_start_latex(check, M, cut))

st.header(t("The proof, step by step"))
k = K
if K >= 2:
    wanted = ss["prf_k"] if 1 <= ss["prf_k"] <= K else K
    ss[widget_key("prf_k")] = wanted  # the setting (0 = the last mistake) drives the slider

    def keep_last() -> None:
        if ss["prf_k"] == K:
            ss["prf_k"] = 0  # at the end: stay at the end when the run changes

    st.slider(t("numbers at mistake k"), 1, K, **bind(ss, "prf_k", then=keep_last))
    k = wanted
if K:
    st.caption(proof.mistake_caption(check, k, run.X, run.y))

with st.container(border=True, key=f"{paper.CARD}0"):
    st.subheader(t("0. The start w₀"))
    prose(text, "start")
    rule = RULES[settings.rule]
    st.markdown(
        t("This run: rule *{rule}* ({source}).").format(rule=t(rule.text), source=rule.source)
    )
    w0 = np.asarray(run.trace.weights[0], dtype=np.float64)
    if not w0.any():
        st.latex(proof.start_zero_latex())
    else:
        st.latex(proof.start_w0_latex(w0))
        st.warning(
            t(
                "The base case is gone: both inductions (Lemma 1 and 2) assumed w₀ = 0, so their "
                "lines below may fail, and so may k ≤ (R/γ)², the bound from w₀ = 0. Redone from "
                "w₀ the proof still works with the start added to both sides, and this bound is "
                "the one the run, the random orders and the adversary below are held to:"
            )
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
        with st.expander(t("Why is y·(x·w*) ≥ γ?")):
            prose(text, "why_margin")
        with st.expander(t("Every mistake ({K})").format(K=K)):
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
        with st.expander(t("Why is 2y wᵀx < 0? (EURECOM MALIS)")):
            prose(text, "why_cross")
            st.latex(cross)
            st.markdown(proof.verdict(check.cross, t("The cross term ≤ 0")))
        with st.expander(t("Why is 0 ≤ y² xᵀx ≤ 1? (EURECOM MALIS)")):
            prose(text, "why_square")
            st.latex(square)
        with st.expander(t("Every mistake ({K})").format(K=K)):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.claim2_table(check), hide_index=True)
if K and run.mm is not None:
    # the run has w*, so proof_check filled the lines that need it
    assert check.cauchy is not None and check.conclusion is not None
    with st.container(border=True, key=f"{paper.CARD}3"):
        card(t("3. Cauchy–Schwarz"), text["cauchy"], proof.cauchy_latex(check, k))
        st.markdown(proof.verdict(check.cauchy, t("Cauchy–Schwarz")))
        with st.expander(t("Every mistake ({K})").format(K=K)):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.cauchy_table(check), hide_index=True)
    with st.container(border=True, key=f"{paper.CARD}4"):
        chain, end = proof.conclusion_latex(check, k)
        card(t("4. Conclusion: M ≤ (R/γ)²"), text["conclusion"], chain, end)
        st.markdown(proof.verdict(check.conclusion, "k ≤ (R/γ)²"))
        if not proof.from_zero(check) and check.conclusion_start is not None:
            st.markdown(proof.verdict(check.conclusion_start, t("The bound redone from w₀")))
        with st.expander(t("Every mistake ({K})").format(K=K)):
            if left_out := proof.table_note(check):  # the rows it leaves out
                st.caption(left_out)
            st.dataframe(proof.conclusion_table(check), hide_index=True)
    st.header(t("Which step is loose?"))
    prose(text, "loose")
    st.markdown(proof_slack.loosest(check, cut=cut is not None))
    st.plotly_chart(as_figure(proof_slack.slack_figure(check)), config=CHART, key="prf_slack")

st.header(t("Any order, any n: the adversary"))
prose(text, "orders")
if run.mm is None:
    st.info(t("Without w* there is no bound to compare the orders with."))
else:
    bound, _, bound_name = proof.run_bound(check)
    n_orders = st.slider(t("random orders"), 10, 200, **bind(ss, "prf_orders"))
    counts = proof_runs.orders(X, y, settings, n_orders)
    adv = proof_runs.adversary(X, y, settings)
    assert adv is not None  # the run has w*: there is an adversary to hold to the bound
    n = len(y)
    drawn = len(counts["shuffled"])
    rows = [
        (
            tn("{k} random order (n = {n})", "{k} random orders (n = {n})", drawn).format(
                k=drawn, n=n
            ),
            counts["shuffled"],
        ),
        (
            t("the same, each point ×{repeat} (n = {n})").format(
                repeat=proof_runs.REPEAT, n=proof_runs.REPEAT * n
            ),
            counts["repeated"],
        ),
        (t("this run's order"), np.array([M])),
        (
            t("greedy adversary ({name})").format(name=adv.shown_name()),
            np.array([adv.trace.n_mistakes]),
        ),
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
    st.markdown(
        most_said(proof.from_zero(check), bound < 1).format(
            drawn=drawn,
            worst=(t("at least **{n}**") if stopped else "**{n}**").format(n=number(worst)),
            adversary=number(adv.trace.n_mistakes),
            away=number(adv.counts["away"]),
            lowest=number(adv.counts["lowest"]),
            picks=count(adv.counts["random_runs"], "random pick"),
            random=number(adv.counts["random"]),
            bound=number(bound, 4),
            bound0=number(run.mm.bound, 4),
        )
    )
    if stopped:
        st.info(
            t(
                "{runs} of this run's order, the random orders and the repeated points stopped "
                "at the epoch limit before converging (▶ on the chart): their M is only a lower "
                "bound. More epochs on Step by step count them to the end."
            ).format(runs=count(stopped, "run"))
        )
    if len(counts["shuffled"]) < n_orders:
        st.caption(
            t(
                "{orders} of the {asked} asked for: all the runs here stay within {most} steps."
            ).format(
                orders=count(drawn, "random order"),
                asked=n_orders,
                most=number(proof_runs.ORDER_STEPS),
            )
        )
    if not adv.trace.converged:
        st.info(
            t("The adversary stopped after {most} steps.").format(
                most=number(proof_runs.ADVERSARY_STEPS)
            )
        )
    adv_line = proof.run_bound(adv.check)[1]
    assert adv_line is not None  # the adversary runs only with w*
    st.markdown(proof.verdict(adv_line, t("The adversary's k ≤ {bound}").format(bound=bound_name)))
    st.subheader(t("A set that gets close"))
    prose(text, "worst")
    gamma = st.slider(t("γ of the three points"), 0.02, 0.3, **bind(ss, "prf_gamma"), step=0.01)
    wc = proof_runs.worst_case(float(gamma), 20)
    m = st.columns(4)
    m[0].metric(t("bound 1/γ²"), number(wc["bound"], 4))
    m[1].metric(t("given order"), number(wc["given"]))
    m[2].metric(t("best of 20 random orders"), number(wc["shuffled"]))
    m[3].metric(t("greedy adversary"), number(wc["adversary"]))
    st.caption(
        t("The adversary makes {share} of the bound (γ = {gamma}, R = {radius}).").format(
            share=percent(wc["adversary"] / wc["bound"], 0),
            gamma=number(wc["gamma"]),
            radius=number(wc["radius"]),
        )
    )
