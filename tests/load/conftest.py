"""Simulated students and attacks time the server's answers against a quiet reference in
the same run: they run alone (``serial``), after the parallel tests, so that no other test's
work on the two cores shows up in their figures."""

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.parent.name == "load":
            item.add_marker(pytest.mark.serial)
