"""A class behind nginx on loopback for the tests here: 2 app servers, Redis and nginx,
started by the same code as ``scripts/serve_class.sh`` (``deploy.class_server``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from deploy.class_server import Class, serve_class


@pytest.fixture(scope="module")
def cls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Class]:
    """Redis, 2 app servers and nginx on free loopback ports; logs in a temp directory."""
    with serve_class(2, run_dir=tmp_path_factory.mktemp("class")) as running:
        yield running
