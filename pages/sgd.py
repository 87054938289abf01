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

require_router()
ss = st.session_state
text = lesson_text("sgd")
ETAS = (0.1, 1.0, 10.0)


st.title("The perceptron as SGD")
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
        "data",
        list(SGD_DATA),
        format_func={"given": "as given", "centred": "centred: x − mean"}.__getitem__,
        **bind(ss, "sgd_data"),
    )
    c[1].slider("max epochs per run", 1, 100, **bind(ss, "sgd_epochs"))
if ss["sgd_data"] == "centred":
    X = X - X.mean(axis=0)
    name = f"{name}, centred"
n = len(y)
epochs = sgd_runs.epochs_within_cap(int(ss["sgd_epochs"]), n)
if epochs < ss["sgd_epochs"]:
    st.caption(
        f"{number(epochs)} epochs only: at most {number(sgd_runs.MAX_STEPS)} examples per run."
    )
if not sgd_runs.separable(X, y, False):
    if ss["sgd_data"] == "given" and sgd_runs.separable(X - X.mean(axis=0), y, False):
        hint = "Centred, they are: pick **centred** above."
    elif sgd_runs.separable(X, y, True):
        hint = "They need a bias (a line off the origin), which this page leaves out."
    else:
        hint = "No line separates them at all, even with a bias."
    if sgd.zero_cone(X, y) is None:
        head = f"No line through the origin separates {name}"
        why = (
            "Eₚ > 0 for every w ≠ 0, there is no cone Eₚ = 0, and the perceptron's path "
            "never settles."
        )
    else:  # weakly separable: some w ≠ 0 has every yᵢ w·xᵢ ≥ 0, but none has all > 0
        head = f"No line through the origin separates {name} strictly"
        why = (
            "Eₚ = 0 on the cone drawn in the landscape below (a single ray if it has no "
            "width), but every w in it has yᵢ w·xᵢ = 0 for some point: a point on its line, "
            "or at the origin. The perceptron counts that as a mistake (y·w·x ≤ 0), so it "
            "never finishes a pass without one."
        )
    st.warning(f"**{head}**: {why} {hint}", icon=":material/warning:")

st.header("1. The landscape Eₚ(w) and the perceptron's path")
run = sgd_runs.online(X, y, epochs, 1.0, None)
surf = sgd_runs.surface(X, y, sgd.half_width([run.weights]))
left, right = st.columns([3, 2])
left.plotly_chart(
    as_figure(
        sgd.landscape_figure(surf, [sgd.Path("perceptron, η = 1", run.weights, W_COLOUR)], X, y)
    ),
    config=CHART,
    key="sgd_landscape",
)
values = sgd.criterion_along(run.weights, X, y)
right.plotly_chart(as_figure(sgd.along_path_figure(values)), config=CHART, key="sgd_along")
ups = int((np.diff(values) > 1e-12).sum())
verdict = (
    f"converged after {count(run.n_epochs, 'epoch')}"
    if run.converged
    else f"not converged in {count(epochs, 'epoch')}"
)
st.markdown(
    f"On {name}: **{count(run.n_mistakes, 'update')}**, {verdict}; final w = "
    f"{vector_text(run.w)}, Eₚ(w) = {number(values[-1])}. Eₚ went **up** at {number(ups)} "
    + ("of the one update." if run.n_mistakes == 1 else f"of the {number(run.n_mistakes)} updates.")
)
st.markdown(text["criterion"] + "\n\n" + text["along"])

st.header("2. One update = one SGD step on a loss of the margin")
prose(text, "losses")
left, right = st.columns(2)
left.markdown("**The loss of one example** (shaded: a mistake, z ≤ 0)")
left.plotly_chart(as_figure(sgd.losses_figure("loss")), config=CHART, key="sgd_losses")
right.markdown("**One SGD step adds η·(−l′(z))·y·x** (same colours)")
right.plotly_chart(as_figure(sgd.losses_figure("step")), config=CHART, key="sgd_steps")
# a list, not a table: four columns of formulas are wider than a phone
st.markdown(
    "\n".join(
        f"- **{loss.title}**: $l(z) = {loss.latex}$, step $-l'(z) = {loss.step_latex}$; "
        f"{loss.source}"
        for loss in LOSSES.values()
    )
)
st.caption(f"At z = 0 this app takes the step of the perceptron: {RULES['nonpositive'].text}.")

