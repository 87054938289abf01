"""The app's own components' code, sent once a page as files from a route of the app's
(``/api/code/<file>``, ``st.App``'s routes), not inside every message that draws them.

A v2 component's inline JavaScript and CSS travel inside every message that draws it: the
lecture's player (about 90 kB) would go to every phone with every step of a class, on one
Wi-Fi (Streamlit's websocket is not compressed). So a component made here is declared to
Streamlit with a few lines of code that import the real code from this process's route
(the browser fetches it once and keeps the module) and add a link to its styles where the
component draws (once). Files are named by their content's hash, so a new version is a
new address, never a stale copy, and a cache may keep one a year. Streamlit's own path
for a code file (``js_source_path``) adds a script element and waits for its load event at
every message, which put a follower's Play steps out of time with the lecturer's.

May import: the standard library, ``starlette`` and ``streamlit`` (its public API only).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Callable
from typing import Any

PATH = "/api/code"
YEAR = "public, immutable, max-age=31536000"
_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
_NAME = re.compile(r"^[a-z_]+\.[0-9a-f]{16}\.(js|css)$")
_LOCK = threading.Lock()
_FILES: dict[str, bytes] = {}  # file name -> its bytes, every component of this process
_ZIPPED: dict[str, bytes] = {}  # file name -> its bytes gzipped, once asked for so
# what a route that does not hold a file yet imports: the modules that make the components
# (a server serves a page's files before that page first ran on it: another server drew it)
MAKERS = (
    "ui.lecture.player",
    "ui.margin.canvas",
    "ui.classmode.card",
    "ui.lecture.light",
    "ui.lecture.remote",
)


def file_name(component: str, text: str, suffix: str) -> str:
    """The name of the file that holds ``text`` (``suffix`` .js or .css) of ``component``
    (perceptron.<name>): the name and the content's hash."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return f"{component.partition('.')[2]}.{digest}{suffix}"


def keep(component: str, text: str, suffix: str) -> str:
    """Serve ``text`` as a file of ``component``; its name."""
    name = file_name(component, text, suffix)
    with _LOCK:
        _FILES.setdefault(name, text.encode("utf-8"))
    return name


def served(name: str) -> bytes | None:
    """The bytes this process serves as file ``name`` (None: none of that name)."""
    return _FILES.get(name) if _NAME.match(name) else None


def zipped(name: str, body: bytes) -> bytes:
    """File ``name``'s bytes ``body`` gzipped: compressed once, at its first ask."""
    import gzip

    found = _ZIPPED.get(name)
    if found is None:
        found = gzip.compress(body, compresslevel=9, mtime=0)
        with _LOCK:
            _ZIPPED.setdefault(name, found)
    return found


def url(name: str, base: str = "") -> str:
    """The address of file ``name`` under the server's base path ``base``."""
    return "/" + "/".join(p for p in (base.strip("/"), PATH.strip("/"), name) if p)


def importer(js_url: str, css_url: str) -> str:
    """The inline code of a component whose code is at ``js_url`` and styles at
    ``css_url``: it links the styles where the component draws (once) and hands the
    component to the imported code (fetched once a page)."""
    return (
        "export default async function (component) {\n"
        "  const root = component.parentElement;\n"
        f"  const css = new URL({json.dumps(css_url)}, window.location.origin).href;\n"
        '  if (root && !root.querySelector(`link[href="${css}"]`)) {\n'
        '    const link = document.createElement("link");\n'
        '    link.rel = "stylesheet";\n'
        "    link.href = css;\n"
        "    root.prepend(link);\n"
        "  }\n"
        f"  const js = new URL({json.dumps(js_url)}, window.location.origin).href;\n"
        "  const code = await import(js);\n"
        "  return code.default(component);\n"
        "}\n"
    )


def component(
    name: str,
    *,
    js: str,
    css: str,
    html: str | None = None,
    isolate_styles: bool = True,
) -> Callable[..., Any]:
    """``st.components.v2.component`` whose JavaScript and CSS reach the browser as files
    of this process's route, once a page. ``name`` is perceptron.<name>. The files are
    served from now on; the component is declared to Streamlit at its first mount, in a
    run (the server's base path is known then)."""
    js_name, css_name = keep(name, js, ".js"), keep(name, css, ".css")
    made: list[Callable[..., Any]] = []
    lock = threading.Lock()

    def mounted(**kwargs: Any) -> Any:
        if not made:
            import streamlit as st

            with lock:
                if not made:
                    base = str(st.get_option("server.baseUrlPath") or "")
                    code = importer(url(js_name, base), url(css_name, base))
                    made.append(
                        st.components.v2.component(
                            name, js=code, html=html, isolate_styles=isolate_styles
                        )
                    )
        return made[0](**kwargs)

    return mounted


def route(*, base: str = "") -> Any:
    """The route that serves the files, under the server's base path ``base``."""
    import asyncio
    import importlib

    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    async def serve(request: Request) -> Response:
        name = str(request.path_params.get("name", ""))[:80]
        if not _NAME.match(name):
            return Response("no such file", status_code=404, media_type="text/plain")
        if served(name) is None:  # this process has not made the page's components yet
            for module in MAKERS:
                await asyncio.to_thread(importlib.import_module, module)
        body = served(name)
        if body is None:
            return Response("no such file", status_code=404, media_type="text/plain")
        suffix = name[name.rindex(".") :]
        headers = {"Cache-Control": YEAR, "Vary": "Accept-Encoding"}
        if "gzip" in request.headers.get("accept-encoding", ""):  # a phone's Wi-Fi: a third
            body = zipped(name, body)
            headers["Content-Encoding"] = "gzip"
        return Response(body, media_type=_TYPES[suffix], headers=headers)

    return Route(url("{name}", base), serve, methods=["GET", "HEAD"])
