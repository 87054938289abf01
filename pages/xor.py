"""Beyond linear: XOR never converges, why no line exists, and the feature map that fixes it."""

import numpy as np
import streamlit as st

from perceptron_core import DATASETS, FEATURE_MAPS, make_dataset
from ui.app.sidebar import current_dataset
from ui.app.state import XOR_DATA, bind
from ui.look.numbers import count, number, vector_text
from ui.look.palette import MINUS, PLUS
from ui.look.plots import CHART, as_figure, saved_as
from ui.look.text import lesson_text, prose, safe
from ui.shell import require_router
from ui.shell.presenter import settings
from ui.words import N_, t
from ui.xor import figures, runs, view

require_router()
ss = st.session_state
text = lesson_text("xor")
DATA = {"corners": N_("XOR, 4 integer corners"), "shared": N_("the sidebar's dataset")}

st.title(t("Beyond linear: XOR"))
prose(text, "intro")
with settings():  # in presenter mode, a menu: the picture on the first screen
    c = st.columns([3, 2])
    c[0].segmented_control(
        t("data"),
        list(XOR_DATA),
        format_func=lambda k: t(DATA[k]),
        **bind(ss, "xor_data"),
    )
    c[1].slider(t("epochs to run"), 5, 200, **bind(ss, "xor_epochs"))
if ss["xor_data"] == "corners":
    X, y, name = figures.XOR_X, figures.XOR_Y, t("XOR corners")
else:
    X, y, name = current_dataset()
epochs = int(ss["xor_epochs"])
trace, witness, cycle = runs.xor_run(X, y, epochs)
ref_spec = DATASETS["separable"]  # an upload may have more points than the generator allows
Xs, ys = make_dataset("separable", n=int(np.clip(len(y), ref_spec.n_min, ref_spec.n_max)), seed=0)
reference, _, _ = runs.xor_run(Xs, ys, epochs)

# the headings say what these data do: the sidebar's dataset may be separable
st.header(t("1. It never stops") if witness is not None else t("1. These data: it stops"))
if witness is not None:
    prose(text, "never")
curves = figures.curves_figures(
    [
        (
            safe(t("{name} (not separable)").format(name=name) if witness else name, sink="plotly"),
            trace,
            MINUS,
        ),
        (t("a separable set, n = {n}").format(n=len(ys)), reference, PLUS),
    ]
)
for j, (column, figure) in enumerate(zip(st.columns(3), curves, strict=True)):
    column.markdown(f"**{t(figures.CURVES[j][0])}**")
    config = saved_as(f"perceptron-xor-{figures.CURVE_FILES[j]}", figures.CURVE_SAVED)
    column.plotly_chart(as_figure(figure), config=config, key=f"xor_curves_{j}")
n = trace.n_examples
last = int(np.sum(trace.mistake_steps[:, 0] >= (trace.n_epochs - 1) * n))
if trace.converged:
    st.success(
        t("{name}: converged after {epochs}, {mistakes}.").format(
            name=safe(name),
            epochs=count(trace.n_epochs, "epoch"),
            mistakes=count(trace.n_mistakes, "mistake"),
        )
    )
else:
    st.error(
        t(
            "{name}: {mistakes} mistakes in {epochs} epochs and still {last} in the last one; "
            "‖w‖ never went above {norm}."
        ).format(
            name=safe(name),
            mistakes=number(trace.n_mistakes),
            epochs=number(trace.n_epochs),
            last=number(last),
            norm=number(np.linalg.norm(trace.weights, axis=1).max()),
        )
    )
