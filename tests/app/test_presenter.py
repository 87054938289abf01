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


def _blocks_above(at, label: str) -> list[str]:
    """The kinds of block (``popover``, ``column`` ...) around the widget labelled ``label``."""

    def walk(node, path):
        if getattr(node, "label", None) == label:
            yield path
        for child in getattr(node, "children", {}).values():
            yield from walk(child, (*path, getattr(node, "type", None)))

    found = list(walk(at._tree, ()))
    assert len(found) == 1, (label, found)
    return [str(kind) for kind in found[0]]


LESSON_CONTROLS = [
    ("pages/experts.py", "analysts n", "exp_n", 40),
    ("pages/spam.py", "words counted", "spam_vocab", "more"),
    ("pages/sgd.py", "max epochs per run", "sgd_epochs", 12),
    ("pages/variants.py", "epochs T", "var_epochs", 12),
    ("pages/xor.py", "epochs to run", "xor_epochs", 12),
]


@pytest.mark.parametrize(("page", "label", "key", "value"), LESSON_CONTROLS)
def test_in_presenter_mode_a_lessons_controls_are_in_the_settings_menu_and_still_work(
    page, label, key, value
):
    """The controls fold into the Settings menu of the way out's row (the picture on the
    first screen); changed there, the page follows; out of presenter mode they are back in
    the page, with the value kept."""
    at = open_app(page, {"app_presenter": "1"})
    assert not at.exception
    assert "popover" in _blocks_above(at, label)
    widget = next(
        w for w in at.main.get("slider") + at.main.get("button_group") if w.label == label
    )
    widget.set_value(value).run()
    assert not at.exception
    assert at.session_state[key] == value
    at.button(key="app_presenter_off").click().run()
    assert "popover" not in _blocks_above(at, label)
    assert at.session_state[key] == value


def test_a_page_out_of_presenter_mode_has_no_settings_menu():
    at = open_app("pages/experts.py")
    assert not at.exception
    assert "popover" not in _blocks_above(at, "analysts n")
