"""A class behind nginx on loopback for the tests here: 2 app servers, Redis and nginx,
started by the same code as ``scripts/serve_class.sh`` (``deploy.class_server``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.class_server import Class, serve_class


def pytest_collection_modifyitems(items):
    """One class (2 app servers, Redis, nginx) per module: a module's tests stay on one
    pytest-xdist worker, in order."""
    for item in items:
        if item.path.parent.name == "deploy":
            item.add_marker(pytest.mark.xdist_group(f"deploy-{item.path.stem}"))


@pytest.fixture(scope="module")
def cls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Class]:
    """Redis, 2 app servers and nginx on free loopback ports; logs in a temp directory."""
    with serve_class(2, run_dir=tmp_path_factory.mktemp("class")) as running:
        yield running
