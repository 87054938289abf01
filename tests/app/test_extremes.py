"""No setting can break or pin a page: every page opens with every setting at its extremes.

Every number at its largest (or smallest) accepted value, on 500 XOR points (not
separable, so every run goes to its epoch cap), must give a page with no exception
within AppTest's timeout; ``benchmarks/extremes.py`` prints how long each takes.
"""

import pytest
from apptest_helpers import drawn, lecture_status, open_app
from extremes import CASES, PAGES
from streamlit.testing.v1 import AppTest


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_survives_every_setting_at_its_extremes(page: str, case: str) -> None:
    at = open_app(None if page == "home" else f"pages/{page}.py", CASES[case])
    assert not at.exception, [e.value for e in at.exception]
    # presenter mode (on in the largest case) gives the lecture's player the title's room
    assert at.title or drawn(at), "the page drew nothing"
    refused = [w.value for w in at.warning if "URL parameter" in w.value]
    assert refused == []  # every extreme is a value the settings table accepts


def test_the_extremes_reach_the_caps() -> None:
    """The largest case really is the heaviest run the caps allow: 500 points and
    500 epochs, cut to the 200,000-step cap with a message."""
    at: AppTest = open_app("pages/lecture.py", CASES["largest, default choices"])
    assert any("running 400 epochs" in i.value for i in at.info)
    assert "stopped after 400 epochs" in lecture_status(at)
