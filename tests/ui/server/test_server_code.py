"""The app's own components' code as files of the app's route (ui/server/code.py): named by
their content, served a year, under the server's base path, nothing else served."""

from __future__ import annotations

import asyncio
import importlib
from concurrent.futures import ThreadPoolExecutor

from starlette.applications import Starlette

from ui.server import code


class Got:
    """An HTTP answer of an ASGI app, asked directly (no network, no client library)."""

    def __init__(self, app: Starlette, path: str) -> None:
        # a thread of its own: a test before this one in the worker may leave its event
        # loop running on this thread (Playwright's sync API does)
        with ThreadPoolExecutor(1) as one:
            self.status_code, self.headers, body = one.submit(asyncio.run, _get(app, path)).result()
        self.text = body.decode()


async def _get(app: Starlette, path: str) -> tuple[int, dict[str, str], bytes]:
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
             "query_string": b"", "headers": [], "scheme": "http", "http_version": "1.1",
             "server": ("test", 80), "client": ("127.0.0.1", 1), "root_path": ""}  # fmt: skip
    out: dict[str, object] = {"body": b""}

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}  # type: ignore[attr-defined]
        elif message["type"] == "http.response.body":
            out["body"] = out["body"] + message.get("body", b"")  # type: ignore[operator]

    await app(scope, receive, send)  # type: ignore[arg-type]
    return out["status"], out["headers"], out["body"]  # type: ignore[return-value]


def test_a_file_is_named_by_its_content_and_its_import_knows_the_base_path():
    name = code.keep("perceptron.probe", "export default function () {}", ".js")
    assert name.startswith("probe.") and name.endswith(".js") and len(name) == 6 + 16 + 3
    assert code.keep("perceptron.probe", "export default function () {} ", ".js") != name
    assert code.url(name) == f"/api/code/{name}"
    assert code.url(name, "/lab/") == f"/lab/api/code/{name}"
    lines = code.importer(code.url(name, "lab"), code.url("probe.css", "lab"))
    assert f'"/lab/api/code/{name}"' in lines and '"/lab/api/code/probe.css"' in lines


def test_the_route_serves_the_files_a_year_and_nothing_else():
    js = code.keep("perceptron.probe", "export default () => 1;", ".js")
    css = code.keep("perceptron.probe", "p { margin: 0 }", ".css")
    app = Starlette(routes=[code.route(base="/lab")])
    got = Got(app, f"/lab/api/code/{js}")
    assert got.status_code == 200 and got.text == "export default () => 1;"
    assert got.headers["content-type"].startswith("text/javascript")
    assert got.headers["cache-control"] == "public, immutable, max-age=31536000"
    assert Got(app, f"/lab/api/code/{css}").headers["content-type"].startswith("text/css")
    for other in (
        "probe.0123456789abcdef.js",  # no such file
        "../../etc/passwd",
        "probe.js",
        f"{js}x",
    ):
        assert Got(app, f"/lab/api/code/{other}").status_code == 404, other
    assert Got(app, f"/api/code/{js}").status_code == 404  # not outside the base path


def test_a_server_that_has_not_drawn_a_page_serves_its_components_code(monkeypatch):
    """Behind nginx a browser may fetch the player's code from a server that never ran
    the lecture page: the route makes the components first."""
    made = []
    monkeypatch.setattr(code, "MAKERS", ("ui.look",))
    monkeypatch.setattr(
        importlib,
        "import_module",
        lambda name: made.append(name) or code.keep("perceptron.late", "x()", ".js"),
    )
    name = code.file_name("perceptron.late", "x()", ".js")
    app = Starlette(routes=[code.route()])
    assert Got(app, f"/api/code/{name}").text == "x()" and made == ["ui.look"]
