"""The app starts and its home page shows the worked example from the engine, a link
to every other page of the shell's page table, and a button that opens each worked example
on Step by step."""

import re

import numpy as np
import pytest
from apptest_helpers import assert_plain_numbers, open_app
from extremes import extreme_query

from perceptron_core import RULES
from ui.app.state import SETTINGS, to_query
from ui.home.examples import EXAMPLES, settings
from ui.look.text import asset
from ui.shell import GLOSSARY, PAGES

LECTURE_TITLE = "The perceptron, step by step"
FOUR_POINTS = next(e for e in EXAMPLES if e.key == "four_points")


def test_home_page_runs_and_shows_the_worked_example():
    at = open_app()
    assert not at.exception
    assert at.title[0].value == "Perceptron Lab"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["mistakes M"] == "2"
    assert metrics["final w"] == "(2, 1)"
    assert metrics["bound (R/γ)²"] == "5"  # not "5.00": ui.look.numbers


def test_home_page_links_every_other_page_with_its_sentence():
    at = open_app()
    links = [(link.proto.page, link.label, link.icon) for link in at.main.get("page_link")]
    others = [p for p in PAGES if p.url_path]
    assert links == [(p.url_path, p.blurb, p.icon) for p in others]
    assert all(p.blurb for p in others)  # every page but home says where it leads
    assert len(links) == 9


def test_the_sidebar_says_when_a_page_does_not_use_its_dataset():
    """A page with data of its own folds the dataset's controls under the dataset's name;
    unfolded, they say it is for the other pages."""
    own = "This page has data of its own"
    for page, uses_it in (
        ("pages/spam.py", False),
        ("pages/experts.py", False),
        ("pages/room.py", False),
        ("pages/lecture.py", True),
    ):
        at = open_app(page)
        said = [c.value.replace("\\", "") for c in at.sidebar.caption if own in c.value]
        folded = [e for e in at.sidebar.expander if e.label == "Change it here"]
        drawn = [s for s in at.sidebar.selectbox if s.key == "data_name_w"]
        if uses_it:
            assert not said and not folded and drawn, page
            continue
        assert len(said) == 1 and "Separable, chosen margin (n = 40" in said[0], page
        assert len(folded) == 1 and not drawn, page
        at.session_state["data_elsewhere"] = True  # unfolded
        at.run()
        assert at.sidebar.selectbox(key="data_name_w").value == "separable", page
        at.sidebar.number_input(key="data_seed_w").set_value(5).run()
        assert at.session_state["data_elsewhere"], page  # still unfolded after a change
        assert any("seed 5" in c.value for c in at.sidebar.caption if own in c.value), page


def test_every_page_ends_with_the_glossary_of_symbols():
    """One glossary (assets/glossary.md) under every page, with each handout's
    notation for the app's symbols and the four mistake rules."""
    glossary = asset("glossary")
    for symbol in ("w\\*", "w₀", "w_k", "γ", "R", "M", "η", "c", "(R/γ)²"):
        assert f"| **{symbol}** |" in glossary, symbol
    for rule in RULES.values():  # each of the engine's rules has its row
        assert re.split(r"[:;]|, so", rule.text)[0] in glossary, rule.key
    for p in PAGES:
        at = open_app(p.path if p.url_path else None)
        assert not at.exception, p.path
        shown = [e for e in at.main.expander if e.label == GLOSSARY]
        assert len(shown) == 1, p.path
        assert not shown[0].markdown  # closed: nothing built or sent
        at.session_state["app_glossary"] = True  # the student opens it
        at.run()
        shown = [e for e in at.main.expander if e.label == GLOSSARY]
        assert [m.value.strip() for m in shown[0].markdown] == [glossary.strip()], p.path


def _lands_on_the_example(at, example) -> None:
    """At step 0 of the example's run on the lecture page, its settings in the URL."""
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == LECTURE_TITLE
    wanted = settings(example)
    assert {key: at.session_state[key] for key in wanted} == wanted
    assert at.session_state["lec_t"] == 0
    assert "data_custom" not in at.session_state
    # the URL says the same (a fresh session: every other setting is at its default)
    defaults = {key: setting.default for key, setting in SETTINGS.items()}
    assert dict(at.query_params) == to_query(defaults | wanted)


