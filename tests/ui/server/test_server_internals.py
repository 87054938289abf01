"""ui.server.internals: every Streamlit internal the app uses is checked, in one place.

On the pinned Streamlit every check passes; with an internal patched out, the terminal is
told which protection or feature is off and which version was tested, and the app's pages
still run without a traceback.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import streamlit as st

from ui.server import internals

ROOT = Path(__file__).resolve().parents[3]
APP = str(ROOT / "app.py")


def test_every_internal_is_there_on_the_pinned_streamlit():
    assert internals.problems() == []
    assert internals.message([]) == ""


def test_the_lock_pins_the_streamlit_the_internals_were_checked_on():
    lock = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    pinned = re.search(r"^streamlit==(\S+)", lock, flags=re.MULTILINE)
    assert pinned, "requirements.txt pins no streamlit"
    assert pinned.group(1) == internals.TESTED
    assert st.__version__ == internals.TESTED, "the installed Streamlit is not the lock's"


def test_a_missing_internal_names_the_feature_that_is_off(monkeypatch, capsys):
    from streamlit.runtime.session_manager import SessionManager

    monkeypatch.delattr(SessionManager, "get_session_info")
    monkeypatch.setattr(internals, "TESTIDS", {**internals.TESTIDS, "stNoSuchThing": "x"})
    found = internals.problems()
    assert len(found) == 2, found
    assert found[0].startswith("the door's check of a widget's kind")
    assert "get_session_info" in found[0]
    assert "presenter mode" in found[1] and "data-testid" in found[1]
    monkeypatch.setattr(internals, "_REPORTED", False)
    assert internals.report() == found
    err = capsys.readouterr().err
    assert f"not the version this app was tested on ({internals.TESTED}" in err
    assert err.count("\n  - ") == 2 and "widget's kind" in err
    assert internals.report() == []  # once per process


def test_a_missing_internal_leaves_its_feature_off_not_the_app_broken(monkeypatch):
    from streamlit.runtime import scriptrunner

    monkeypatch.delattr(scriptrunner, "get_script_run_ctx")
    assert internals.session_id() is None  # the fair share and quotas see no session
    from streamlit.runtime import Runtime

    monkeypatch.setattr(Runtime, "exists", staticmethod(lambda: True))
    monkeypatch.setattr(Runtime, "instance", staticmethod(lambda: object()))
    assert internals.widget_kind("s", "w") is None  # the door checks no kind: frames pass


def test_a_streamlit_without_the_internals_starts_with_a_message_and_no_traceback(tmp_path):
    """A Streamlit without two of the internals (as an upgrade could leave it): stderr
    says what is off and the tested version; the home and the lecture page run without
    an exception. (Only internals Streamlit itself does not call on these runs can be
    taken away here: taking away one it calls breaks Streamlit, not the app.)"""
    script = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from streamlit.runtime import session_manager
        del session_manager.SessionManager.get_session_info
        from streamlit.runtime import scriptrunner
        del scriptrunner.get_script_run_ctx
        from streamlit.testing.v1 import AppTest
        at = AppTest.from_file({APP!r}, default_timeout=120)
        at.run()
        print("home exceptions:", len(at.exception))
        at.switch_page("pages/lecture.py").run()
        print("lecture exceptions:", len(at.exception))
        print("lecture errors:", [e.value for e in at.error])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "home exceptions: 0" in done.stdout
    assert "lecture exceptions: 0" in done.stdout
    assert "lecture errors: []" in done.stdout
    said = [line for line in done.stderr.splitlines() if line.startswith("  - ")]
    assert len(said) == 2, done.stderr[-3000:]
    for feature in ("widget's kind", "fair share"):
        assert any(feature in line for line in said), (feature, said)
    assert f"tested on ({internals.TESTED}" in done.stderr
    assert "Traceback" not in done.stderr


def test_no_other_module_reaches_into_streamlit():
    """Streamlit's private modules, its underscore attributes and its DOM test ids are
    named only in ui.server.internals (the app's own ``st-key-`` classes are public)."""
    private = re.compile(
        r"streamlit\.(runtime|proto|elements|web|components\.lib)\b"
        r"|data-testid|data-test-|\._session_mgr|\._client_state|_get_async_objs"
    )
    offenders = []
    for path in [ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")]:
        if path.name == "internals.py" or "__pycache__" in path.parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if private.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    for path in (ROOT / "ui").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        if "data-testid" in text or "data-test-" in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, "\n".join(offenders)


def test_outside_a_server_the_run_helpers_do_nothing():
    """The fair share asks these in every run; a bare script has no server. In a process
    of its own: an AppTest earlier in this one leaves its runtime behind."""
    script = (
        "from ui.server import fair, guard, internals\n"
        "assert fair.loop_late() == 0.0\n"
        "assert guard.fragment_rerun() is False\n"
        "assert internals.session_id() is None\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
