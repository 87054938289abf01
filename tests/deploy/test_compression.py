"""The class deployment's nginx sends a page's files compressed and cacheable, as a
browser gets them: the files the lecture page's HTML names (its main bundle, its CSS,
the chunks it preloads, its font), through nginx, against the same files fetched from an
app server directly.

- with ``Accept-Encoding: gzip`` the text files come gzip-compressed (``Content-Encoding``)
  and decode to the app server's bytes; with ``br`` (where this machine's nginx has the
  brotli module) brotli-compressed, decoded by chromium to the same bytes;
- fonts (woff2, compressed already) come as they are;
- every one of them carries ``Cache-Control: public, immutable, max-age=31536000`` (their
  names hold a content hash) and ``Vary: Accept-Encoding``, and is compressed once: the
  second request is answered from nginx's cache;
- the HTML page, ``/_stcore/`` and the cached files are never cached long or handed a
  sticky cookie by mistake: the page says ``no-cache``, a cached file sets no cookie.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from class_browser import get, in_browser

from deploy import configs
from deploy.class_server import Class

pytestmark = pytest.mark.browser

LONG = "public, immutable, max-age=31536000"
PAGE_FILES = re.compile(r'(?:src|href)="\./(static/(?:js|css|media)/[^"]+)"')


@pytest.fixture(scope="module")
def files(cls: Class) -> dict[str, bytes]:
    """The files the lecture page's HTML names (through nginx), each as an app server
    sends it directly, uncompressed."""
    status, _, html = get(cls.url + "/lecture")
    assert status == 200
    named = sorted(set(PAGE_FILES.findall(html.decode())))
    assert any(re.fullmatch(r"static/js/index\.[\w-]{8}\.js", f) for f in named), named
    assert any(f.endswith(".css") for f in named) and any(f.endswith(".woff2") for f in named)
    out = {}
    for name in named:
        status, headers, body = get(f"{cls.apps[0].url}/{name}")
        assert status == 200 and "content-encoding" not in headers, name
        out[name] = body
    return out


def text(files: dict[str, bytes]) -> dict[str, bytes]:
    """The files worth compressing: JavaScript and CSS over nginx's 1 kB floor."""
    return {n: b for n, b in files.items() if n.endswith((".js", ".css")) and len(b) > 1024}


def test_the_page_files_come_gzipped_through_nginx_and_decode_to_the_app_servers_bytes(
    cls: Class, files: dict[str, bytes]
):
    compressible = text(files)
    assert len(compressible) >= 10, sorted(files)
    sent = 0
    for name, original in compressible.items():
        status, headers, body = get(f"{cls.url}/{name}", "gzip, deflate")
        assert status == 200, name
        assert headers.get("content-encoding") == "gzip", (name, headers)
        assert gzip.decompress(body) == original, f"{name}: gzip decodes to other bytes"
        assert headers.get("cache-control") == LONG, (name, headers)
        assert "accept-encoding" in headers.get("vary", "").lower(), (name, headers)
        assert "set-cookie" not in headers, (name, headers)
        sent += len(body)
    total = sum(len(b) for b in compressible.values())
    assert sent < 0.45 * total, f"gzip sent {sent:,} bytes of {total:,}"
    main = next(n for n in compressible if re.fullmatch(r"static/js/index\.[\w-]{8}\.js", n))
    _, _, body = get(f"{cls.url}/{main}", "gzip")
    assert len(body) < 0.4 * len(files[main]), f"the main bundle: {len(body):,} bytes gzipped"


def test_each_file_is_compressed_once_then_sent_from_nginxs_cache(
    cls: Class, files: dict[str, bytes]
):
    for name in text(files):
        first = get(f"{cls.url}/{name}", "gzip")
        again = get(f"{cls.url}/{name}", "gzip")
        assert again[1].get("x-cache-status") == "HIT", (name, first[1], again[1])
        assert again[2] == first[2], f"{name}: the cached copy differs"
    log = (cls.run_dir / "static.log").read_text(encoding="utf-8")
    assert re.search(r"encoding=gzip cache=HIT", log), log[-2000:]


def test_fonts_go_as_they_are_and_are_cached_long(cls: Class, files: dict[str, bytes]):
    fonts = [n for n in files if n.endswith(".woff2")]
    assert fonts
    for name in fonts:
        status, headers, body = get(f"{cls.url}/{name}", "gzip, deflate, br")
        assert status == 200 and "content-encoding" not in headers, (name, headers)
        assert body == files[name], name
        assert headers.get("cache-control") == LONG, (name, headers)


