"""Which perceptron to deploy? The last, voted and averaged perceptron (seed 003) on one
stream, on handwritten digits, over many orders and starts (seed 002), and their cost."""

from collections.abc import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from perceptron_core import METHODS
from ui.app.sidebar import current_dataset
from ui.app.state import VAR_DATA, bind
from ui.look.numbers import count, number, percent
from ui.look.plots import CHART, as_figure
from ui.look.text import lesson_text, prose, safe
from ui.shell import require_router
from ui.shell.presenter import settings
from ui.variants import figures as var
from ui.variants import runs
from ui.variants.verdict import NAMES, cost_rows, swing, verdict
from ui.words import N_, t, tn

require_router()
ss = st.session_state
text = lesson_text("variants")
PCT = percent  # 0.123 -> "12.3%"
DATA_NAMES = {"own": N_("this page's set"), "shared": N_("the sidebar's")}


def pair_name(pair: str) -> str:
    """A pair of digits, +1's then −1's: "8 vs 9"."""
    plus, minus = var.PAIRS[pair]
    return t("{plus} vs {minus}").format(plus=plus, minus=minus)


def errors_list(errors: dict[str, float]) -> str:
    """Each read-out's test error, in bold: "**last w 12.3%**, **averaged 9.1%**, ..."."""
    return ", ".join(f"**{t(NAMES[m])} {PCT(errors[m])}**" for m in METHODS)


st.title(t("Which perceptron to deploy?"))
prose(text, "intro")
prose(text, "readouts")
with settings():  # in presenter mode, a menu: the picture on the first screen
    c: Sequence[DeltaGenerator] = st.columns([2.6, 2, 2, 1.6])  # the data switch whole at 1280 px
    c[0].segmented_control(
        t("2-D data"),
        list(VAR_DATA),
        format_func=lambda k: t(DATA_NAMES[k]),
        **bind(ss, "var_data"),
    )
    c[1].slider(t("points (this page's set)"), 20, 500, step=10, **bind(ss, "var_n"))
    c[2].slider(
        t("training labels flipped"), 0.0, 0.3, step=0.05, format="%.2f", **bind(ss, "var_noise")
    )
    c[3].slider(t("epochs T"), 1, 100, **bind(ss, "var_epochs"))
seed, noise, epochs = int(ss["data_seed"]), float(ss["var_noise"]), int(ss["var_epochs"])
X, y = runs.own_data(int(ss["var_n"]), seed)
name = t("separable 2-D set (n = {n}, seed {seed})").format(n=len(y), seed=seed)
if ss["var_data"] == "shared":
    Xs, ys, name_s = current_dataset()
    if min((ys > 0).sum(), (ys < 0).sum()) >= 2:
        X, y, name = Xs, ys, name_s
    else:
        st.warning(
            t("The sidebar's data need 2 points of each class for a split; using this page's.")
        )

st.header(t("1. One stream, three perceptrons"))
prose(text, "stream")
exp, grid = runs.two_d(X, y, noise, epochs, seed)
left, right = st.columns([1, 1])
left.plotly_chart(as_figure(var.boundaries_figure(exp, grid)), config=CHART, key="var_plane")
right.plotly_chart(
    as_figure(
        var.errors_figure(
            exp.errors,
            exp.star_test,
            title=safe(name, sink="plotly", limit=120) + "<br>" + t("error per epoch"),
        )
    ),
    config=CHART,
    key="var_curves",
)
sw = swing(exp.errors)
final = {m: float(exp.errors.test[m][-1]) for m in METHODS}
said_stream = (
    t(
        "After epoch {epoch} ({points}, {labels} flipped, {mistakes}): test error {errors}. "
        "Over the second half of the epochs the test error swung (max − min) by {swings}."
    )
    if exp.star_test is None
    else t(
        "After epoch {epoch} ({points}, {labels} flipped, {mistakes}): test error {errors}, "
        "w\\* {star}. Over the second half of the epochs the test error swung (max − min) by "
        "{swings}."
    )
)
st.markdown(
    said_stream.format(
        epoch=epochs,
        points=count(len(exp.y_train), "training point"),
        labels=count(len(exp.flipped), "label"),
        mistakes=count(exp.n_mistakes, "mistake"),
        errors=errors_list(final),
        star=PCT(exp.star_test) if exp.star_test is not None else "",
        swings=", ".join(f"{PCT(sw[m])} ({t(NAMES[m])})" for m in METHODS),
    )
)

st.header(t("2. Handwritten digits"))
prose(text, "digits")
st.segmented_control(
    t("digits, +1 vs −1"),
    list(var.PAIRS),
    format_func=pair_name,
    **bind(ss, "var_pair"),
)
pair = ss["var_pair"]
dg = runs.digits_run(pair, noise, epochs, seed)
st.plotly_chart(
    as_figure(
        var.errors_figure(
            dg.errors, dg.star_test, title=pair_name(pair) + "<br>" + t("error per epoch")
        )
    ),
    config=CHART,
    key="var_digits",
)
final_dg = {m: float(dg.errors.test[m][-1]) for m in METHODS}
said_digits = (
    t(
        "{train} ({labels} flipped), {test}, after epoch {epoch}: test error {errors}; "
        "w\\* (clean labels) {star}."
    )
    if dg.star_test is not None
    else t(
        "{train} ({labels} flipped), {test}, after epoch {epoch}: test error {errors}; {reason}."
    )
)
st.markdown(
    said_digits.format(
        train=count(len(dg.y_train), "training image"),
        labels=count(len(dg.flipped), "label"),
        test=count(len(dg.y_test), "test image"),
        epoch=epochs,
        errors=errors_list(final_dg),
        star=PCT(dg.star_test) if dg.star_test is not None else "",
        reason=dg.star_reason,
    )
)

