"""AppTest runs: a page's unexpected error reaches ``at.exception``.

In the app, ``ui.server.guard`` turns it into a sentence for the student; here every
``assert not at.exception`` must be able to fail. ``test_security.py`` switches
this off to check the sentence itself.
"""

import pytest

from ui.server import fair, guard


@pytest.fixture(autouse=True)
def strict_pages(monkeypatch):
    monkeypatch.setattr(guard, "STRICT", True)


@pytest.fixture(autouse=True)
def no_fair_share_wait(monkeypatch):
    """AppTest reruns one session back to back, which is what ``ui.server.fair`` slows
    down; tests/ui/server/test_server_fair.py tests the gate itself."""
    monkeypatch.setattr(fair, "ENABLED", False)
