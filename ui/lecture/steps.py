"""Pure helpers of the lecture page: its run settings, the mistake log, presenter mode.

What the page shows at each step (the status line, the maths, the chart) is
``figures.lecture_scene``; the browser moves through it (``player.js``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from perceptron_core import RULES
from ui.app.state import MAX_STEPS, Session
from ui.compute.model import SCALE_NAMES, Run, RunSettings
from ui.look.numbers import number
from ui.words import N_, t

# the start w0 and the order, as the settings' widgets name them
W0_NAMES = {"zero": N_("zero"), "random": N_("random"), "typed": N_("typed")}
ORDER_NAMES = {"given": N_("given order"), "shuffle": N_("reshuffle each epoch (seed)")}
LOG_ROWS = 1_000  # mistakes shown in the page's table; the CSV download holds them all
# the log's column names the page shows translated (the CSV's stay as they are: data)
LOG_HEADERS = {
    "step t": N_("step t"),
    "epoch": N_("epoch"),
    "point": N_("point"),
    "w before": N_("w before"),
    "w after": N_("w after"),
}


def _join_3g(A: np.ndarray) -> list[str]:
    """Each row of A written as its entries to 3 significant digits: "0.5, -1, 1".

    One ``str.format`` per row through ``map`` over the columns: no Python loop
    body, about 1 µs a row (200,000 rows of 3 in 0.2 s).
    """
    template = ", ".join(["{:.3g}"] * A.shape[1])
    return list(map(template.format, *A.T.tolist()))


def _log_columns(run: Run, lo: int, hi: int) -> dict[str, np.ndarray]:
    """The log's columns for mistakes k = lo+1..hi, by numpy column operations."""
    trace = run.trace
    ts, idx = trace.mistake_steps[lo:hi, 0], trace.mistake_steps[lo:hi, 1]
    W = np.asarray(trace.weights[lo : hi + 1], dtype=np.float64)  # w before k = lo+1 .. after hi
    w_text = np.array(_join_3g(W), dtype=object)  # each w written once: before k+1 = after k
    x_text = np.array(_join_3g(run.X), dtype=object)  # n <= 500 points, written once
    ks = np.arange(lo + 1, hi + 1)
    w_after = W[1:]
    return {
        "k": ks,
        "step t": ts + 1,  # the mistake's example is the (t)-th shown, counted from 1
        "epoch": ts // trace.n_examples + 1,  # figures.epoch_and_example
        "point": idx + 1,  # points counted from 1, as the handouts do
        "x": x_text[idx],
        "y": run.y[idx].astype(int),
        "w before": w_text[:-1],
        "w after": w_text[1:],
        "w·w*": (
            np.full(ks.size, None, dtype=object)
            if run.curves is None
            else run.curves.w_dot_wstar[lo + 1 : hi + 1].astype(float)
        ),
        "‖w‖²": (w_after * w_after).sum(axis=1),  # summed in order, as w @ w does
    }


def mistake_log(run: Run, upto_k: int, *, first_k: int = 1) -> pd.DataFrame:
    """One row per mistake k = first_k..upto_k: t, i, x, y, w before and after, w·w*, ||w||^2.

    Built column by column (no loop over the mistakes); ``first_k`` keeps a long
    log's table to its last rows (``log_window``).
    """
    return pd.DataFrame(_log_columns(run, max(first_k, 1) - 1, upto_k))


def shown_log(run: Run, upto_k: int, *, first_k: int = 1) -> pd.DataFrame:
    """``mistake_log`` as the page shows it: its column names in this run's language."""
    return mistake_log(run, upto_k, first_k=first_k).rename(
        columns=lambda c: t(LOG_HEADERS[c]) if c in LOG_HEADERS else c
    )


def log_window(upto_k: int, rows: int = LOG_ROWS) -> int:
    """The first mistake of the table: the last ``rows`` of the ``upto_k`` made."""
    return max(1, upto_k - rows + 1)


