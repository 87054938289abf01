"""Opening the app through AppTest, as a student's browser would with a URL."""

from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_app(
    page: str | None = None,
    query: dict[str, str] | None = None,
    session: dict[str, Any] | None = None,
) -> AppTest:
    """Run the app with these URL parameters (and session values), then open ``page``
    (e.g. ``"pages/lecture.py"``); the caller checks for exceptions."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    return at


def lecture_status(at: AppTest) -> str:
    """The lecture page's status line (epoch, step t, mistakes k, bound)."""
    return next(m.value for m in at.markdown if "step **t =" in m.value)


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    """``open_app`` on ``page`` (e.g. ``"pages/spam.py"``), which must show no exception."""
    at = open_app(page, query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    """Every ``st.metric`` on the page, label -> value as shown."""
    return {m.label: m.value for m in at.metric}


def markdown(at: AppTest) -> str:
    """All the page's markdown, joined."""
    return " ".join(m.value for m in at.markdown)
