"""The app starts and its home page shows the worked example from the engine and a link
to every other page of the shell's page table."""

from apptest_helpers import open_app

from ui.kit.shell import PAGES


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