if cycle is not None:
    st.info(
        t(
            "**A cycle.** From step t = {start} the weights repeat exactly every {steps} "
            "({epochs}), with {mistakes} per round: the same {vectors} for ever."
        ).format(
            start=number(cycle.start),
            steps=count(cycle.period, "step"),
            epochs=count(cycle.period // n, "epoch"),
            mistakes=count(cycle.mistakes_per_period, "mistake"),
            vectors=count(len(cycle.weights), "weight vector"),
        )
    )
    st.dataframe(  # counted from 1, as every list on the pages is
        {
            t("in the cycle"): range(1, len(cycle.weights) + 1),
            "w": [vector_text(w) for w in cycle.weights],
        },
        hide_index=True,
    )

st.header(t("2. Why: no line exists") if witness is not None else t("2. Here a line exists"))
if witness is None:
    st.success(t("These data are separable: w* exists, and the perceptron stops."))
else:
    prose(text, "why")
    left, right = st.columns([3, 2])
    left.plotly_chart(
        as_figure(figures.witness_figure(X, y, witness)),
        config=saved_as("perceptron-xor-no-line"),
        key="xor_witness",
    )
    right.markdown(
        t("**z is on both sides at once**, so no line separates the classes.")
        + "\n\n"
        + t("**Mistake bound:** there is no γ > 0, so there is no bound (R/γ)².")
    )
    st.latex(figures.witness_latex(X, witness))

st.header(t("3. The fix: a feature map"))
prose(text, "fix")
st.radio(
    t("feature map φ"),
    list(FEATURE_MAPS),
    format_func=lambda k: t(FEATURE_MAPS[k].title),
    horizontal=True,
    **bind(ss, "xor_map"),
)
fmap = FEATURE_MAPS[ss["xor_map"]]
st.latex(fmap.formula)
lifted, separable = runs.lifted_run(X, y, fmap.key, epochs)
if lifted.converged:
    said = t("On φ(x) the perceptron **converges**: {mistakes} in {epochs}.")
elif not separable:
    said = t(
        "On φ(x) the perceptron **does not converge**: no hyperplane separates φ(x) "
        "({mistakes} in {epochs})."
    )
else:  # separable, stopped at the epoch limit: a lower bound, and no verdict yet
    said = t(
        "On φ(x) the perceptron **has not converged yet**: at least {mistakes} in {epochs}; "
        "φ(x) is separable, so it will."
    )
st.markdown(
    said.format(
        mistakes=count(lifted.n_mistakes, "mistake"), epochs=count(lifted.n_epochs, "epoch")
    )
)
left, right = st.columns(2)
left.plotly_chart(
    as_figure(figures.boundary_figure(X, y, fmap.key, lifted.w)),
    config=saved_as(f"perceptron-xor-boundary-{fmap.key}"),
    key="xor_boundary",
)
if fmap.key == "quadratic":
    # Plotly's 3-D scene takes every wheel and touch move over it, scrollZoom off or not
    # (plotly.js #6458): until the student asks to turn it, the page's CSS lets them through
    turn = right.toggle(text["turn"], key="xor_turn_3d")
    view.hold_still()
    right.container(key=view.STILL if not turn else "xor_turning").plotly_chart(
        as_figure(figures.lifted_figure(X, y, lifted.w)),
        config=saved_as("perceptron-xor-lifted") | {"scrollZoom": True}
        if turn
        else CHART | {"displayModeBar": False},
        key="xor_3d",
    )
    Z = FEATURE_MAPS["quadratic"].fn(X)
    right.caption(text["turned" if turn else "still"])
    note = figures.coinciding_text(X, y, Z)
    if note:
        right.markdown(note)
else:
    right.caption(t("Pick the full quadratic map to see the lifted points in 3-D."))
check = runs.kernel_check(X, y, epochs)
st.markdown(
    t(
        "**The kernel trick**, always with the full quadratic map φ_quad, whichever map is "
        "picked above: its dot product is a square of the plain one, so the perceptron never "
        "needs φ_quad(x) itself."
    )
)
st.latex(figures.kernel_latex(X))
# one whole sentence for each way the run went: converged or not, the same steps or not
KERNEL = {
    (True, True): N_(
        "Kernel perceptron with K(x, z) = (x·z)² + 1: {mistakes}, the same steps as the "
        "explicit map φ_quad ({explicit}); same prediction on {agree} of {points} random points."
    ),
    (True, False): N_(
        "Kernel perceptron with K(x, z) = (x·z)² + 1: {mistakes}, NOT the same steps as the "
        "explicit map φ_quad ({explicit}); same prediction on {agree} of {points} random points."
    ),
    (False, True): N_(
        "Kernel perceptron with K(x, z) = (x·z)² + 1: {mistakes} in {epochs}, not converged "
        "yet, the same steps as the explicit map φ_quad ({explicit}); same prediction on "
        "{agree} of {points} random points."
    ),
    (False, False): N_(
        "Kernel perceptron with K(x, z) = (x·z)² + 1: {mistakes} in {epochs}, not converged "
        "yet, NOT the same steps as the explicit map φ_quad ({explicit}); same prediction on "
        "{agree} of {points} random points."
    ),
}
st.markdown(
    t(KERNEL[bool(check["converged"]), bool(check["same_steps"])]).format(
        mistakes=count(check["kernel_mistakes"], "mistake"),
        epochs=count(epochs, "epoch"),
        explicit=number(check["explicit_mistakes"]),
        agree=number(check["agree"]),
        points=number(check["points"]),
    )
)

st.header(t("4. Noisy data: pocket and averaged"))
prose(text, "noise")
errors = runs.remedies(100, int(ss["data_seed"]), 0.1, epochs)
st.plotly_chart(
    as_figure(figures.remedies_figure(errors)),
    config=saved_as("perceptron-xor-pocket-averaged"),
    key="xor_remedies",
)
note = figures.coinciding_note(errors)
if note:
    st.caption(note)

with st.expander(t("History: Rosenblatt, Minsky and Papert"), key="xor_open_history"):
    prose(text, "history")
