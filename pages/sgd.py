"""The perceptron as SGD: E_p over the (w1, w2) plane, losses of the margin, the learning
rate, and online / mini-batch / batch (seeds 000 and 002)."""

from collections.abc import Sequence

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from perceptron_core import LOSSES, RULES, Trace
from ui.app.sidebar import current_dataset
from ui.app.state import SGD_DATA, assign, bind
from ui.look.numbers import count, number, vector_text
from ui.look.palette import BOUND, CURRENT, PLUS, W_COLOUR
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose, safe
from ui.sgd import figures as sgd
from ui.sgd import runs as sgd_runs
from ui.shell import require_router
from ui.shell.presenter import settings
from ui.words import N_, t, tn

require_router()
ss = st.session_state
text = lesson_text("sgd")
ETAS = (0.1, 1.0, 10.0)
DATA_NAMES = {"given": N_("as given"), "centred": N_("centred: x − mean")}
ORDER_NAMES = {"given": N_("given"), "shuffle": N_("reshuffled every pass")}


st.title(t("The perceptron as SGD"))
prose(text, "intro")
st.latex(
    r"E_p(\mathbf{w}) = -\sum_{i \in \mathcal{M}(\mathbf{w})} y_i\,\mathbf{w}\cdot\mathbf{x}_i"
)
prose(text, "intro2")
X, y, raw_name = current_dataset()
name = safe(raw_name)  # for markdown
with settings():  # in presenter mode, a menu: the picture on the first screen
    c: Sequence[DeltaGenerator] = st.columns([2, 3])
    c[0].segmented_control(
        t("data"),
        list(SGD_DATA),
        format_func=lambda k: t(DATA_NAMES[k]),
        **bind(ss, "sgd_data"),
    )
    c[1].slider(t("max epochs per run"), 1, 100, **bind(ss, "sgd_epochs"))
if ss["sgd_data"] == "centred":
    X = X - X.mean(axis=0)
    name = t("{name}, centred").format(name=name)
n = len(y)
epochs = sgd_runs.epochs_within_cap(int(ss["sgd_epochs"]), n)
if epochs < ss["sgd_epochs"]:
    st.caption(
        t("{epochs} epochs only: at most {steps} examples per run.").format(
            epochs=number(epochs), steps=number(sgd_runs.MAX_STEPS)
        )
    )
if not sgd_runs.separable(X, y, False):
    if ss["sgd_data"] == "given" and sgd_runs.separable(X - X.mean(axis=0), y, False):
        hint = t("Centred, they are: pick **centred** above.")
    elif sgd_runs.separable(X, y, True):
        hint = t("They need a bias (a line off the origin), which this page leaves out.")
    else:
        hint = t("No line separates them at all, even with a bias.")
    if sgd.zero_cone(X, y) is None:
        head = t("No line through the origin separates {name}").format(name=name)
        why = t(
            "Eₚ > 0 for every w ≠ 0, there is no cone Eₚ = 0, and the perceptron's path "
            "never settles."
        )
    else:  # weakly separable: some w ≠ 0 has every yᵢ w·xᵢ ≥ 0, but none has all > 0
        head = t("No line through the origin separates {name} strictly").format(name=name)
        why = t(
            "Eₚ = 0 on the cone drawn in the landscape below (a single ray if it has no "
            "width), but every w in it has yᵢ w·xᵢ = 0 for some point: a point on its line, "
            "or at the origin. The perceptron counts that as a mistake (y·w·x ≤ 0), so it "
            "never finishes a pass without one."
        )
    st.warning(f"**{head}**: {why} {hint}", icon=":material/warning:")

st.header(t("1. The landscape Eₚ(w) and the perceptron's path"))
run = sgd_runs.online(X, y, epochs, 1.0, None)
surf = sgd_runs.surface(X, y, sgd.half_width([run.weights]))
left, right = st.columns([3, 2])
left.plotly_chart(
    as_figure(
        sgd.landscape_figure(surf, [sgd.Path(t("perceptron, η = 1"), run.weights, W_COLOUR)], X, y)
    ),
    config=CHART,
    key="sgd_landscape",
)
values = sgd.criterion_along(run.weights, X, y)
right.plotly_chart(as_figure(sgd.along_path_figure(values)), config=CHART, key="sgd_along")
ups = int((np.diff(values) > 1e-12).sum())
if run.converged:
    said_run = tn(
        "On {name}: **{updates}**, converged after {epochs}; final w = {w}, Eₚ(w) = {E}. "
        "Eₚ went **up** at {ups} of the one update.",
        "On {name}: **{updates}**, converged after {epochs}; final w = {w}, Eₚ(w) = {E}. "
        "Eₚ went **up** at {ups} of the {n} updates.",
        run.n_mistakes,
    )
