"""What one mischievous student can send a page: a link with markup in its parameters,
forged widget values, and anything that makes a page's code fail."""

import pytest
from apptest_helpers import open_app
from hostile_corpus import CORPUS

from ui.app.state import MAX_NOTICES, NOTICES, accepts, bind
from ui.look.text import visible


def alerts(at) -> list[str]:
    return [w.value for w in at.warning] + [e.value for e in at.error] + [i.value for i in at.info]


@pytest.mark.parametrize("hostile", CORPUS)
def test_a_bad_url_value_is_quoted_escaped_and_never_markup(hostile):
    at = open_app(None, {"data_n": hostile, "lec_eta": hostile})  # notices show on arrival
    assert not at.exception
    notes = [w.value for w in at.warning if "URL parameter" in w.value]
    assert len(notes) == 2
    for note in notes:
        shown = visible(note)
        assert hostile.replace("\n", " ").replace("\r", " ").replace("\x00", " ")[:39] in shown
        assert "invalid literal" not in shown  # Python's error would repeat the raw text
        # the markdown source escapes every punctuation character of the value
        quoted = note[note.index("“") + 1 : note.index("”")]
        assert all(quoted[i - 1] == "\\" for i, ch in enumerate(quoted) if ch in "[]()<>!:$*`")


def test_a_link_with_a_thousand_bad_parameters_shows_a_handful_of_notices():
    query = {f"junk{i}": "[x](http://evil.invalid)" for i in range(990)}
    query |= {"data_n": "x", "data_seed": "x", "lec_eta": "x", "lec_t": "x", "exp_n": "x",
              "exp_k": "x", "var_n": "x", "sgd_batch": "x"}  # fmt: skip
    at = open_app(None, query)
    assert not at.exception
    notes = [w.value for w in at.warning if "URL parameter" in w.value]
    assert len(notes) <= MAX_NOTICES + 2
    assert any("987 more" in visible(n) for n in notes)  # 3 unknown names shown, the rest counted
    assert any("3 more URL parameters were refused" in visible(n) for n in notes)


@pytest.mark.parametrize(
    ("key", "forged"),
    [("lec_max_epochs", 10**9), ("lec_eta", float("nan")), ("lec_eta", -5.0), ("data_n", 10**7)],
)
def test_a_forged_widget_value_never_reaches_a_setting(key, forged):
    """Streamlit resets some out-of-range values itself; ``state.bind`` refuses the rest."""
    at = open_app("pages/lecture.py")
    if key == "data_n":
        widget = at.sidebar.slider(key="data_n_w")
    else:
        widget = at.number_input(key=f"{key}_w")
    widget.set_value(forged).run()
    assert not at.exception
    assert accepts(key, at.session_state[key]), at.session_state[key]
    assert at.session_state[key] != forged or forged != forged


def test_bind_refuses_what_the_setting_does_not_accept():
    session = {"lec_eta": 1.0}
    kwargs = bind(session, "lec_eta")
    for forged in (float("nan"), float("inf"), -5.0, 1e9, "1", [1], None):
        session[kwargs["key"]] = forged
        kwargs["on_change"]()
        assert session["lec_eta"] == 1.0 and session[kwargs["key"]] == 1.0
    session[kwargs["key"]] = 2.5
    kwargs["on_change"]()
    assert session["lec_eta"] == 2.5
    assert len(session[NOTICES]) == 7 and "learning rate" in session[NOTICES][0]


def test_an_error_in_a_page_shows_a_sentence_not_a_traceback(monkeypatch):
    import ui.compute.runs
    from ui.server import guard

    monkeypatch.setattr(guard, "STRICT", False)  # as in the app

    def broken(*args, **kwargs):
        raise RuntimeError("/secret/path/engine.py exploded")

    monkeypatch.setattr(ui.compute.runs, "lecture_run", broken)
    at = open_app("pages/lecture.py")
    assert not at.exception  # no traceback element
    said = " ".join(e.value for e in at.error)
    assert "Something went wrong on this part of the page" in said
    assert "/secret/path" not in said and "RuntimeError" not in said
    assert at.sidebar.selectbox(key="data_name_w").value == "separable"  # the app still works
