"""One registry per choice: every choice setting of ``ui.app.state`` accepts exactly the keys of
the registry the page's widget offers, and an entry added to a registry is accepted from a URL
without touching the settings table."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import perceptron_core
from perceptron_core import (
    DATASETS,
    DIGIT_PAIRS,
    EXPERT_BEHAVIOURS,
    FEATURE_MAPS,
    RULES,
    SPAM_VOCABULARIES,
)
from ui.app import state
from ui.app.state import (
    MAR_MODES,
    ORDERS,
    SCALES,
    SETTINGS,
    SGD_DATA,
    SPAM_RULES,
    VAR_DATA,
    W0_MODES,
    XOR_DATA,
    Choice,
)
from ui.server import fair, guard
from ui.spam import figures as spam
from ui.variants import figures as variants

# each choice setting, and the registry that lists its options (the widget's options too)
REGISTRIES = {
    "data_name": DATASETS,
    "lec_w0": W0_MODES,
    "lec_order": ORDERS,
    "lec_rule": RULES,
    "lec_scale": SCALES,
    "xor_data": XOR_DATA,
    "xor_map": FEATURE_MAPS,
    "mar_mode": MAR_MODES,
    "var_data": VAR_DATA,
    "var_pair": DIGIT_PAIRS,
    "exp_behaviour": EXPERT_BEHAVIOURS,
    "spam_vocab": SPAM_VOCABULARIES,
    "spam_rule": SPAM_RULES,
    "sgd_data": SGD_DATA,
    "sgd_order": ORDERS,
}
DICTS = {k: r for k, r in REGISTRIES.items() if isinstance(r, dict)}
APP = str(Path(__file__).resolve().parents[3] / "app.py")


def refused(key: str, text: str) -> bool:
    try:
        SETTINGS[key].parse(text)
    except ValueError:
        return True
    return False


def test_every_choice_setting_has_its_registry_here():
    choices = {k for k, s in SETTINGS.items() if isinstance(s.parse, Choice)}
    assert choices == set(REGISTRIES)
    # and no setting with a string default escapes: each is a choice, a typed vector or
    # the language (ui.words.CHOICES; its default "" reads the browser's)
    strings = {k for k, s in SETTINGS.items() if isinstance(s.default, str)}
    assert strings - choices == {"lec_w0_typed", "lang"}


@pytest.mark.parametrize("key", sorted(REGISTRIES))
def test_the_url_parser_accepts_exactly_the_registrys_keys(key):
    registry = REGISTRIES[key]
    setting = SETTINGS[key]
    assert setting.parse.options is registry  # the registry itself, not a copy of it
    assert setting.default in registry
    for option in registry:
        assert setting.parse(option) == option
    for other in {o for r in REGISTRIES.values() for o in r} - set(registry):
        assert refused(key, other), other
    for wrong in ("", " ", "none", "\0", f"{next(iter(registry))} ", str(list(registry))):
        assert refused(key, wrong), wrong


def test_the_message_lists_the_registrys_options_in_order():
    with pytest.raises(ValueError, match="must be one of 8v9, 1v8, "):
        SETTINGS["var_pair"].parse("0v1")
    with pytest.raises(ValueError) as exc:
        SETTINGS["xor_map"].parse("cubic")
    assert str(exc.value) == "must be one of " + ", ".join(FEATURE_MAPS)


def test_the_lesson_names_are_the_engines_registries():
    assert variants.PAIRS is DIGIT_PAIRS is perceptron_core.DIGIT_PAIRS
    assert spam.VOCABULARIES is SPAM_VOCABULARIES is perceptron_core.SPAM_VOCABULARIES
    assert set(SPAM_RULES) <= set(RULES)  # the spam page compares two of the engine's rules


@pytest.mark.parametrize("key", sorted(DICTS))
def test_an_entry_added_to_a_registry_is_accepted_from_the_url(key, monkeypatch):
    registry = DICTS[key]
    assert refused(key, "added_at_test_time")
    monkeypatch.setitem(registry, "added_at_test_time", next(iter(registry.values())))
    assert SETTINGS[key].parse("added_at_test_time") == "added_at_test_time"
    session: dict = {}
    state.init(session, {key: "added_at_test_time"})
    assert session[key] == "added_at_test_time"
    assert not any(key in n for n in session[state.NOTICES])


def test_a_new_digit_pair_opens_from_its_url_and_shows_in_the_widget(monkeypatch):
    # as tests/app/conftest.py: a page's error reaches at.exception, no fair-share wait
    monkeypatch.setattr(guard, "STRICT", True)
    monkeypatch.setattr(fair, "ENABLED", False)
    monkeypatch.setitem(DIGIT_PAIRS, "4v7", (4, 7))
    at = AppTest.from_file(APP, default_timeout=60)
    query = {"var_pair": "4v7", "var_noise": "0", "var_epochs": "2", "var_runs": "10"}
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page("pages/variants.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not any("var_pair" in w.value for w in at.warning)
    assert at.session_state["var_pair"] == "4v7"
    widget = next(w for w in at.button_group if w.label == "digits, +1 vs −1")
    assert "4 vs 7" in widget.options and widget.value == "4v7"
    assert "4 vs 7" in " ".join(m.value for m in at.markdown)
