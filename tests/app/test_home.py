"""The app starts and its home page shows the worked example from the engine and a link
to every other page of the shell's page table."""

import re

from apptest_helpers import open_app

from perceptron_core import RULES
from ui.kit.shell import GLOSSARY, PAGES
from ui.kit.text import asset


def test_home_page_runs_and_shows_the_worked_example():
    at = open_app()
    assert not at.exception
    assert at.title[0].value == "Perceptron Lab"
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["mistakes M"] == "2"
    assert metrics["final w"] == "(2, 1)"
    assert metrics["bound (R/γ)²"] == "5.00"


def test_home_page_links_every_other_page_with_its_sentence():
    at = open_app()
    links = [(link.proto.page, link.label, link.icon) for link in at.get("page_link")]
    others = [p for p in PAGES if p.url_path]
    assert links == [(p.url_path, p.blurb, p.icon) for p in others]
    assert all(p.blurb for p in others)  # every page but home says where it leads
    assert len(links) == 8


def test_the_sidebar_says_when_a_page_does_not_use_its_dataset():
    own = "This page has data of its own"
    for page, uses_it in (
        ("pages/spam.py", False),
        ("pages/experts.py", False),
        ("pages/lecture.py", True),
    ):
        at = open_app(page)
        said = any(own in c.value for c in at.sidebar.caption)
        assert said is not uses_it, page


def test_every_page_ends_with_the_glossary_of_symbols():
    """Issue 14: one glossary (assets/glossary.md) under every page, with each handout's
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
        assert [m.value.strip() for m in shown[0].markdown] == [glossary.strip()], p.path
