"""Every session key is declared: a URL setting (with its widget's key), a widget with an
explicit page-prefixed key, or one of ``ui.app.state.SESSION_KEYS``; nothing else."""

from apptest_helpers import lecture_scene, lecture_step, open_app
from extremes import PAGES
from streamlit.testing.v1 import AppTest

from ui.app.state import SESSION_KEYS, SETTINGS, widget_key

PREFIXES = (
    "app_",
    "room_",
    "data_",
    "lec_",
    "xor_",
    "mar_",
    "sgd_",
    "var_",
    "prf_",
    "exp_",
    "spam_",
    "home_",
)


def widget_keys(at: AppTest) -> set[str]:
    """Keys of every widget on the page now on show."""
    keys: set[str] = set()
    stack = [at._tree]
    while stack:
        node = stack.pop()
        key = getattr(node, "key", None)
        if isinstance(key, str):
            keys.add(key)
        children = getattr(node, "children", {})
        stack.extend(children.values() if isinstance(children, dict) else children)
    return keys


def test_every_session_key_is_a_setting_a_widget_or_declared():
    at = open_app()
    drawn: set[str] = set()
    for page in PAGES:  # every page, and a few clicks that create state as they go
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, page
        drawn |= widget_keys(at)
        if page == "lecture":
            lecture_step(at, 1)
            lecture_step(at, lecture_scene(at)["T"])
            drawn |= widget_keys(at)
    declared = set(SETTINGS) | {widget_key(k) for k in SETTINGS} | set(SESSION_KEYS)
    stray = sorted(k for k in at.session_state if k not in declared | drawn)
    assert stray == []
    unprefixed = sorted(k for k in drawn - declared if not k.startswith(PREFIXES))
    assert unprefixed == []
    assert {"lec_window", "mar_history", "_state_ready"} <= set(at.session_state)
