"""The SGD page through AppTest: E_p and the path, the learning rates, mini-batches, and the
messages about data a line through the origin cannot separate."""

import re
import time

import numpy as np
import pytest
from apptest_helpers import assert_plain_numbers, open_app, plain_perceptron
from extremes import extreme_query
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset, minibatch_train, train
from ui.look.numbers import number, vector_text
from ui.sgd import figures as sgd


def sgd_page(query: dict[str, str] | None = None, session=None) -> AppTest:
    at = open_app("pages/sgd.py", query, session)
    assert not at.exception
    return at


def markdown(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def test_the_path_is_the_online_perceptron_without_bias():
    at = sgd_page()
    X, y = make_dataset("separable", n=40, seed=0)
    run = train(X, y, bias=False, max_epochs=30)
    assert f"**{run.n_mistakes} updates**, converged after {run.n_epochs} epochs" in markdown(at)
    assert not at.warning  # the default data are separable through the origin
    assert any("same mistakes at the same steps" in s.value for s in at.success)


def test_from_a_nonzero_start_the_page_reports_different_mistakes_per_eta():
    at = sgd_page({"data_name": "four_points", "sgd_w1": "-1", "sgd_w2": "1"})
    X, y = make_dataset("four_points")
    counts = [
        train(X, y, bias=False, w0=[-1, 1], eta=e, max_epochs=30).n_mistakes for e in (0.1, 1, 10)
    ]
    assert len(set(counts)) == 3
    assert f"**{counts[0]}, {counts[1]} and {counts[2]} mistakes**" in markdown(at)


def test_xor_gets_a_warning_that_no_line_separates_it():
    at = sgd_page({"data_name": "xor"})
    warning = " ".join(w.value for w in at.warning)
    assert "No line through the origin separates" in warning
    assert "even with a bias" in warning
    assert "not converged in 30 epochs" in markdown(at)


def test_data_that_only_need_centring_say_so_and_centred_they_converge():
    X, y = make_dataset("blobs", n=40, seed=0)  # off the origin: no line through it separates
    at = sgd_page({"data_name": "blobs"})
    assert any("pick **centred**" in w.value for w in at.warning)
    at = sgd_page({"data_name": "blobs", "sgd_data": "centred"})
    assert not at.warning
    run = train(X - X.mean(axis=0), y, bias=False, max_epochs=30)
    assert run.converged
    assert f"**{run.n_mistakes} update" in markdown(at)


def test_the_batch_table_counts_mistakes_and_updates_as_the_engine_does():
    at = sgd_page({"sgd_batch": "7", "sgd_epochs": "50"})
    X, y = make_dataset("separable", n=40, seed=0)
    table = at.dataframe[0].value
    assert list(table["run"]) == ["online, b = 1", "mini-batch, b = 7", "batch, b = n = 40"]
    for row, b in enumerate((1, 7, 40)):
        run = minibatch_train(X, y, batch_size=b, bias=False, max_epochs=50)
        assert table["mistakes"][row] == number(run.n_mistakes)  # as text: "1,204"
        assert table["updates"][row] == number(run.n_updates)
        assert table["epochs"][row] == number(run.n_epochs)
    count = table[["mistakes", "updates", "epochs"]].map(lambda v: int(v.replace(",", "")))
    assert count["updates"][0] == count["mistakes"][0]  # online: one update per mistake
    assert count["updates"][2] <= count["epochs"][2]  # batch: at most one per pass


def test_a_batch_larger_than_the_data_is_the_full_batch():
    at = sgd_page({"data_name": "four_points", "sgd_batch": "50"})
    assert list(at.dataframe[0].value["run"])[1] == "mini-batch, b = 4"


def test_reshuffled_order_uses_the_data_seed():
    at = sgd_page({"sgd_order": "shuffle", "sgd_batch": "3", "data_seed": "5"})
    X, y = make_dataset("separable", n=40, seed=5)
    run = minibatch_train(X, y, batch_size=3, bias=False, max_epochs=30, seed=5)
    assert at.dataframe[0].value["mistakes"][1] == number(run.n_mistakes)


def test_bad_url_values_fall_back_with_a_notice():
    at = open_app(query={"sgd_batch": "0", "sgd_data": "<b>x</b>", "sgd_w1": "nan"})
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    for key in ("sgd_batch", "sgd_data", "sgd_w1"):
        assert key in notices
    assert "<b>" not in notices.replace("`<b>x</b>`", "")


def test_a_large_upload_is_capped_and_stays_quick():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5000, 2))
    y = np.where(X @ [1.0, -2.0] > 0, 1.0, -1.0)
    start = time.perf_counter()
    at = sgd_page(session={"data_custom": (X, y, "big.csv")})
    assert time.perf_counter() - start < 15
    assert any("at most 20,000 examples per run" in c.value for c in at.caption)
    assert "4 epochs" in " ".join(c.value for c in at.caption)