def mistake_log_csv(run: Run, upto_k: int) -> bytes:
    """The whole log up to mistake ``upto_k`` as CSV (the page builds it on click only).

    The same text as ``mistake_log(run, upto_k).to_csv(index=False)`` in a third of
    the time (about 0.3 s for 185,000 mistakes): one ``str.format`` per row. The
    vectors are always quoted (they hold commas); an empty w·w* is an empty field.
    """
    cols = _log_columns(run, 0, upto_k)
    values = {name: v.tolist() for name, v in cols.items()}
    if run.curves is None:  # no w*: to_csv writes None as an empty field
        values["w·w*"] = [""] * upto_k
    line = '{},{},{},{},"{}",{},"{}","{}",{},{}\n'.format
    header = ",".join(cols) + "\n"
    return (header + "".join(map(line, *values.values()))).encode("utf-8")


def start_weights(session: Session, d: int) -> tuple[tuple[float, ...] | None, str | None]:
    """w0 from the settings: None for zero, a seeded normal draw, or the typed numbers.

    Returns (w0, a message if the typed text could not be used).
    """
    mode = session["lec_w0"]
    if mode == "random":
        rng = np.random.default_rng(int(session["data_seed"]))
        return tuple(float(v) for v in rng.standard_normal(d)), None
    if mode != "typed":
        return None, None
    try:
        values = [float(v) for v in str(session["lec_w0_typed"]).split(",")]
    except ValueError:
        return None, t("w0 must be numbers separated by commas; starting from w0 = 0.")
    if not all(np.isfinite(values)) or any(abs(v) > 1e6 for v in values):
        return None, t("w0 must be finite numbers of at most 1e6; starting from w0 = 0.")
    if len(values) == d - 1:
        values.append(0.0)  # no bias typed: start it at 0
    if len(values) != d:
        return None, t("w0 needs {d} numbers here; starting from w0 = 0.").format(d=d)
    return tuple(values), None


def run_settings(session: Session, X: np.ndarray) -> tuple[RunSettings, list[tuple[str, str]]]:
    """The lecture's run settings (``lec_*``) for dataset X, with what to tell the user.

    Returns (settings, notes): each note is ("warning" or "info", text): a typed w0
    that could not be used, or max epochs cut so a run is at most MAX_STEPS steps.
    """
    notes: list[tuple[str, str]] = []
    w0, w0_problem = start_weights(session, X.shape[1] + session["lec_bias"])
    if w0_problem:
        notes.append(("warning", w0_problem))
    n = X.shape[0]
    max_epochs = int(session["lec_max_epochs"])
    if max_epochs * n > MAX_STEPS:  # no input pins a CPU: at most MAX_STEPS steps a run
        max_epochs = max(1, MAX_STEPS // n)
        notes.append(
            (
                "info",
                t(
                    "{epochs} epochs × {n} points is over {limit} steps: running {running} epochs."
                ).format(
                    epochs=session["lec_max_epochs"],
                    n=n,
                    limit=number(MAX_STEPS),
                    running=max_epochs,
                ),
            )
        )
    settings = RunSettings(
        bias=session["lec_bias"],
        eta=float(session["lec_eta"]),
        w0=w0,
        seed=int(session["data_seed"]) if session["lec_order"] == "shuffle" else None,
        rule=session["lec_rule"],
        scale=session["lec_scale"],
        max_epochs=max_epochs,
    )
    return settings, notes


def settings_summary(session: Session) -> str:
    """The run's settings in one line (presenter mode shows this instead of the widgets)."""
    return t("Run: {settings}").format(settings=settings_text(session))


def settings_text(session: Session) -> str:
    """The run's settings, each said once, between middle dots (the rule's text is the
    engine's, in English)."""
    rule = RULES[session["lec_rule"]]
    w0 = {"zero": "w₀ = 0", "random": t("random w₀ (seed)"), "typed": t("w₀ as typed")}.get(
        session["lec_w0"], "w₀"
    )
    parts = [
        t("bias on") if session["lec_bias"] else t("no bias"),
        t(rule.text),
        f"η = {number(float(session['lec_eta']))}",
        w0,
        t("reshuffled each epoch") if session["lec_order"] == "shuffle" else t("given order"),
    ]
    if session["lec_scale"] != "given":
        parts.append(t(SCALE_NAMES[session["lec_scale"]]))
    return " · ".join(parts)
