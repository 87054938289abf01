"""ui.server.internals.OneKeyState: Streamlit's widget functions read their own key of the session
state, not a dict of all of it, and get the same answer.

The first test reads Streamlit's source: it fails if an upgrade makes one of those
functions use ``filtered_state`` for anything but ``key in state`` and ``state[key]``.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.runtime.state.safe_session_state import SafeSessionState
from streamlit.testing.v1 import AppTest

from ui.app import state
from ui.server import fair, guard, internals

APP = str(Path(__file__).resolve().parents[3] / "app.py")


def test_the_widget_functions_ask_the_session_only_about_their_own_key():
    assert state.ONE_KEY_READS, "Streamlit's SafeSessionState has no filtered_state property"
    assert len(internals.widget_codes()) == len(internals.WIDGET_READS), "a widget function is gone"
    for module, cls, name in internals.WIDGET_READS:
        source = inspect.getsource(getattr(getattr(importlib.import_module(module), cls), name))
        names = re.findall(r"(\w+) = get_session_state\(\)\.filtered_state\b", source)
        assert len(names) == 1, (name, "reads filtered_state otherwise")
        var = names[0]
        allowed = (
            rf"\b{var} = get_session_state\(\)\.filtered_state\b|\bkey in {var}\b|\b{var}\[key\]"
        )
        for line in (line.split("#")[0] for line in source.splitlines()):  # code, not notes
            used = len(re.findall(rf"\b{var}\b", line))
            assert used == len(re.findall(allowed, line)), (name, line)


@pytest.fixture
def app_run(monkeypatch):
    """The lecture page run by AppTest, with a page's errors raised and no fair wait."""
    monkeypatch.setattr(guard, "STRICT", True)
    monkeypatch.setattr(fair, "ENABLED", False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/lecture.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, z) for x, z in zip(a, b, strict=True))
    return bool(a == b)


def test_one_key_at_a_time_agrees_with_the_whole_dict(app_run):
    safe = app_run.session_state._state
    assert isinstance(safe, SafeSessionState)
    whole = safe.filtered_state  # asked from here: Streamlit's own dict
    assert isinstance(whole, dict) and len(whole) > 50
    patched = type(safe).filtered_state.fget
    view = internals.OneKeyState(safe, patched.whole, patched.odd)
    ids = [k for k in safe._state._keys() if k.startswith("$$")]  # widget and element ids
    absent = ["nope", "lec_nope_w", "", "$$ID-nope", "$$STREAMLIT_INTERNAL_KEY_nope"]
    assert ids
    for key in [*whole, *ids, *absent]:
        assert (key in view) == (key in whole), key
        if key in whole:
            assert same(view[key], whole[key]), key
    assert sorted(view) == sorted(whole) and len(view) == len(whole)


def test_the_pages_widgets_read_one_key(monkeypatch, app_run):
    asked: list[str] = []
    read = internals.OneKeyState.__getitem__

    def recording(self, key):
        asked.append(key)
        return read(self, key)

    monkeypatch.setattr(internals.OneKeyState, "__getitem__", recording)
    app_run.run()  # a full rerun of the lecture page
    assert not app_run.exception
    # the sidebar's dataset selectbox, size slider and seed; the lecture's rule and eta
    for key in ("data_name_w", "data_n_w", "data_seed_w", "lec_rule_w", "lec_eta_w"):
        assert key in asked, (key, asked)
