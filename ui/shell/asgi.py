"""The server around the pages: the app's own routes, its middleware and its lifespan,
given to ``st.App`` in ``app.py``.

Imports ``ui.server`` (the door); nothing of a lesson. A new route or middleware is a line
here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.middleware import Middleware
from starlette.routing import BaseRoute


def routes() -> list[BaseRoute]:
    """The app's own routes (under ``/api/``: Streamlit keeps ``/_stcore/`` and the pages)."""
    return []


def middleware() -> list[Middleware]:
    """What sees every request and websocket frame before Streamlit does: the door
    (``ui.server.door``: the browser's cookie, the new tabs' rate, the session cap, the
    frames' bound and the idle streams' close)."""
    from ui.server.door import Door

    return [Middleware(Door)]


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[dict[str, Any]]:
    """The server's start and stop (nothing of the app's yet)."""
    yield {}
