"""Application (seed 004): n analysts, a hidden committee of k with the right majority,
and the perceptron learning whom to follow with at most n·k mistakes."""

import streamlit as st

from perceptron_core import EXPERT_BEHAVIOURS
from ui.app.state import MAX_SEED, assign, bind
from ui.experts import figures as ex
from ui.experts.runs import experts_run
from ui.look.numbers import count, number
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose
from ui.shell import require_router
from ui.shell.presenter import settings

require_router()
ss = st.session_state
text = lesson_text("experts")


def largest_odd(n: int) -> int:
    return n if n % 2 else n - 1


def fit_k() -> None:  # the committee is at most n analysts, and odd
    if ss["exp_k"] > ss["exp_n"]:
        assign(ss, "exp_k", largest_odd(int(ss["exp_n"])))


st.title("Application: following experts")
prose(text, "intro")
if ss["exp_k"] > ss["exp_n"]:  # only a URL can ask for this
    st.info(
        f"The committee cannot be larger than n = {ss['exp_n']}: using k = "
        f"{largest_odd(int(ss['exp_n']))}."
    )
    fit_k()
with settings():  # in presenter mode, a menu: the picture on the first screen
    c = st.columns([1.1, 1.1, 1.1, 1.9, 0.8], vertical_alignment="bottom")  # whole at 1280 px
    c[0].slider("analysts n", 3, 100, **bind(ss, "exp_n", then=fit_k))
    c[1].slider(
        "committee size k (odd)", 1, largest_odd(int(ss["exp_n"])), step=2, **bind(ss, "exp_k")
    )
    c[2].slider("days", 10, 2000, step=10, **bind(ss, "exp_days"))
    c[3].segmented_control(
        "the other analysts",
        list(EXPERT_BEHAVIOURS),
        required=True,
        format_func={"random": "flip coins", "adversarial": "are adversarial"}.__getitem__,
        **bind(ss, "exp_behaviour"),
    )
    c[4].number_input("seed", 0, MAX_SEED, **bind(ss, "exp_seed"))
    st.caption(f"**{ss['exp_behaviour']}:** {EXPERT_BEHAVIOURS[ss['exp_behaviour']]}.")

run = experts_run(
    int(ss["exp_n"]),
    int(ss["exp_k"]),
    int(ss["exp_days"]),
    ss["exp_behaviour"],
    int(ss["exp_seed"]),
)

st.header("1. Mistakes against the bound n·k")
m = st.container(horizontal=True, gap="medium")  # wraps, two by two on a phone
days_counted = f"mistakes M in {count(int(ss['exp_days']), 'day')}"  # the count is of these days
m.metric(days_counted, number(run.n_mistakes))
m.metric("bound n·k", number(run.bound))
m.metric("γ = 1/√k", number(run.gamma, 4))
m.metric("D = √n", number(run.radius, 4))
st.markdown(ex.summary(run))
st.plotly_chart(as_figure(ex.mistakes_figure(run)), config=CHART, key="exp_mistakes")

st.header("2. Why n·k: the handwritten notes' derivation, with these numbers")
prose(text, "derivation")
st.markdown(ex.derivation_markdown(run))
lemmas = ex.lemma_checks(run)
st.markdown(
    f"At the end of this run (M = {number(run.n_mistakes)}): "
    + "; ".join(
        f"{name}: {number(left, 4)} {'≥' if 'Lemma 1' in name else '≤'} {number(right, 4)} "
        + ("✓" if ok else "✗")
        for name, left, right, ok in lemmas
    )
    + f". The smallest y·(x·u) on any day was {number(run.margins.min(), 4)} "
    f"(γ = {number(run.gamma, 4)})."
)

st.header("3. Whom the perceptron learns to follow")
prose(text, "weights")
left, right = st.columns([3, 2])  # side by side on a laptop, one above the other on a phone
left.markdown("**Weights wᵢ after each day**")
left.plotly_chart(as_figure(ex.weights_figure(run)), config=CHART, key="exp_weights")
right.markdown(f"**Final weights, day {number(run.days)}**")
right.plotly_chart(as_figure(ex.final_weights_figure(run)), config=CHART, key="exp_final")
st.markdown(
    f"{ex.committee_sentence(run)} At the end the angle between "
    f"w and u is **{number(ex.angle_degrees(run))}°** (cos = {number(ex.cosine(run, run.days))})."
)
with st.expander("The first 30 days"):
    st.dataframe(ex.days_table(run), hide_index=True)
prose(text, "notes")
