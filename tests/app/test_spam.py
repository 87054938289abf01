"""The spam page through AppTest: the weights of free, money and BIAS come from the engine
step by step, a typed e-mail gets its counts, w·x and verdict, and hostile text is
shown as text."""

import re

import numpy as np
import pytest
from apptest_helpers import assert_plain_numbers, markdown, metrics, open_app, open_page
from extremes import extreme_query
from streamlit.testing.v1 import AppTest

from perceptron_core import decision, spam_features, train
from perceptron_core.datasets import SPAM_MORE_WORDS
from ui.look.numbers import number
from ui.look.text import visible


def spam_page(query: dict[str, str] | None = None) -> AppTest:
    return open_page("pages/spam.py", query)


def trained(rule: str = "nonpositive", words=("free", "money")):
    X, y = spam_features(words)
    return X, y, train(X, y, bias=True, rule=rule, max_epochs=50)


def test_it_opens_on_the_trained_filter_which_gets_every_e_mail_right():
    at = spam_page()
    _, _, trace = trained()
    shown = metrics(at)
    w = trace.w
    assert (shown["w[free]"], shown["w[money]"], shown["w[BIAS]"]) == tuple(map(number, w))
    assert shown["mistakes so far"] == str(trace.n_mistakes)
    assert at.slider(key="spam_t_w").value == trace.n_steps
    table = at.dataframe[0].value
    assert (table["right?"] == "✓").all() and len(table) == 12


def test_stepping_from_w_zero_shows_each_update():
    at = spam_page()
    at.button(key="spam_start").click().run()
    assert metrics(at)["w[free]"] == "0" and "Before training" in markdown(at)
    at.button(key="spam_step").click().run()
    X, y, _ = trained()
    # step 1 under "mistake iff y w.x <= 0": w = 0 errs, so w = y1 x1 (with BIAS 1)
    first = y[0] * np.append(X[0], 1.0)
    assert [metrics(at)[f"w[{k}]"] for k in ("free", "money", "BIAS")] == [number(v) for v in first]
    assert "**A mistake:**" in markdown(at)
    assert at.session_state["spam_t"] == 1


def test_the_rule_of_seed_003s_slide_makes_its_own_run():
    at = spam_page({"spam_rule": "predict_gt"})
    _, _, trace = trained("predict_gt")
    assert metrics(at)["mistakes so far"] == str(trace.n_mistakes)
    assert metrics(at)["w[BIAS]"] == number(trace.w[-1])


def test_more_words_are_columns_of_the_table_and_features_of_the_typed_e_mail():
    at = spam_page({"spam_vocab": "more"})
    table = at.dataframe[0].value
    assert all(word in table.columns for word in SPAM_MORE_WORDS)
    at.text_area(key="spam_email").input("Win a prize: cash now").run()
    features = at.dataframe[1].value
    counts = dict(zip(features["feature"], features["x"], strict=True))
    assert counts["win"] == counts["prize"] == counts["cash"] == counts["now"] == "1"
    assert counts["free"] == "0" and counts["BIAS"] == "1"


@pytest.mark.parametrize(
    ("email", "counts"),
    [("free money, FREE!", (2, 1)), ("see you at the meeting", (0, 0)), ("", (0, 0))],
)
def test_a_typed_e_mail_gets_the_verdict_of_its_activation(email, counts):
    at = spam_page()
    at.text_area(key="spam_email").input(email).run()
    *_, trace = trained()
    features = at.dataframe[1].value
    assert features["x"].tolist() == [str(c) for c in (*counts, 1)]
    a = float(decision(trace.w, np.array([counts], dtype=float), bias=True)[0])
    if a > 0:
        assert [e.value for e in at.error] == [
            f"w·x = {number(a)} > 0: **spam** (UMass CMPSCI 689: “wᵀx > 0 → SPAM!!”)"
        ]
        assert not at.success
    else:
        assert [s.value for s in at.success] == [f"w·x = {number(a)} ≤ 0: **not spam**"]
        assert not at.error


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script> free money",
        "<img src=x onerror=alert(1)> free",
        "[x](javascript:alert(1))",
    ],
)
def test_typed_html_is_shown_as_text(hostile):
    at = spam_page()
    at.text_area(key="spam_email").input(hostile).run()
    assert not at.exception
    prefix = "**What the filter reads** (the words it counts in bold): "
    echo = next(m.value for m in at.markdown if m.value.startswith(prefix))[len(prefix) :]
    # every markdown/HTML character the user typed is escaped, so it shows as typed
    assert not re.search(r"(?<!\\)[<>\[\]()]", echo)
    assert visible(echo).replace("**", "") == hostile  # what the student reads
    assert not any(re.search(r"(?<!\\)<(script|img)", m.value) for m in at.markdown)


