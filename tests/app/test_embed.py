"""A page in a course page's frame: ``?embed=1`` (ui.shell.embed).

The link's ``embed=`` is read as the session arrives (Streamlit keeps the parameter out of
``st.query_params``: its own embed mode is ``?embed=true``), never written into the
settings' URL, so no link built from the settings carries it; a value that is not 1 or 0
(or true/false) is ignored with the notice every bad parameter gets. In an embed the page
runs as usual with its widgets, under the link to the full app, and no class is taken from
the link.
"""

from __future__ import annotations

import pytest
from apptest_helpers import lecture_scene, open_app

from ui.app import state
from ui.server import internals


def fresh(query: dict[str, str]) -> dict:
    session: dict = {}
    state.init(session, query)
    return session


@pytest.mark.parametrize(
    ("text", "embedded"),
    [("1", True), ("true", True), ("True", True), ("0", False), ("false", False)],
)
def test_embed_is_read_from_the_link(text, embedded):
    session = fresh({"embed": text, "lec_t": "5"})
    assert session["embed"] is embedded
    assert session[state.NOTICES] == []
    assert session["lec_t"] == 5


@pytest.mark.parametrize("text", ["yes", "2", "", "<b>1</b>"])
def test_another_value_is_ignored_with_a_notice(text):
    session = fresh({"embed": text})
    assert session["embed"] is False
    (notice,) = session[state.NOTICES]
    assert notice.startswith("URL parameter embed = ") and "must be 1 or 0" in notice
    assert "<b>" not in notice  # the value is shown escaped


def test_embed_never_travels_in_the_settings_url():
    session = fresh({"embed": "1", "lec_t": "5", "data_name": "four_points"})
    query = state.to_query(session)
    assert query == {"lec_t": "5", "data_name": "four_points", "data_n": "4"}
    assert state.EMBED in state.LOCAL_SETTINGS


def test_outside_a_run_there_is_no_query_string_to_read():
    assert internals.reserved_query_parameter("embed") is None
    assert fresh({})["embed"] is False


def test_an_embedded_lecture_runs_with_its_settings_and_the_link_to_the_full_app():
    at = open_app("pages/lecture.py", {"embed": "1", "data_name": "four_points", "lec_t": "3"})
    assert not at.exception
    assert at.session_state["embed"] is True
    assert not at.warning  # embed=1 is no unknown parameter
    assert lecture_scene(at)["t"] == 3  # the link's step
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert any(name.endswith("perceptron_embed_link") for name in names), names
    url = dict(at.query_params)  # the frame's address: Streamlit keeps its embed= in it
    assert url.get("lec_t") == "3" and url.get("data_name") == "four_points"
    at.session_state["lec_t"] = 4  # a step later: the settings follow, still embedded
    at.run()
    assert dict(at.query_params).get("lec_t") == "4" and at.session_state["embed"] is True
    assert "embed" not in state.to_query(at.session_state)


def test_streamlits_own_embed_true_is_an_embed_too_and_the_page_runs():
    at = open_app("pages/proof.py", {"embed": "true", "embed_options": "show_toolbar"})
    assert not at.exception and not at.warning
    assert at.session_state["embed"] is True
    assert at.title[0].value == "The proof, line by line"


def test_a_page_without_embed_has_no_embed_link():
    at = open_app("pages/lecture.py", {"lec_t": "3"})
    assert not at.exception and at.session_state["embed"] is False
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert not any(name.endswith("perceptron_embed_link") for name in names), names


def test_an_embed_takes_no_class_from_its_link():
    at = open_app("pages/lecture.py", {"embed": "1", "room": "ABCD-1234"})
    assert not at.exception
    assert "room_seat" not in at.session_state  # no seat, and no join tried
    assert "room_url" not in at.session_state
