"""The lecture page's mistake log, built column by column, against the original row loop;
the end of a run and the status in words; the run's settings in one line.

The log counts the handouts' way: a mistake at the engine's (0-based) step t is
"step t" = t + 1, in "epoch" t // n + 1, on "point" i + 1.
"""

import io
import re

import numpy as np
import pandas as pd
import pytest

from perceptron_core import RULES, make_dataset
from ui.app.state import SETTINGS
from ui.compute.model import Run, RunSettings, record_run
from ui.lecture.figures import end_text, status
from ui.lecture.steps import (
    LOG_ROWS,
    log_window,
    mistake_log,
    mistake_log_csv,
    settings_summary,
)
from ui.look.numbers import number

EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf\u2b50\u2b55\u231a-\u23ff\ufe0f]")


def reference_log(run: Run, upto_k: int) -> pd.DataFrame:
    """The log as the page first built it: one Python dict per mistake, counted from 1."""
    trace = run.trace
    n = trace.n_examples
    rows = []
    for k in range(1, upto_k + 1):
        t, i = (int(v) for v in trace.mistake_steps[k - 1])
        w0, w1 = trace.weights[k - 1], trace.weights[k]
        rows.append(
            {
                "k": k,
                "step t": t + 1,  # the mistake's example is the (t + 1)-th shown
                "epoch": t // n + 1,
                "point": i + 1,
                "x": ", ".join(f"{v:.3g}" for v in run.X[i]),
                "y": int(run.y[i]),
                "w before": ", ".join(f"{v:.3g}" for v in w0),
                "w after": ", ".join(f"{v:.3g}" for v in w1),
                "w·w*": None if run.curves is None else float(run.curves.w_dot_wstar[k]),
                "‖w‖²": float(w1 @ w1),
            }
        )
    return pd.DataFrame(rows)


RUNS = [
    ("separable", {}, RunSettings()),  # w* exists: the w·w* column is filled
    ("xor", {}, RunSettings(max_epochs=20)),  # no w*: the column is empty
    ("noisy", {}, RunSettings(bias=False, eta=0.37, seed=4, max_epochs=10)),
    ("separable", {}, RunSettings(w0=(0.5, -2.0, 1.0), scale="unit", rule="predict_ge")),
]