st.header("3. The learning rate η")
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
        stopped = "" if tr.converged else f" (not converged in {count(tr.n_epochs, 'epoch')})"
        col.markdown(
            f"**η = {number(eta)}**: {count(tr.n_mistakes, 'mistake')}{stopped}, "
            f"w = {vector_text(tr.w)}"
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
same = all(np.array_equal(t.mistake_steps, zero[1].mistake_steps) for t in zero)
if same:
    gap = max(
        float(np.abs(t.weights - e * zero[1].weights).max())
        for t, e in zip(zero, ETAS, strict=True)
    )
    st.success(
        "From w₀ = 0: the **same mistakes at the same steps** for η = 0.1, 1 and 10, "
        "and w(η) = η·w(1) "
        + ("exactly." if gap == 0 else f"up to rounding (largest difference {number(gap, 1)}).")
    )
else:
    st.warning(
        "The mistakes differ between η = 0.1, 1 and 10: some w·x is exactly 0 with η = 1, and "
        "rounding in η = 0.1 (not a power of two) makes it a tiny non-zero number."
    )
st.subheader("From a non-zero start w₀")
prose(text, "eta_start")
c = st.columns(2)
c[0].slider("w₀, first coordinate", -5.0, 5.0, step=0.5, **bind(ss, "sgd_w1"))
c[1].slider("w₀, second coordinate", -5.0, 5.0, step=0.5, **bind(ss, "sgd_w2"))
w0 = (float(ss["sgd_w1"]), float(ss["sgd_w2"]))
start = eta_panels(w0, "start")
counts = [t.n_mistakes for t in start]
said = [("" if t.converged else "≥ ") + number(t.n_mistakes) for t in start]
cut = [t for t in start if not t.converged]
st.markdown(
    f"From w₀ = {vector_text(w0)}: **{', '.join(said[:2])} and {said[2]} mistakes** "
    "for η = 0.1, 1 and 10"
    + (
        f" (≥: not converged in {count(cut[0].n_epochs, 'epoch')}, so the count is a lower bound)"
        if cut
        else ""
    )
    + (
        " — here they happen to agree; try another w₀."
        if len(set(counts)) == 1 and not cut
        else "."
    )
)

st.header("4. Online, mini-batch and batch")
prose(text, "batches")
c = st.columns(2)
b_max = max(2, min(n, 500))
if ss["sgd_batch"] > b_max:  # the dataset shrank under the slider
    assign(ss, "sgd_batch", b_max)
c[0].slider("mini-batch size b", 1, b_max, **bind(ss, "sgd_batch"))
c[1].segmented_control(
    "order of the examples",
    ["given", "shuffle"],
    format_func={"given": "given", "shuffle": "reshuffled every pass"}.__getitem__,
    **bind(ss, "sgd_order"),
)
b = min(int(ss["sgd_batch"]), n)
seed = int(ss["data_seed"]) if ss["sgd_order"] == "shuffle" else None
kinds = [
    ("online, b = 1", 1, W_COLOUR),
    (f"mini-batch, b = {number(b)}", b, CURRENT),
    (f"batch, b = n = {number(n)}", n, PLUS),
]
runs = [
    (label, sgd_runs.batches(X, y, size, epochs, seed), colour) for label, size, colour in kinds
]
left, right = st.columns(2)
for col, panel, head in (
    (left, "mistakes", "**Mistakes in each epoch**"),
    (right, "updates", "**Updates (changes of w) in each epoch**"),
):
    col.markdown(head)
    col.plotly_chart(
        as_figure(sgd.schedule_figure(runs, panel)), config=CHART, key=f"sgd_schedule_{panel}"
    )
st.dataframe(  # numbers as text: "12,000", as everywhere on the page
    {
        "run": [label for label, _, _ in runs],
        "epochs": [number(r.n_epochs) for _, r, _ in runs],
        "converged": ["yes" if r.converged else "no" for _, r, _ in runs],
        "mistakes": [number(r.n_mistakes) for _, r, _ in runs],
        "updates": [number(r.n_updates) for _, r, _ in runs],
        "final w / ‖w‖": [vector_text(r.w / (np.linalg.norm(r.w) or 1.0)) for _, r, _ in runs],
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
    "The three paths on Eₚ: batch steps follow −∇Eₚ of the whole set, online steps the "
    "gradient at one point. A batch step sums many yᵢxᵢ, so its steps are longer."
)
