"""Presenter mode on the pages without a projector layout of their own
(ui.shell.presenter): the rules that hide the sidebar and header and enlarge the type,
and the way out at the top of the page, which the sidebar's hidden switch cannot be."""

from __future__ import annotations

import pytest
from apptest_helpers import open_app

from ui.shell import PAGES


def marked(at) -> bool:
    return bool([b for b in at.button if b.key == "app_presenter_off"])


@pytest.mark.parametrize("page", ["pages/margin.py", "pages/xor.py", "pages/proof.py"])
def test_a_page_in_presenter_mode_has_the_way_out_and_it_leaves(page):
    at = open_app(page, {"app_presenter": "1"})
    assert not at.exception
    assert marked(at)
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert any(name.endswith("perceptron_style_app_presenter") for name in names), names
    at.button(key="app_presenter_off").click().run()
    assert not at.exception
    assert at.session_state["app_presenter"] is False
    assert not marked(at)
    assert at.sidebar.toggle[0].value is False  # the sidebar's switch says so too


def test_without_presenter_mode_there_is_no_way_out_to_show():
    at = open_app("pages/margin.py")
    assert not at.exception and not marked(at)


@pytest.mark.parametrize("spec", [p for p in PAGES if p.own_presenter], ids=lambda p: p.url_path)
def test_a_page_with_its_own_projector_layout_draws_it_alone(spec):
    at = open_app(spec.path, {"app_presenter": "1"})
    assert not at.exception
    assert not marked(at)
