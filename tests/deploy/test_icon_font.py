"""The icon font through the class deployment: Streamlit's Material Symbols Rounded cut to
the icons the app can show (``deploy/fonts/``, cut by ``scripts/subset_icons.py``), served
by nginx at the original's URL.

- the committed subset has every ``:material/<name>:`` icon of the app's source and every
  ligature of the font that is a word of Streamlit's frontend JavaScript (the icons it
  draws itself), each drawn as in the original;
- it was cut from the pinned Streamlit's font (its SHA-256), and the deployment serves it
  only while the installed font is that one: another font, the original;
- through nginx the font's URL sends the subset, as it is (woff2), cached a year; an app
  server still sends the original;
- in chromium through nginx every icon on the page is drawn as one glyph, about one em
  wide, not as its name in letters (the font's letters are each one em wide): on a phone
  (the class's join link, the lecture page, its sidebar opened) and on a 1280×720 screen.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from class_browser import get, in_browser, screenshot
from fontTools.ttLib import TTFont

from deploy import configs
from deploy.class_server import Class
from scripts import subset_icons

ROOT = Path(__file__).resolve().parents[2]
LONG = "public, immutable, max-age=31536000"
MANIFEST = json.loads(configs.ICON_MANIFEST.read_text(encoding="utf-8"))
SUBSET = configs.ICON_MANIFEST.parent / MANIFEST["subset"]


@pytest.fixture(scope="module")
def original() -> Path:
    return subset_icons.original_font()


def test_the_subset_has_every_icon_of_the_app_and_of_streamlits_frontend(original: Path):
    names = subset_icons.wanted(TTFont(original))
    app, frontend = names["app"], names["frontend"]
    # the scans find what they look for: the page icons, and the sidebar's own arrows
    assert {"home", "school", "warning", "menu_book"} <= app, sorted(app)
    assert {"keyboard_double_arrow_left", "expand_more", "close"} <= frontend, len(frontend)
    kept = subset_icons.ligatures(TTFont(SUBSET))
    assert not app - set(kept), f"the subset lacks the app's icons {sorted(app - set(kept))}"
    missing = sorted(frontend - set(kept))
    assert not missing, f"the subset lacks icons Streamlit's frontend names: {missing}"
    assert len(kept) < len(subset_icons.ligatures(TTFont(original))) / 4  # a subset, still


def test_each_kept_icon_is_drawn_as_in_the_original(original: Path):
    full, cut = TTFont(original), TTFont(SUBSET)
    full_names, cut_names = subset_icons.ligatures(full), subset_icons.ligatures(cut)
    for name, glyph in cut_names.items():
        theirs = full_names[name]
        mine = cut["glyf"][glyph].getCoordinates(cut["glyf"])[0]
        assert mine == full["glyf"][theirs].getCoordinates(full["glyf"])[0], name
        assert cut["hmtx"][glyph] == full["hmtx"][theirs], name
    # the letters the names are typed with are there (an icon's name, not tofu, if any
    # icon were missing), each one em wide
    em = cut["head"].unitsPerEm
    cmap = cut.getBestCmap()
    for char in "abcdefghijklmnopqrstuvwxyz0123456789_":
        assert cut["hmtx"][cmap[ord(char)]][0] == em, char


def test_the_subset_was_cut_from_the_pinned_streamlits_font(original: Path):
    pinned = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned and importlib.metadata.version("streamlit") == pinned.group(1)
    assert MANIFEST["streamlit"] == pinned.group(1), MANIFEST["streamlit"]
    assert original.name == MANIFEST["original"]
    assert hashlib.sha256(original.read_bytes()).hexdigest() == MANIFEST["original_sha256"]
    assert hashlib.sha256(SUBSET.read_bytes()).hexdigest() == MANIFEST["subset_sha256"]
    icons = configs.icon_font()
    assert icons.subset == SUBSET and icons.url == f"/static/media/{original.name}", icons


def live(conf: str) -> list[str]:
    return [line.strip() for line in conf.splitlines() if not line.strip().startswith("#")]


def test_another_streamlits_font_gets_the_original(tmp_path: Path, original: Path):
    """A font of the same name with other bytes (a patched Streamlit), or none: the
    renderer leaves the subset out and says why; nginx takes both renderings."""
    other = tmp_path / "other"
    other.mkdir()
    font = original.read_bytes()
    (other / original.name).write_bytes(font[:-1] + bytes([font[-1] ^ 1]))  # one bit off
    gone = tmp_path / "gone"
    gone.mkdir()
    same = configs.icon_font()
    changed, missing = configs.icon_font(other), configs.icon_font(gone)
    assert changed.subset is None and "not the one the subset was cut from" in changed.why
    assert missing.subset is None and "has no" in missing.why
    for i, icons in enumerate((same, changed, missing)):
        run = tmp_path / f"run-{i}"
        run.mkdir()
        conf = configs.nginx_conf(
            listen="8080", upstreams=["10.0.0.11:8501"], run_dir=run, icons=icons
        )
        locations = [line for line in live(conf) if line.startswith("location = ")]
        if icons is same:
            assert locations == [f"location = {same.url} {{"], locations
            assert f"alias {SUBSET};" in live(conf)
        else:
            assert locations == [] and not any("alias" in line for line in live(conf))
        (run / "nginx.conf").write_text(conf)
        args = ["-p", str(run), "-c", str(run / "nginx.conf"), "-e", str(run / "error.log")]
        checked = subprocess.run(
            [configs.tool("nginx"), "-t", *args], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr


def test_through_nginx_the_fonts_url_sends_the_subset(cls: Class, original: Path):
    assert cls.icons is not None and cls.icons.subset == SUBSET, cls.icons
    # the URL is the one browsers ask: the stylesheet the page names says it
    _, _, html = get(cls.url + "/lecture")
    css = re.findall(r'href="\./(static/css/[^"]+\.css)"', html.decode())
    assert any(f"../media/{original.name}" in get(f"{cls.url}/{c}")[2].decode() for c in css)
    for encoding in ("gzip, deflate, br", "gzip", None):
        status, headers, body = get(cls.url + cls.icons.url, encoding)
        assert status == 200, headers
        assert body == SUBSET.read_bytes(), f"{len(body):,} bytes, not the subset's"
        assert "content-encoding" not in headers, headers
        assert headers.get("content-type") == "font/woff2", headers
        assert headers.get("cache-control") == LONG, headers
        assert "set-cookie" not in headers, headers
    status, headers, body = get(cls.apps[0].url + cls.icons.url, "gzip")
    assert status == 200 and body == original.read_bytes()  # the app server: the original
    assert len(SUBSET.read_bytes()) < 0.25 * len(body)


# Every Material icon on the page: its name (the text the font turns into a glyph), the
# width its text is drawn, and its font size, once the page's fonts are loaded.
ICONS = """async () => {
  await document.fonts.ready;
  const out = [];
  for (const el of document.querySelectorAll('[data-testid="stIconMaterial"]')) {
    const style = getComputedStyle(el);
    if (el.getBoundingClientRect().width === 0 || style.visibility === 'hidden') continue;
    // the text's own width: Streamlit's box is one em square whatever it holds
    const text = document.createRange();
    text.selectNodeContents(el);
    out.push({name: el.textContent.trim(), width: text.getBoundingClientRect().width,
              em: parseFloat(style.fontSize), family: style.fontFamily});
  }
  const loaded = [...document.fonts].filter(
    (f) => f.family.includes('Material Symbols') && f.status === 'loaded').length;
  return {icons: out, loaded};
}"""


def drawn_icons(page: Any) -> list[dict[str, Any]]:
    """The page's visible icons, after checking each is one glyph (about an em wide)."""
    page.wait_for_function(
        """() => [...document.fonts].some(
             (f) => f.family.includes('Material Symbols') && f.status === 'loaded')""",
        timeout=30_000,
    )
    seen = page.evaluate(ICONS)
    assert seen["loaded"] >= 1, seen
    for icon in seen["icons"]:
        assert "Material Symbols" in icon["family"], icon
        # one glyph is one em; a name in letters is as many ems as it has letters
        assert 0.9 * icon["em"] <= icon["width"] <= 1.1 * icon["em"], icon
    return list(seen["icons"])