def test_with_the_brotli_module_a_browser_that_accepts_br_gets_brotli(
    cls: Class, files: dict[str, bytes]
):
    """Chromium sends ``br`` to localhost (and over https); the bytes it decodes are the
    app server's."""
    if configs.brotli_module() is None:
        pytest.skip(
            f"this nginx has no brotli module ({configs.modules_dir()}): "
            "apt-get install libnginx-mod-http-brotli-filter"
        )
    compressible = text(files)
    sizes = {}
    for name in compressible:
        status, headers, body = get(f"{cls.url}/{name}", "gzip, deflate, br")
        assert status == 200 and headers.get("content-encoding") == "br", (name, headers)
        assert headers.get("cache-control") == LONG, (name, headers)
        sizes[name] = (len(body), len(get(f"{cls.url}/{name}", "gzip")[2]))
    assert sum(b for b, _ in sizes.values()) < sum(g for _, g in sizes.values()), sizes
    digest = """async (names) => {
      const out = {};
      for (const name of names) {
        const r = await fetch('/' + name, { cache: 'no-store' });
        const bytes = await r.arrayBuffer();
        const hash = await crypto.subtle.digest('SHA-256', bytes);
        out[name] = [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
      }
      return out;
    }"""

    def digests(browser: Any) -> tuple[dict[str, str], set[str]]:
        page = browser.new_context().new_page()
        encodings: set[str] = set()
        page.on(
            "response",
            lambda r: (
                encodings.add(r.headers.get("content-encoding", ""))
                if "/static/js/" in r.url
                else None
            ),
        )
        page.goto(cls.url + "/_stcore/health")
        return page.evaluate(digest, sorted(compressible)), encodings

    hashes, encodings = in_browser(digests)
    assert encodings == {"br"}, encodings
    for name, original in compressible.items():
        assert hashes[name] == hashlib.sha256(original).hexdigest(), f"{name}: br decodes wrong"


def test_the_players_code_comes_once_a_page_then_from_nginxs_cache(cls: Class):
    """The lecture's player reaches a browser as two files (its code and its styles), not
    inside every message: a browser that steps past a scene window (a message from the
    server that draws the player again) fetches them once; through nginx they come
    gzipped, cached a year, from nginx's cache the second time, and decode to the bytes
    the app server that drew the player sends."""
    code = re.compile(r"/api/code/lecture\.[0-9a-f]{16}\.(js|css)$")

    def open_and_step(browser: Any) -> tuple[list[tuple[str, int]], int]:
        from playwright.sync_api import expect

        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        fetched: list[tuple[str, int]] = []
        page.on(
            "response",
            lambda r: fetched.append((r.url, r.status)) if code.search(r.url) else None,
        )
        page.goto(cls.url + "/lecture?data_n=150&lec_t=99")
        status = page.locator(".lec .status")
        expect(status).to_contain_text("step t = 99 of", timeout=60_000)
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")  # 101: the next window, drawn by the server
        expect(status).to_contain_text("step t = 101 of", timeout=15_000)
        page.keyboard.press("ArrowLeft")  # 100: in the new window, drawn in the browser
        expect(status).to_contain_text("step t = 100 of")
        return fetched, page.locator(".lec .fig").count()

    fetched, charts = in_browser(open_and_step)
    assert charts == 1
    kinds = sorted(code.search(url).group(1) for url, _ in fetched)  # type: ignore[union-attr]
    assert kinds == ["css", "js"], f"the player's files were fetched as {fetched}"
    assert all(status == 200 for _, status in fetched), fetched
    for url, _ in fetched:
        path = url.split(cls.url, 1)[1]
        direct = [get(app.url + path) for app in cls.apps]
        served = [body for status, _, body in direct if status == 200]
        assert served, f"no app server serves {path}"
        status, headers, body = get(cls.url + path, "gzip")
        assert status == 200 and headers.get("content-encoding") == "gzip", (path, headers)
        assert gzip.decompress(body) == served[0], f"{path}: gzip decodes to other bytes"
        assert headers.get("cache-control") == LONG, (path, headers)
        assert "set-cookie" not in headers, (path, headers)
        again = get(cls.url + path, "gzip")
        assert again[1].get("x-cache-status") == "HIT", (path, again[1])


def test_the_page_and_stcore_are_not_cached_long(cls: Class):
    for path in ("/lecture", "/room?room=ABCDEFGH", "/_stcore/health", "/_stcore/host-config"):
        status, headers, body = get(cls.url + path, "gzip, deflate, br")
        assert status == 200, path
        cache = headers.get("cache-control", "")
        assert "no-cache" in cache and "immutable" not in cache, (path, headers)
        assert "x-cache-status" not in headers, f"{path} went through nginx's file cache"
    status, headers, body = get(cls.url + "/lecture", "gzip")
    assert headers.get("content-encoding") == "gzip" and b"<html" in gzip.decompress(body)
    assert headers.get("set-cookie", "").startswith("perceptron_server="), headers
    # the app's answer of who may frame a page comes through nginx as the app gave it
    assert headers.get("content-security-policy") == "frame-ancestors 'self'", headers


def test_the_configuration_with_and_without_brotli(tmp_path: Path):
    """nginx takes both renderings; without the module no brotli directive is live."""
    renderings = {
        "off": configs.nginx_conf(
            listen="8080", upstreams=["10.0.0.11:8501"], run_dir=tmp_path, brotli=False
        )
    }
    if configs.brotli_module() is not None:
        renderings["on"] = configs.nginx_conf(
            listen="8080", upstreams=["10.0.0.11:8501"], run_dir=tmp_path, brotli=True
        )
    for name, conf in renderings.items():
        live = [line.strip() for line in conf.splitlines() if not line.strip().startswith("#")]
        has_brotli = any(line.startswith(("brotli", "load_module")) for line in live)
        assert has_brotli == (name == "on"), name
        assert "gzip on;" in live and "proxy_cache perceptron_static;" in live
        (tmp_path / "nginx.conf").write_text(conf)
        checked = subprocess.run(
            [
                configs.tool("nginx"),
                "-t",
                "-p",
                str(tmp_path),
                "-c",
                str(tmp_path / "nginx.conf"),
                "-e",
                str(tmp_path / "error.log"),
            ],
            capture_output=True,
            text=True,
        )
        assert checked.returncode == 0, (name, checked.stderr)