st.header(t("3. Which solution? Orders and starts"))
prose(text, "starts")
st.latex(r"M \le \left(\frac{R}{\gamma}\right)^2 + \frac{2\,\lVert w_0 \rVert}{\gamma}")
c = st.columns(2)
c[0].slider(t("runs"), 10, 200, step=10, **bind(ss, "var_runs"))
c[1].slider(t("‖w₀‖ of the random starts"), 0.0, 5.0, step=0.5, **bind(ss, "var_w0"))
n_runs, w0 = int(ss["var_runs"]), float(ss["var_w0"])
Xd, _ = runs.digit_pair(pair)
e2, ed = (var.starts_epochs(n_runs, epochs, k) for k in (len(y), len(Xd)))
if min(e2, ed) < epochs:
    st.caption(
        t(
            "At most {e2} (2-D) and {ed} (digits) epochs per run here: at most {steps} examples "
            "over all runs."
        ).format(e2=e2, ed=ed, steps=number(var.MAX_RUN_STEPS))
    )
s2 = runs.starts_2d(X, y, n_runs, e2, w0, seed)
sd = runs.starts_digits(pair, n_runs, ed, w0, seed)
label_d = pair_name(pair)
panels = [(t("2-D"), s2), (label_d, sd)]
# one figure per panel in columns: side by side on a laptop, one above the other on a phone
for col, (title, s), key in zip(
    st.columns(2), panels, ("var_hist", "var_hist_digits"), strict=True
):
    col.markdown(f"**{var.mistakes_head(title, s)}**")
    col.plotly_chart(as_figure(var.mistakes_figure(s)), config=CHART, key=key)
cols = st.columns(3)
for col, m in zip(cols, ("last", "averaged"), strict=False):
    col.markdown(
        t("**{method} of each of {runs} runs** (2-D)").format(method=t(NAMES[m]), runs=n_runs)
    )
    col.plotly_chart(as_figure(var.hyperplanes_figure(s2, m)), config=CHART, key=f"var_lines_{m}")
cols[2].markdown(t("**Test error of each run**"))
cols[2].plotly_chart(as_figure(var.spread_figure(panels)), config=CHART, key="var_spread")
for (title, s), cap in zip(panels, (e2, ed), strict=True):
    e = s.runs.test_error
    spread = t("{method} {mean} ± {std} (from {low} to {high})")
    st.markdown(
        t(
            "**{title}**: {converged} of {runs} runs converged within {epochs}; test error over "
            "the runs {errors}."
        ).format(
            title=title,
            converged=int(s.runs.converged.sum()),
            runs=n_runs,
            epochs=count(cap, "epoch"),
            errors=", ".join(
                spread.format(
                    method=t(NAMES[m]),
                    mean=PCT(e[m].mean()),
                    std=PCT(e[m].std()),
                    low=PCT(e[m].min()),
                    high=PCT(e[m].max()),
                )
                for m in METHODS
            ),
        )
    )

st.header(t("4. The price of a vote"))
prose(text, "cost")
vectors = [
    (t("2-D, section 1"), int(exp.errors.n_vectors[-1]), exp.X_train.shape[1] + 1),
    (
        t("{pair}, section 2").format(pair=label_d),
        int(dg.errors.n_vectors[-1]),
        dg.X_train.shape[1] + 1,
    ),
    (
        t("{pair}, largest of section 3").format(pair=label_d),
        int(sd.runs.n_vectors.max()),
        dg.X_train.shape[1] + 1,
    ),
]
st.dataframe(cost_rows(vectors), hide_index=True)
st.markdown(
    " ".join(
        tn(
            "**{title}**: voted keeps **{vectors}** of {d} numbers, {ops} multiply-add per "
            "prediction; averaged keeps **1**, {d} multiply-adds.",
            "**{title}**: voted keeps **{vectors}** of {d} numbers, {ops} multiply-adds per "
            "prediction; averaged keeps **1**, {d} multiply-adds.",
            k * d,
        ).format(title=title, vectors=count(k, "vector"), d=d, ops=number(k * d))
        for title, k, d in vectors[:2]
    )
)

st.header(t("Which would you deploy, and why?"))
prose(text, "deploy")
evidence = {
    "2-D, after the last epoch": final,
    f"{label_d}, after the last epoch": final_dg,
    "2-D, mean over runs": {m: float(s2.runs.test_error[m].mean()) for m in METHODS},
    f"{label_d}, mean over runs": {m: float(sd.runs.test_error[m].mean()) for m in METHODS},
}
st.markdown(verdict(evidence, max(v for _, v, _ in vectors), sw))
