"""The variants page through AppTest (numbers checked against the engine), and the pure
verdict that ends it."""

import re

import numpy as np
import pytest
from apptest_helpers import assert_plain_numbers, markdown, open_app, open_page
from extremes import extreme_query
from streamlit.testing.v1 import AppTest

from perceptron_core import make_dataset
from ui.variants import figures as var


def variants(query: dict[str, str] | None = None) -> AppTest:
    return open_page("pages/variants.py", query)


def shown_errors(text: str, after: str) -> dict[str, float]:
    """The test errors (%) printed after ``after``: 'last w 5.0%, averaged 1.7%, ...'."""
    part = text[text.index(after) :]
    return {
        m: float(re.search(rf"\*\*{var.NAMES[m]} ([\d.]+)%\*\*", part).group(1))
        for m in var.METHODS
    }


def test_the_2d_comparison_shows_the_engines_errors_and_flips_the_asked_fraction():
    at = variants({"var_n": "120", "var_noise": "0.2", "var_epochs": "12", "data_seed": "3"})
    text = markdown(at)
    X, y = make_dataset("separable", n=120, seed=3)
    exp, _ = var.experiment(X, y, noise=0.2, epochs=12, seed=3)
    assert f"After epoch 12 ({len(exp.y_train)} training points, {len(exp.flipped)} labels" in text
    assert len(exp.flipped) == round(0.2 * len(exp.y_train))
    shown = shown_errors(text, "After epoch 12")
    for m in var.METHODS:
        assert shown[m] == pytest.approx(100 * exp.errors.test[m][-1], abs=0.05)


def test_a_digit_pair_from_the_url_is_split_70_30_and_named():
    from sklearn.datasets import load_digits

    at = variants({"var_pair": "3v5", "var_noise": "0"})
    target = load_digits().target
    n = int(((target == 3) | (target == 5)).sum())
    text = markdown(at)
    m = re.search(r"(\d+) training images \(0 labels flipped\), (\d+) test images", text)
    assert m and int(m.group(1)) + int(m.group(2)) == n
    assert abs(int(m.group(2)) - 0.3 * n) <= 2
    assert "3 vs 5" in text and "w\\* (clean labels)" in text


def test_every_run_on_separable_data_converges_and_the_cost_is_counted():
    at = variants({"var_runs": "20", "var_w0": "0", "var_epochs": "50"})
    text = markdown(at)
    assert "**2-D**: 20 of 20 runs converged" in text
    k = re.search(
        r"\*\*2-D, section 1\*\*: voted keeps \*\*([\d,]+) vectors\*\* of 3 numbers", text
    )
    vectors = int(k.group(1).replace(",", ""))
    assert f"{vectors * 3:,} multiply-adds per prediction; averaged keeps **1**, 3" in text
    assert "Deploy the" in text


def test_non_separable_shared_data_run_without_converging():
    at = variants({"var_data": "shared", "data_name": "xor", "data_n": "60", "var_runs": "10"})
    text = markdown(at)
    assert "XOR" in text
    assert "**2-D**: 0 of 10 runs converged" in text
    status = next(m.value for m in at.markdown if m.value.startswith("After epoch"))
    assert "w\\*" not in status  # no separator, no reference


def test_bad_url_values_fall_back_with_a_notice():
    at = open_app(query={"var_pair": "0v1", "var_noise": "0.9"})  # notices show on arrival
    assert not at.exception
    notices = " ".join(w.value for w in at.warning)
    assert "var_pair" in notices and "var_noise" in notices
    at.switch_page("pages/variants.py").run()
    assert not at.exception
    assert "8 vs 9" in markdown(at) and "labels flipped" in markdown(at)
    assert at.session_state["var_noise"] == 0.1


# --- the verdict: argued from the numbers, not fixed in advance ----------------------


def evidence(last: float, averaged: float, voted: float) -> dict[str, dict[str, float]]:
    one = {"last": last, "averaged": averaged, "voted": voted}
    return {"a": one, "b": dict(one)}


STEADY = {"last": 0.2, "averaged": 0.01, "voted": 0.01}


@pytest.mark.parametrize(
    ("errors", "pick"),
    [
        ((0.10, 0.03, 0.03), "averaged"),
        ((0.10, 0.035, 0.03), "averaged"),  # within one point of the best: cheaper wins
        ((0.10, 0.08, 0.02), "voted"),
        ((0.01, 0.08, 0.09), "last w"),
    ],
)
def test_the_verdict_follows_the_numbers(errors, pick):
    text = var.verdict(evidence(*errors), 500, STEADY)
    assert f"**Deploy the {pick} perceptron**" in text
    assert f"last w {100 * errors[0]:.1f}%" in text


def test_the_verdict_says_when_averaging_did_not_steady_the_run():
    same = {"last": 0.02, "averaged": 0.02, "voted": 0.02}
    assert "add label noise" in var.verdict(evidence(0.03, 0.03, 0.03), 50, same)
    assert "It is also steadier" in var.verdict(evidence(0.03, 0.03, 0.03), 50, STEADY)


def test_swing_is_the_range_over_the_second_half_of_the_epochs():
    X, y = make_dataset("separable", n=100, seed=1)
    exp, _ = var.experiment(X, y, noise=0.1, epochs=10, seed=1)
    got = var.swing(exp.errors)
    for m in var.METHODS:
        assert got[m] == pytest.approx(np.ptp(exp.errors.test[m][5:]))


# --- plain numbers: what the page shows, never "e+", "−0.00" or a hyphen minus


def test_the_page_writes_plain_numbers():
    shown = assert_plain_numbers(variants())
    assert re.search(r"voted keeps \*\*\d{1,2},\d{3} vectors\*\*", shown)  # "1,245 vectors"


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_the_page_writes_plain_numbers_at_the_extremes(largest):
    # largest: 500 points, 30 % of the labels flipped, 100 epochs, 200 runs from ‖w0‖ = 5
    shown = assert_plain_numbers(variants(extreme_query(largest)))
    if largest:
        assert "1,000,000 examples over all runs" in shown  # the cap, in the caption
        assert re.search(r"\d,\d{3} mistakes\)", shown)  # section 1's count


# --- one of a thing: "1 label flipped", "within 1 epoch", never "1 labels"


def test_one_of_a_thing_is_written_in_the_singular():
    # 20 points: 14 for training, 5 % of them is 1 flipped label; 1 epoch caps section 3
    at = variants({"var_n": "20", "var_noise": "0.05", "var_epochs": "1", "var_runs": "10"})
    text = markdown(at)
    assert "(14 training points, 1 label flipped," in text
    assert "runs converged within 1 epoch;" in text
    nouns = "epochs|labels|mistakes|vectors|points|images|runs"
    one = re.findall(rf"(?<![\d.,])(?<!\+ )1 (?:{nouns})\b", text)  # not "K + 1 vectors"
    assert not one, one