def test_a_bad_url_value_gives_a_notice():
    at = open_app(query={"spam_vocab": "<script>", "spam_t": "-3"})  # notices on arrival
    notices = " ".join(w.value for w in at.warning)
    assert "spam_vocab" in notices and "spam_t" in notices
    at.switch_page("pages/spam.py").run()
    assert not at.exception and at.session_state["spam_vocab"] == "two"
    assert at.slider(key="spam_t_w").value == at.slider(key="spam_t_w").max  # trained w


def test_the_step_slider_is_bound_to_the_setting_and_the_url():
    at = spam_page()
    T = at.slider(key="spam_t_w").max
    at.slider(key="spam_t_w").set_value(3).run()
    assert at.session_state["spam_t"] == 3 and at.query_params["spam_t"] == "3"
    at.slider(key="spam_t_w").set_value(T).run()  # the last step is stored as the default
    assert at.session_state["spam_t"] == 600 and "spam_t" not in at.query_params
    assert at.slider(key="spam_t_w").value == T
    at = spam_page({"spam_t": "3"})  # and a link opens at its step
    assert at.slider(key="spam_t_w").value == 3 and at.session_state["spam_t"] == 3


@pytest.mark.parametrize("forged", [-3, 10_000])
def test_a_forged_step_never_reaches_the_setting(forged):
    at = spam_page()
    at.slider(key="spam_t_w").set_value(forged).run()
    assert not at.exception
    assert 0 <= at.session_state["spam_t"] <= 600
    assert 0 <= at.slider(key="spam_t_w").value <= at.slider(key="spam_t_w").max


# --- plain numbers: what the page shows, never "e+", "−0.00" or a hyphen minus


def test_the_page_writes_plain_numbers_and_signed_changes():
    at = spam_page()
    shown = assert_plain_numbers(at)
    assert "−" in metrics(at)["w[BIAS]"]  # the trained BIAS weight is negative: "−5"
    assert "−" in shown  # and so is a w·x of the table
    *_, trace = trained()
    bias = [trace.w_before(t)[-1] - trace.w_before(t - 1)[-1] for t in range(1, 30)]
    for change in (1.0, -1.0):  # the first step that raised BIAS, the first that lowered it
        t = bias.index(change) + 1
        at.slider(key="spam_t_w").set_value(t).run()
        metric = next(m for m in at.main.metric if m.label == "w[BIAS]")
        assert metric.proto.delta == ("+1" if change > 0 else "−1")
        arrow = type(metric.proto).MetricDirection
        assert metric.proto.direction == (arrow.UP if change > 0 else arrow.DOWN)
        assert_plain_numbers(at)


@pytest.mark.parametrize("largest", [True, False], ids=["largest", "smallest"])
def test_the_page_writes_plain_numbers_at_the_extremes(largest):
    at = spam_page(extreme_query(largest))
    at.text_area(key="spam_email").input("free " * 99 + "money").run()
    shown = assert_plain_numbers(at)
    assert "99" in at.dataframe[1].value["x"].tolist()
    assert "w·x = " in shown