else:
    said_run = tn(
        "On {name}: **{updates}**, not converged in {epochs}; final w = {w}, Eₚ(w) = {E}. "
        "Eₚ went **up** at {ups} of the one update.",
        "On {name}: **{updates}**, not converged in {epochs}; final w = {w}, Eₚ(w) = {E}. "
        "Eₚ went **up** at {ups} of the {n} updates.",
        run.n_mistakes,
    )
st.markdown(
    said_run.format(
        name=name,
        updates=count(run.n_mistakes, "update"),
        epochs=count(run.n_epochs if run.converged else epochs, "epoch"),
        w=vector_text(run.w),
        E=number(values[-1]),
        ups=number(ups),
        n=number(run.n_mistakes),
    )
)
st.markdown(text["criterion"] + "\n\n" + text["along"])

st.header(t("2. One update = one SGD step on a loss of the margin"))
prose(text, "losses")
left, right = st.columns(2)
left.markdown(t("**The loss of one example** (shaded: a mistake, z ≤ 0)"))
left.plotly_chart(as_figure(sgd.losses_figure("loss")), config=CHART, key="sgd_losses")
right.markdown(t("**One SGD step adds η·(−l′(z))·y·x** (same colours)"))
right.plotly_chart(as_figure(sgd.losses_figure("step")), config=CHART, key="sgd_steps")
# a list, not a table: four columns of formulas are wider than a phone
st.markdown(
    "\n".join(
        t("- **{title}**: $l(z) = {latex}$, step $-l'(z) = {step}$; {source}").format(
            title=t(loss.title), latex=loss.latex, step=loss.step_latex, source=loss.source
        )
        for loss in LOSSES.values()
    )
)
st.caption(
    t("At z = 0 this app takes the step of the perceptron: {rule}.").format(
        rule=t(RULES["nonpositive"].text)
    )
)

st.header(t("3. The learning rate η"))
prose(text, "eta")


def eta_panels(w0: tuple[float, float] | None, key: str) -> list[Trace]:
    """One landscape per η, side by side. From w0 = 0 they are one surface, rescaled."""
    traces = [sgd_runs.online(X, y, epochs, eta, w0) for eta in ETAS]
    cols = st.columns(len(ETAS))
    if w0 is None:
        base = sgd_runs.surface(X, y, sgd.half_width([traces[1].weights]), 61)
    for col, eta, tr, colour in zip(cols, ETAS, traces, (PLUS, W_COLOUR, BOUND), strict=True):
        if w0 is None:
            s = sgd.scaled(base, eta)  # E_p(eta w) = eta E_p(w)
        else:
            s = sgd_runs.surface(X, y, sgd.half_width([tr.weights]), 61)
        said_eta = (
            t("**η = {eta}**: {mistakes}, w = {w}")
            if tr.converged
            else t("**η = {eta}**: {mistakes} (not converged in {epochs}), w = {w}")
        )
        col.markdown(
            said_eta.format(
                eta=number(eta),
                mistakes=count(tr.n_mistakes, "mistake"),
                epochs=count(tr.n_epochs, "epoch"),
                w=vector_text(tr.w),
            )
        )
        col.plotly_chart(
            as_figure(
                sgd.landscape_figure(
                    s,
                    [sgd.Path(f"η = {number(eta)}", tr.weights, colour)],
                    X,
                    y,
                    height=340,
                    legend=False,
                )
            ),
            config=CHART,
            key=f"sgd_{key}_{eta:g}",
        )
    return traces


zero = eta_panels(None, "eta")
same = all(np.array_equal(tr.mistake_steps, zero[1].mistake_steps) for tr in zero)
if same:
    gap = max(
        float(np.abs(tr.weights - e * zero[1].weights).max())
        for tr, e in zip(zero, ETAS, strict=True)
    )
    st.success(
        t(
            "From w₀ = 0: the **same mistakes at the same steps** for η = 0.1, 1 and 10, "
            "and w(η) = η·w(1) exactly."
        )
        if gap == 0
        else t(
            "From w₀ = 0: the **same mistakes at the same steps** for η = 0.1, 1 and 10, "
            "and w(η) = η·w(1) up to rounding (largest difference {gap})."
        ).format(gap=number(gap, 1))
    )
