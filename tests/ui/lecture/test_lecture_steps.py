"""The lecture page's mistake log, built column by column, against the original row loop."""

import numpy as np
import pandas as pd
import pytest

from perceptron_core import make_dataset
from ui.kit.model import Run, RunSettings, epoch_of, record_run
from ui.lecture.steps import LOG_ROWS, log_window, mistake_log, mistake_log_csv


def reference_log(run: Run, upto_k: int) -> pd.DataFrame:
    """The log as the page first built it: one Python dict per mistake."""
    trace = run.trace
    rows = []
    for k in range(1, upto_k + 1):
        t, i = (int(v) for v in trace.mistake_steps[k - 1])
        w0, w1 = trace.weights[k - 1], trace.weights[k]
        rows.append(
            {
                "k": k,
                "step t": t,
                "epoch": epoch_of(trace, t),
                "i": i,
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
    ("separable", {}, RunSettings(w0=(0.5, -2.0, 1.0), normalize=True, rule="predict_ge")),
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
        shown = ["k", "step t", "epoch", "i", "x", "y", "w before", "w after"]
        assert log[shown].astype(str).equals(ref[shown].astype(str))
        assert mistake_log_csv(run, upto) == ref.to_csv(index=False).encode()


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


def test_the_end_of_a_run_says_so_without_an_emoji_font():
    """Issue 17: "✅ converged" showed as an empty box in Debian's chromium (no colour
    emoji font, offline). The end of a run is said in words with a Material icon, which
    Streamlit ships."""
    import re

    from perceptron_core import make_dataset
    from ui.kit.model import RunSettings, record_run
    from ui.lecture.steps import status_line

    for name in ("separable", "xor"):
        X, y = make_dataset(name, n=20, seed=0)
        run = record_run(X, y, RunSettings(max_epochs=5))
        T = run.trace.n_steps
        end = status_line(run, T, name)
        assert "end of the run" in end and ":material/" in end
        assert ("converged" in end) == run.trace.converged
        assert not re.search("[\U0001f300-\U0001faff\u2600-\u27bf\u26d4]", end), end
        assert "end of the run" not in status_line(run, T - 1, name)