def test_weakly_separable_data_get_the_cone_not_a_warning_that_denies_it():
    # (1,0)+ and (0,0)-: E_p = 0 for every w with w1 >= 0, but the point at the origin
    # has y w.x = 0 for every w, so no line through the origin separates strictly
    X, y = np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([1.0, -1.0])
    at = sgd_page(session={"data_custom": (X, y, "weak")})
    warning = " ".join(w.value for w in at.warning)
    assert "separates weak strictly" in warning
    assert "Eₚ = 0 on the cone drawn" in warning
    assert "no cone" not in warning and "Eₚ > 0 for every w ≠ 0" not in warning
    lo, hi = sgd.zero_cone(X, y)  # the landscape draws this cone, the warning names it
    assert (lo, hi) == pytest.approx((-np.pi / 2, np.pi / 2))
    assert not train(X, y, bias=False, max_epochs=30).converged  # never a clean pass


def test_strictly_non_separable_data_are_told_there_is_no_cone():
    at = sgd_page({"data_name": "xor"})
    warning = " ".join(w.value for w in at.warning)
    assert "Eₚ > 0 for every w ≠ 0, there is no cone Eₚ = 0" in warning
    assert "strictly" not in warning


# --- plain numbers: what the page shows, never "e+", "−0.00" or a hyphen minus


def test_the_page_writes_plain_numbers():
    at = sgd_page()
    X, y = make_dataset("separable", n=40, seed=0)
    run = train(X, y, bias=False, max_epochs=30)
    shown = assert_plain_numbers(at)
    assert f"final w = {vector_text(run.w)}" in shown  # "(−3.21, −3.09)", not "(-3.21, ...)"
    assert "−" in vector_text(run.w)


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_the_page_writes_plain_numbers_at_the_extremes(largest):
    at = sgd_page(extreme_query(largest))  # largest: XOR's 500 points for 100 epochs
    shown = assert_plain_numbers(at)
    if largest:
        assert re.search(r"\*\*\d{1,2},\d{3} updates\*\*", shown)  # "12,345 updates"


def test_big_coordinates_give_big_numbers_written_plainly():
    X, y = make_dataset("separable", n=40, seed=0)
    at = sgd_page(session={"data_custom": (20_000 * X, y, "far.csv")})
    shown = assert_plain_numbers(at)
    run = train(20_000 * X, y, bias=False, max_epochs=30)
    assert f"final w = {vector_text(run.w)}" in shown
    assert re.search(r"\(−?\d{2,3},\d{3}, −?\d{2,3},\d{3}\)", shown)  # w = (−64,200, ...)


def test_a_learning_rates_count_stopped_at_the_epoch_limit_says_so():
    """Separable through the origin (margin 0.05, offset 0, n = 40, seed 3) from w₀ = (5, −5):
    with η = 0.1 the perceptron needs more than the page's 30 epochs, counted here by a loop."""
    X, y = make_dataset("separable", n=40, seed=3, margin=0.05, offset=0.0)

    def plain(eta: float, epochs: int) -> tuple[int, bool]:
        M, done, _, _ = plain_perceptron(X, y, epochs, w0=(5.0, -5.0), eta=eta)
        return M, done

    counts = [plain(eta, 30) for eta in (0.1, 1.0, 10.0)]
    assert not counts[0][1] and plain(0.1, 1000)[1]  # cut at 30, done later
    at = sgd_page({"sgd_w1": "5", "sgd_w2": "-5"}, {"data_custom": (X, y, "separable")})
    said = ", ".join(("" if done else "≥ ") + number(M) for M, done in counts[:2])
    last = ("" if counts[2][1] else "≥ ") + number(counts[2][0])
    text = markdown(at)
    assert f"**{said} and {last} mistakes** for η = 0.1, 1 and 10 (≥: not converged" in text
    assert f"**η = 0.1**: {counts[0][0]} mistakes (not converged in 30 epochs)" in text