@pytest.mark.browser
def test_in_chromium_through_nginx_every_icon_is_a_glyph(cls: Class):
    from playwright.sync_api import expect

    def lecture_drawn(page: Any) -> None:
        expect(page.locator(".lec .fig")).to_be_visible(timeout=60_000)

    def join_form(page: Any) -> None:
        code = page.get_by_label(re.compile(r"^Class code"))
        expect(code).not_to_have_value("", timeout=60_000)

    def start_class(browser: Any) -> str:
        """A lecturer starts a class from the sidebar: its code, for the join link."""
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = context.new_page()
        page.goto(cls.url + "/")
        page.get_by_text("Class mode", exact=True).first.click()
        page.get_by_role("button", name="Start a class").first.click()
        code = page.locator(".st-key-room_code").filter(visible=True)
        expect(code).to_be_visible(timeout=60_000)
        out = re.sub(r"[^A-Z0-9]", "", code.inner_text().upper())
        context.close()
        return out

    def body(browser: Any) -> dict[str, set[str]]:
        shown: dict[str, set[str]] = {}
        join = f"/room?room={start_class(browser)}"
        phone = {
            "viewport": {"width": 390, "height": 844},
            "is_mobile": True,
            "has_touch": True,
            "device_scale_factor": 2,
        }
        views = [
            ("phone-join", phone, join, join_form, False),
            ("phone-lecture", phone, "/lecture", lecture_drawn, True),
            (
                "1280-lecture",
                {"viewport": {"width": 1280, "height": 720}},
                "/lecture",
                lecture_drawn,
                False,
            ),
        ]
        for name, device, path, drawn, open_sidebar in views:
            context = browser.new_context(**device)
            page = context.new_page()
            fonts: list[Any] = []
            page.on(
                "response",
                lambda r, fonts=fonts: fonts.append(r) if "MaterialSymbols" in r.url else None,
            )
            page.goto(cls.url + path)
            drawn(page)
            expect(page.get_by_test_id("stStatusWidget")).to_have_count(0, timeout=60_000)
            found = {i["name"] for i in drawn_icons(page)}
            if open_sidebar:
                screenshot(page, f"icons-{name}")
                page.get_by_test_id("stExpandSidebarButton").click()
                sidebar = page.get_by_test_id("stSidebar")
                expect(sidebar).to_have_attribute("data-collapsed", "false")
                page.wait_for_timeout(500)  # the sidebar's slide
                found |= {i["name"] for i in drawn_icons(page)}
            screenshot(page, f"icons-{name}{'-sidebar' if open_sidebar else ''}")
            sizes = [len(r.body()) for r in fonts]
            assert sizes == [SUBSET.stat().st_size], f"{name}: the icon font came as {sizes}"
            shown[name] = found
            context.close()
        return shown

    shown = in_browser(body)
    # the sidebar's page icons, measured on each screen, and Streamlit's own
    assert {"school", "home", "play_circle"} <= shown["phone-lecture"], shown
    assert {"school", "home", "play_circle"} <= shown["1280-lecture"], shown
    assert len(set().union(*shown.values())) >= 8, shown
