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
from ui.words import N_, t

require_router()
ss = st.session_state
text = lesson_text("experts")
# the other analysts' behaviours: as the switch offers them, and as the caption names them
CHOICES = {"random": N_("flip coins"), "adversarial": N_("are adversarial")}
BEHAVIOURS = {"random": N_("random"), "adversarial": N_("adversarial")}


def largest_odd(n: int) -> int:
    return n if n % 2 else n - 1


def fit_k() -> None:  # the committee is at most n analysts, and odd
    if ss["exp_k"] > ss["exp_n"]:
        assign(ss, "exp_k", largest_odd(int(ss["exp_n"])))


st.title(t("Application: following experts"))
prose(text, "intro")
if ss["exp_k"] > ss["exp_n"]:  # only a URL can ask for this
    st.info(
        t("The committee cannot be larger than n = {n}: using k = {k}.").format(
            n=ss["exp_n"], k=largest_odd(int(ss["exp_n"]))
        )
    )
    fit_k()
with settings():  # in presenter mode, a menu: the picture on the first screen
    c = st.columns([1.1, 1.1, 1.1, 1.9, 0.8], vertical_alignment="bottom")  # whole at 1280 px
    c[0].slider(t("analysts n"), 3, 100, **bind(ss, "exp_n", then=fit_k))
    c[1].slider(
        t("committee size k (odd)"), 1, largest_odd(int(ss["exp_n"])), step=2, **bind(ss, "exp_k")
    )
    c[2].slider(t("days"), 10, 2000, step=10, **bind(ss, "exp_days"))
    c[3].segmented_control(
        t("the other analysts"),
        list(EXPERT_BEHAVIOURS),
        required=True,
        format_func=lambda k: t(CHOICES[k]),
        **bind(ss, "exp_behaviour"),
    )
    c[4].number_input(t("seed"), 0, MAX_SEED, **bind(ss, "exp_seed"))
    st.caption(
        t("**{behaviour}:** {description}.").format(
            behaviour=t(BEHAVIOURS[ss["exp_behaviour"]]),
            description=EXPERT_BEHAVIOURS[ss["exp_behaviour"]],
        )
    )

run = experts_run(
    int(ss["exp_n"]),
    int(ss["exp_k"]),
    int(ss["exp_days"]),
    ss["exp_behaviour"],
    int(ss["exp_seed"]),
)

st.header(t("1. Mistakes against the bound n·k"))
m = st.container(horizontal=True, gap="medium")  # wraps, two by two on a phone
# the count is of these days
days_counted = t("mistakes M in {days}").format(days=count(int(ss["exp_days"]), "day"))
m.metric(days_counted, number(run.n_mistakes))
m.metric(t("bound n·k"), number(run.bound))
m.metric("γ = 1/√k", number(run.gamma, 4))
m.metric("D = √n", number(run.radius, 4))
st.markdown(ex.summary(run))
st.plotly_chart(as_figure(ex.mistakes_figure(run)), config=CHART, key="exp_mistakes")

st.header(t("2. Why n·k: the handwritten notes' derivation, with these numbers"))
prose(text, "derivation")
st.markdown(ex.derivation_markdown(run))
lemmas = ex.lemma_checks(run)
checks = "; ".join(  # Lemma 1 bounds w·u from below, Lemma 2 ‖w‖² from above
    f"{name}: {number(left, 4)} {sign} {number(right, 4)} " + ("✓" if ok else "✗")
    for (name, left, right, ok), sign in zip(lemmas, ("≥", "≤"), strict=True)
)
st.markdown(
    t(
        "At the end of this run (M = {M}): {checks}. The smallest y·(x·u) on any day was "
        "{smallest} (γ = {gamma})."
    ).format(
        M=number(run.n_mistakes),
        checks=checks,
        smallest=number(run.margins.min(), 4),
        gamma=number(run.gamma, 4),
    )
)

st.header(t("3. Whom the perceptron learns to follow"))
prose(text, "weights")
left, right = st.columns([3, 2])  # side by side on a laptop, one above the other on a phone
left.markdown(t("**Weights wᵢ after each day**"))
left.plotly_chart(as_figure(ex.weights_figure(run)), config=CHART, key="exp_weights")
right.markdown(t("**Final weights, day {day}**").format(day=number(run.days)))
right.plotly_chart(as_figure(ex.final_weights_figure(run)), config=CHART, key="exp_final")
st.markdown(
    ex.committee_sentence(run)
    + " "
    + t("At the end the angle between w and u is **{angle}°** (cos = {cos}).").format(
        angle=number(ex.angle_degrees(run)), cos=number(ex.cosine(run, run.days))
    )
)
with st.expander(t("The first 30 days"), key="exp_first_days"):
    st.dataframe(ex.days_table(run), hide_index=True)
prose(text, "notes")