else:
    st.warning(
        t(
            "The mistakes differ between η = 0.1, 1 and 10: some w·x is exactly 0 with η = 1, and "
            "rounding in η = 0.1 (not a power of two) makes it a tiny non-zero number."
        )
    )
st.subheader(t("From a non-zero start w₀"))
prose(text, "eta_start")
c = st.columns(2)
c[0].slider(t("w₀, first coordinate"), -5.0, 5.0, step=0.5, **bind(ss, "sgd_w1"))
c[1].slider(t("w₀, second coordinate"), -5.0, 5.0, step=0.5, **bind(ss, "sgd_w2"))
w0 = (float(ss["sgd_w1"]), float(ss["sgd_w2"]))
start = eta_panels(w0, "start")
counts = [tr.n_mistakes for tr in start]
said = [("" if tr.converged else "≥ ") + number(tr.n_mistakes) for tr in start]
cut = [tr for tr in start if not tr.converged]
if cut:
    said_start = t(
        "From w₀ = {w0}: **{first}, {second} and {third} mistakes** for η = 0.1, 1 and 10 "
        "(≥: not converged in {epochs}, so the count is a lower bound)."
    )
elif len(set(counts)) == 1:
    said_start = t(
        "From w₀ = {w0}: **{first}, {second} and {third} mistakes** for η = 0.1, 1 and 10 "
        "— here they happen to agree; try another w₀."
    )
else:
    said_start = t(
        "From w₀ = {w0}: **{first}, {second} and {third} mistakes** for η = 0.1, 1 and 10."
    )
st.markdown(
    said_start.format(
        w0=vector_text(w0),
        first=said[0],
        second=said[1],
        third=said[2],
        epochs=count(cut[0].n_epochs, "epoch") if cut else "",
    )
)

st.header(t("4. Online, mini-batch and batch"))
prose(text, "batches")
c = st.columns(2)
b_max = max(2, min(n, 500))
if ss["sgd_batch"] > b_max:  # the dataset shrank under the slider
    assign(ss, "sgd_batch", b_max)
c[0].slider(t("mini-batch size b"), 1, b_max, **bind(ss, "sgd_batch"))
c[1].segmented_control(
    t("order of the examples"),
    ["given", "shuffle"],
    format_func=lambda k: t(ORDER_NAMES[k]),
    **bind(ss, "sgd_order"),
)
b = min(int(ss["sgd_batch"]), n)
seed = int(ss["data_seed"]) if ss["sgd_order"] == "shuffle" else None
kinds = [
    (t("online, b = 1"), 1, W_COLOUR),
    (t("mini-batch, b = {b}").format(b=number(b)), b, CURRENT),
    (t("batch, b = n = {n}").format(n=number(n)), n, PLUS),
]
runs = [
    (label, sgd_runs.batches(X, y, size, epochs, seed), colour) for label, size, colour in kinds
]
left, right = st.columns(2)
for col, panel, head in (
    (left, "mistakes", t("**Mistakes in each epoch**")),
    (right, "updates", t("**Updates (changes of w) in each epoch**")),
):
    col.markdown(head)
    col.plotly_chart(
        as_figure(sgd.schedule_figure(runs, panel)), config=CHART, key=f"sgd_schedule_{panel}"
    )
st.dataframe(  # numbers as text: "12,000", as everywhere on the page
    {
        t("run"): [label for label, _, _ in runs],
        t("epochs"): [number(r.n_epochs) for _, r, _ in runs],
        t("converged"): [t("yes") if r.converged else t("no") for _, r, _ in runs],
        t("mistakes"): [number(r.n_mistakes) for _, r, _ in runs],
        t("updates"): [number(r.n_updates) for _, r, _ in runs],
        t("final w / ‖w‖"): [vector_text(r.w / (np.linalg.norm(r.w) or 1.0)) for _, r, _ in runs],
    },
    hide_index=True,
)
paths = [
    sgd.Path(label, r.weights, colour, dash)
    for (label, r, colour), dash in zip(runs, sgd.RUN_DASHES, strict=True)
]
s = sgd_runs.surface(X, y, sgd.half_width([p.weights for p in paths]))
st.plotly_chart(as_figure(sgd.landscape_figure(s, paths, X, y)), config=CHART, key="sgd_paths")
st.caption(
    t(
        "The three paths on Eₚ: batch steps follow −∇Eₚ of the whole set, online steps the "
        "gradient at one point. A batch step sums many yᵢxᵢ, so its steps are longer."
    )
)