def test_every_worked_example_has_its_button():
    at = open_app()
    opens = [b for b in at.main.button if b.key.startswith("home_open_")]
    assert [b.key for b in opens] == [e.button_key for e in EXAMPLES]
    assert [b.label for b in opens] == ["Open it on Step by step"] * len(EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.key)
def test_one_click_opens_the_example_on_step_by_step(example):
    at = open_app()
    at.button(key=example.button_key).click().run()
    _lands_on_the_example(at, example)


def test_the_click_replaces_what_the_student_had_changed():
    """Another dataset, a seed, bias on, a w0, a rule, a shuffled order and step 5 on the
    lecture page (a shared link: the lecture's Step buttons are moving into the browser),
    then home: one click gives seed 001's run at step 0."""
    at = open_app(
        "pages/lecture.py",
        query={
            "data_name": "xor",
            "data_seed": "7",
            "lec_w0": "random",
            "lec_rule": "predict_ge",
            "lec_order": "shuffle",
            "lec_eta": "0.5",
            "lec_max_epochs": "9",
            "lec_t": "5",
        },
    )
    assert not at.exception
    assert at.session_state["lec_t"] == 5 and at.session_state["data_name"] == "xor"
    assert at.toggle(key="lec_bias_w").value is True
    at.switch_page("pages/home.py").run()
    at.button(key=FOUR_POINTS.button_key).click().run()
    _lands_on_the_example(at, FOUR_POINTS)
    assert dict(at.query_params) == {"data_name": "four_points", "data_n": "4", "lec_bias": "0"}
    assert at.toggle(key="lec_bias_w").value is False  # the widget shows the setting


def test_the_click_restarts_the_example_when_the_lecture_was_already_on_it():
    query = {"data_name": "four_points", "data_n": "4", "lec_bias": "0", "lec_t": "3"}
    at = open_app("pages/lecture.py", query=query)
    assert not at.exception
    assert at.session_state["lec_t"] == 3  # the same run as the example's, at step 3
    at.switch_page("pages/home.py").run()
    at.button(key=FOUR_POINTS.button_key).click().run()
    _lands_on_the_example(at, FOUR_POINTS)


def test_the_click_replaces_an_uploaded_dataset():
    at = open_app()
    X = np.array([[0.0, 1.0], [1.0, 0.0], [-1.0, 0.5]])
    at.session_state["data_custom"] = (X, np.array([1, -1, 1]), "mine.csv")
    at.session_state["data_elsewhere"] = True  # the dataset's controls unfolded
    at.run()
    assert any("Using your data: mine" in i.value for i in at.sidebar.info)
    at.button(key=FOUR_POINTS.button_key).click().run()
    _lands_on_the_example(at, FOUR_POINTS)


# --- plain numbers: what the page shows, never "e+", "−0.00" or a hyphen minus


@pytest.mark.parametrize("query", [{}, extreme_query(True)], ids=["default", "extremes"])
def test_the_home_page_writes_plain_numbers(query):
    at = open_app(query=query)
    assert not at.exception
    assert_plain_numbers(at)
    assert {m.label: m.value for m in at.main.metric} == {  # not 1.000 and 5.00
        "mistakes M": "2",
        "final w": "(2, 1)",
        "margin γ": "1",
        "bound (R/γ)²": "5",
    }


def test_prepare_a_class_says_whether_phones_can_join_and_checks_again(monkeypatch):
    """Before the lecture the home page says where phones join, or why they cannot: here a
    laptop on a network whose address answers, then one whose app listens on loopback."""
    from ui.classmode import address

    monkeypatch.setattr(address, "_page_url", lambda: "http://localhost:8501/")
    monkeypatch.setattr(address, "_network_address", lambda: "192.168.1.20")
    monkeypatch.setattr(address, "_answers", lambda host, port: True)
    address.forget()
    at = open_app()
    assert not at.success and not at.warning  # closed: no check runs for a student
    at.session_state["home_prepare"] = True  # the lecturer opens it
    at.run()
    said = " ".join(s.value for s in at.success)
    assert "Phones on this network can join: the app answers at `http://192.168.1.20:8501`" in said
    monkeypatch.setattr(address, "_answers", lambda host, port: False)
    at.run()  # remembered for a while: the same answer until the lecturer checks again
    assert at.success and not at.warning
    at.button(key="home_check_again").click().run()
    warned = " ".join(w.value for w in at.warning)
    assert "Phones cannot join: the app answers on this laptop only" in warned
    assert "--server.address 0.0.0.0" in warned
    address.forget()
