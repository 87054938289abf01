"""ui.shell.require_router: a page always runs inside the router, whatever another
session did to Streamlit's server-wide multipage switch meanwhile."""

import pytest
from streamlit.runtime.pages_manager import PagesManager

from ui import shell


class Stopped(Exception):
    pass


@pytest.mark.parametrize("old_mode", [True, False])
def test_a_page_run_outside_the_router_runs_the_router_and_stops(monkeypatch, old_mode):
    """``old_mode=False`` is the race: this run began in Streamlit's old multipage mode,
    and another session's ``st.navigation`` switched it off before the page's first line."""
    monkeypatch.setattr(PagesManager, "uses_pages_directory", old_mode, raising=False)
    routed = []
    monkeypatch.setattr(shell, "run_app", lambda: routed.append(True))

    def stop():
        raise Stopped

    monkeypatch.setattr(shell.st, "stop", stop)
    with pytest.raises(Stopped):
        shell.require_router()
    assert routed == [True]


def test_inside_the_router_the_page_goes_on(monkeypatch):
    monkeypatch.setattr(shell._ROUTED, "depth", 1, raising=False)
    monkeypatch.setattr(shell, "run_app", lambda: pytest.fail("routed twice"))
    shell.require_router()  # returns: the page's own code runs next


def test_the_old_modes_navigation_is_hidden_and_the_apps_is_shown():
    """No flash of file names: the config hides the navigation Streamlit's old multipage
    mode sends on a server's first run; the app's first ``st.navigation`` shows navigation
    again (its titles) and ends the old mode. (tests/browser/test_first_paint.py looks.)"""
    import tomllib
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parents[3]
    config = root / ".streamlit" / "config.toml"
    assert tomllib.loads(config.read_text())["client"]["showSidebarNavigation"] is False
    at = AppTest.from_file(str(root / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception
    assert shell.st.get_option("client.showSidebarNavigation") is True
    assert PagesManager.uses_pages_directory is False