@pytest.mark.parametrize(("name", "params", "settings"), RUNS)
def test_the_log_equals_the_row_by_row_reference(name, params, settings):
    X, y = make_dataset(name, n=60, seed=2, **params)
    run = record_run(X, y, settings)
    K = run.trace.n_mistakes
    assert K > 3
    for upto in (1, K // 2, K):
        log, ref = mistake_log(run, upto), reference_log(run, upto)
        pd.testing.assert_frame_equal(log, ref, check_dtype=False, rtol=1e-13)
        assert log.dtypes["k"].kind == ref.dtypes["k"].kind == "i"
        # what a student reads is the same text, cell by cell
        shown = ["k", "step t", "epoch", "point", "x", "y", "w before", "w after"]
        assert log[shown].astype(str).equals(ref[shown].astype(str))
        # The CSV: the same columns and the same text in every shown cell; its two float
        # columns as numbers within 1e-12. The app sums ‖w‖² as a vector product and the
        # reference as `w1 @ w1`: the last bit of such a sum depends on the CPU's vector
        # instructions (OpenBLAS picks its kernel per CPU), so no test compares it as text.
        csv = mistake_log_csv(run, upto)
        assert csv.splitlines()[0] == ref.to_csv(index=False).encode().splitlines()[0]
        text = {c: str for c in shown if c not in ("k", "step t", "epoch", "point", "y")}
        pd.testing.assert_frame_equal(
            pd.read_csv(io.BytesIO(csv), dtype=text),
            pd.read_csv(io.StringIO(ref.to_csv(index=False)), dtype=text),
            check_exact=False,
            rtol=1e-12,
        )


def test_the_table_keeps_the_last_rows_of_a_long_log():
    X, y = make_dataset("xor", n=200, seed=0)
    run = record_run(X, y, RunSettings(max_epochs=30))
    K = run.trace.n_mistakes
    assert K > LOG_ROWS
    first = log_window(K)
    assert first == K - LOG_ROWS + 1 and log_window(5) == 1
    tail = mistake_log(run, K, first_k=first)
    assert len(tail) == LOG_ROWS and tail["k"].iloc[-1] == K
    whole = mistake_log(run, K)
    pd.testing.assert_frame_equal(tail, whole.iloc[-LOG_ROWS:].reset_index(drop=True))
    assert mistake_log(run, 0).empty and np.array_equal(whole["k"], np.arange(1, K + 1))


def test_the_log_counts_from_one():
    X, y = make_dataset("separable", n=40, seed=0)
    run = record_run(X, y, RunSettings())
    n = run.trace.n_examples
    log = mistake_log(run, run.trace.n_mistakes)
    assert list(log.columns[:4]) == ["k", "step t", "epoch", "point"]
    t, i = run.trace.mistake_steps[:, 0], run.trace.mistake_steps[:, 1]
    np.testing.assert_array_equal(log["step t"], t + 1)
    np.testing.assert_array_equal(log["epoch"], t // n + 1)
    np.testing.assert_array_equal(log["point"], i + 1)
    assert log["point"].min() >= 1 and log["point"].max() <= n
    # a mistake on the n-th example shown is in epoch 1, not "epoch 2"
    assert all(e == 1 for s, e in zip(log["step t"], log["epoch"], strict=True) if s <= n)


@pytest.mark.parametrize("name", ["separable", "xor"])
def test_the_end_of_a_run_says_so_in_words_without_an_emoji(name):
    """An emoji such as "✅ converged" shows as an empty box in a browser without a colour
    emoji font (Debian's chromium, offline). The end of a run and the status are said in words."""
    X, y = make_dataset(name, n=20, seed=0)
    run = record_run(X, y, RunSettings(max_epochs=5))
    T = run.trace.n_steps
    end = end_text(run, T)
    assert end.startswith("end of the run: ")
    assert ("converged" in end) == run.trace.converged
    assert ("stopped after 5 epochs" in end) == (not run.trace.converged)
    for t in (0, 1, T - 1):
        assert end_text(run, t) == ""
    for t in (0, 1, T - 1, T):
        for text in [*status(run, t), end_text(run, t)]:
            assert not EMOJI.search(text), text
            assert ":material/" not in text  # plain text: the browser writes it
    assert status(run, T)[1] == f"step t = {T:,} of {T:,}"


def session(**changes) -> dict:
    return {key: s.default for key, s in SETTINGS.items()} | changes


@pytest.mark.parametrize(
    ("changes", "parts"),
    [
        ({}, ["bias on", "η = 1", "w₀ = 0", "given order"]),
        (
            {
                "lec_bias": False,
                "lec_eta": 0.25,
                "lec_w0": "random",
                "lec_order": "shuffle",
                "lec_rule": "predict_ge",
                "lec_scale": "unit",
            },
            ["no bias", "η = 0.25", "random w₀", "reshuffled each epoch", "each x ÷ ‖x‖"],
        ),
        ({"lec_eta": 1000.0, "lec_w0": "typed", "lec_rule": "negative"}, ["η = 1,000", "typed"]),
    ],
    ids=["defaults", "all-changed", "typed"],
)
def test_the_settings_summary_names_every_setting(changes, parts):
    ss = session(**changes)
    text = settings_summary(ss)
    assert text.startswith("Run: ")
    assert RULES[ss["lec_rule"]].text in text
    assert f"η = {number(float(ss['lec_eta']))}" in text
    for part in parts:
        assert part in text, (part, text)
    assert ("÷" in text) == (ss["lec_scale"] != "given")
    assert not EMOJI.search(text)
