"""The lecture's run as one HTML file to take away: the same player, no server, no network.

:func:`build` (pure) writes a self-contained page: the player's own code (``player.js``,
its ``export default`` made a local function, so the file plays with the code the live
page runs), its CSS, one scene that holds every step of the file (one window, ``start`` to
``stop``: ``figures.lecture_scene``) and a small host that gives the player a component of
its own. Every step is in that one window, so the player's reports of its step need no
answer; a step outside a cut file's range comes back clamped to it, with a note; the
presenter switch flips the layout in the page.

Outside text (the dataset's name, which may be an upload's file name) only travels as
JSON in a ``<script type="application/json">`` with ``<``, ``>``, ``&``, U+2028 and U+2029
escaped, and the page writes it with ``textContent``; the file's name is ``[a-z0-9-]``
only. The scene is gzip-compressed and base64-encoded (its JSON repeats itself from step
to step: about 15 times smaller, so a 2,000-step run is a few hundred kB, not 1.8 MB); the
browser opens it with ``DecompressionStream``. A Content-Security-Policy lets only the
file's own script run (by its hash) and fetch nothing.

The file carries its font: Streamlit's Source Sans cut to the characters the player shows
(``fonts/``, cut by ``scripts/subset_file_font.py``; 40 kB), so its text and the PNGs and
clips it saves look as the live page's do, on a machine that has no such font.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ui import words
from ui.app.sidebar import CUSTOM
from ui.app.state import LINK_PARAM, ROOM_PARAMS, Session, to_query
from ui.compute.model import Run
from ui.lecture.figures import lecture_scene
from ui.lecture.player import PLAYER_CSS, PLAYER_JS
from ui.lecture.restart import STEP
from ui.look.numbers import number
from ui.look.style import PRESENTER_FONT
from ui.words import t

_FONTS = Path(__file__).with_name("fonts")
FONT_MANIFEST = json.loads((_FONTS / "PerceptronLabSans.subset.json").read_text("utf-8"))
FONT_FAMILY: str = FONT_MANIFEST["family"]
# the font as a data: URL (the file's policy allows fonts from data: only), every weight
# of the variable font (the page draws 400, 600 and 700)
FONT_CSS = (
    f'@font-face {{ font-family: "{FONT_FAMILY}"; font-style: normal; font-weight: 200 900; '
    "src: url(data:font/woff2;base64,"
    + base64.b64encode((_FONTS / FONT_MANIFEST["subset"]).read_bytes()).decode("ascii")
    + ') format("woff2"); }'
)
MAX_FILE_STEPS = 5_000  # a file's steps: about 0.8 MB at most, built in about 1.5 s
_ENTRY = "export default function (component) {"  # player.js's entry point, exactly once
_MOUNT = "const mountPlayer = function (component) {"


# The file's host (export_host.js): reads the facts and the scene, writes the facts with
# textContent, and gives the player a component like Streamlit's (data, parentElement,
# setTriggerValue). Runs in the player's module, after it: S, say and mountPlayer are the
# player's own
_HOST = (Path(__file__).with_name("export_host.js")).read_text(encoding="utf-8")
_FILE_WORDS_JS = PLAYER_JS + _HOST  # what says the file's words: joined once, not per file


@dataclass(frozen=True)
class Meta:
    """What the file says about its run, written by the page with ``textContent``."""

    name: str  # the dataset's name: outside text
    points: int
    summary: str  # the run's settings in one line (presenter mode shows it too)
    settings: str  # the same, with what the summary leaves out (the epochs)
    version: str  # the app's
    exported: str  # the day the file was made, ISO
    link: str | None  # the live page with this run's settings, when the server knows it
    t: int  # the step the file opens at (the one on screen when it was made)
    cut: str  # "" for a whole run, else where the file was cut (cut_text)
    # the player's words in the language of the session that made the file (none: English)
    words: dict[str, str] = field(default_factory=lambda: words.script_words(_FILE_WORDS_JS))


def at_step(meta: Meta, t: int) -> Meta:
    """``meta`` of a file that opens at step ``t`` (its live link opens there too)."""
    link = meta.link
    if link is not None:
        parts = urlsplit(link)
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != STEP]
        link = urlunsplit(parts._replace(query=urlencode([*query, *([(STEP, t)] if t else [])])))
    return replace(meta, t=t, link=link)


def file_range(t: int, n_steps: int) -> tuple[int, int]:
    """The steps a file holds: the whole run, or for a run longer than MAX_FILE_STEPS the
    MAX_FILE_STEPS steps of the block that holds step t."""
    if n_steps <= MAX_FILE_STEPS:
        return 0, n_steps
    t = max(0, min(t, n_steps))
    start = min((t // MAX_FILE_STEPS) * MAX_FILE_STEPS, n_steps - MAX_FILE_STEPS)
    return start, start + MAX_FILE_STEPS


def cut_text(start: int, stop: int, n_steps: int) -> str:
    """Where a file was cut, in words; "" when it holds the whole run."""
    if start == 0 and stop == n_steps:
        return ""
    return t(
        "This file holds steps {start} to {stop} of the run's {T}: the run is too long for "
        "one file (at most {most} steps). Download again at another step for another range."
    ).format(start=number(start), stop=number(stop), T=number(n_steps), most=number(MAX_FILE_STEPS))


def download_label(start: int, stop: int, n_steps: int) -> str:
    """The download button's label: what the file holds, and the limit when it is cut."""
    if start == 0 and stop == n_steps:
        return t("Download this run (HTML, {T} steps, plays offline)").format(T=number(n_steps))
    return t(
        "Download steps {start} to {stop} of {T} (HTML; a file holds at most {most} steps)"
    ).format(start=number(start), stop=number(stop), T=number(n_steps), most=number(MAX_FILE_STEPS))


def slug(text: str, limit: int = 40) -> str:
    """``text`` as lowercase letters, digits and single hyphens (never empty)."""
    folded = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    out = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:limit].strip("-")
    return out or "data"


def file_name(dataset: str, start: int, stop: int, n_steps: int) -> str:
    """``perceptron-<dataset>-<n>steps.html``, or ``...-steps-<a>-<b>.html`` when cut: only
    ``[a-z0-9-]`` before the extension, whatever the dataset was called."""
    if start == 0 and stop == n_steps:
        return f"perceptron-{slug(dataset)}-{n_steps}steps.html"
    return f"perceptron-{slug(dataset)}-steps-{start}-{stop}.html"


def live_link(page_url: str | None, session: Session) -> str | None:
    """The live page with the run's settings (``page_url``: the page's address as the browser
    has it, ``st.context.url``); None when it is unknown or not http(s), or when the data
    are a student's own and not in the store (no ``data=<id>``), where a link would open
    other points. A class's room and seat never go into a file."""
    parts = urlsplit(page_url or "")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    query = to_query(session)
    if CUSTOM in session and LINK_PARAM not in query:
        return None
    kept = {k: v for k, v in query.items() if k not in ROOM_PARAMS}
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(kept), ""))


def script_json(value: Any) -> str:
    """JSON to sit inside ``<script type="application/json">``: no ``<``, ``>`` or ``&``
    (no ``</script>`` or ``<!--`` can end or change the element) and no U+2028/U+2029
    (line breaks to older JavaScript), each written as a JSON escape, so it parses back
    to the same value."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def packed_scene(scene: Mapping[str, Any]) -> str:
    """The scene as base64 of its gzip-compressed JSON (the same every time: no mtime)."""
    raw = json.dumps(scene, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode("ascii")


def player_module(player_js: str = PLAYER_JS) -> str:
    """player.js as the file's inline module: its entry point a local ``mountPlayer``, then
    the host (_HOST) that calls it."""
    if player_js.count(_ENTRY) != 1:
        raise ValueError("player.js must have exactly one `export default function (component)`")
    return player_js.replace(_ENTRY, _MOUNT) + _HOST


def _inline(text: str, tag: str) -> str:
    """Text that goes inside <tag> as it is: it must not be able to end the element."""
    if re.search(rf"</{tag}|<!--", text, flags=re.IGNORECASE):
        raise ValueError(f"this text would end its <{tag}> element early")
    return text


# The page around the player: its facts above it (hidden on a projector), and the type
# sizes of Streamlit's page (1rem = 16 px; presenter mode: ui.look.style.PRESENTER_FONT).
_PAGE_CSS = """
:root { --st-font: "%(family)s", "Source Sans", system-ui, -apple-system, "Segoe UI",
  Roboto, "Helvetica Neue", Arial, sans-serif; --st-text-color: #31333f; }
html { font-size: 16px; }
html.presenter { font-size: %(presenter_font)s; }
body { margin: 0; padding: 1rem 2rem 2rem; font-family: var(--st-font);
  color: var(--st-text-color); background: #fff; }
html.presenter body { padding: 0.6rem 1.2rem 1rem; }
html.presenter .about { display: none; }
.about { font-size: 0.95rem; line-height: 1.45; margin: 0 0 0.6rem; }
.about h1 { font-size: 1.6rem; margin: 0 0 0.3rem; }
.about p { margin: 0.1rem 0; }
.about .cut, .about .error { color: #6b4a00; font-weight: 600; }
.about .quiet { color: #555; }
.about [hidden] { display: none; }
"""

_TEMPLATE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
script-src '{script_hash}'; style-src 'unsafe-inline'; img-src data:; font-src data:">
<title>{heading} (Perceptron Lab)</title>
<style id="file-font">{font_css}</style>
<style>{css}</style>
</head>
<body>
<header class="about">
<h1>{heading}</h1>
<p id="about-data"></p>
<p id="about-settings" class="quiet"></p>
<p id="about-cut" class="cut" hidden></p>
<p id="about-made" class="quiet"></p>
<p id="about-link" hidden>{live} <a id="about-link-a"></a></p>
<p id="about-error" class="error" hidden></p>
<noscript><p class="error">{noscript}</p></noscript>
</header>
<main><div id="player"></div></main>
<script type="application/json" id="run-meta">{meta}</script>
<script type="text/plain" id="run-scene" data-encoding="gzip+base64">{scene}</script>
<script type="module">{js}</script>
</body>
</html>
"""


def build(
    scene: Mapping[str, Any],
    meta: Meta,
    *,
    player_js: str = PLAYER_JS,
    player_css: str = PLAYER_CSS,
) -> bytes:
    """The whole file, UTF-8: ``scene`` (``figures.lecture_scene`` with its ``run``) played
    by the player, under what ``meta`` says about the run."""
    js = _inline(player_module(player_js), "script")
    digest = base64.b64encode(hashlib.sha256(js.encode("utf-8")).digest()).decode("ascii")
    page_css = _PAGE_CSS % {"presenter_font": PRESENTER_FONT, "family": FONT_FAMILY}
    css = _inline(page_css + player_css, "style")
    code = words.language()
    page = _TEMPLATE.format(
        lang={"zh": "zh-Hans", words.PSEUDO: "en"}.get(code, code),
        heading=html.escape(t("The perceptron, step by step")),
        live=html.escape(t("The live app, with this run's settings:")),
        noscript=html.escape(t("This file needs JavaScript to play the run.")),
        script_hash=f"sha256-{digest}",
        font_css=_inline(FONT_CSS, "style"),
        css=css,
        meta=script_json(asdict(meta)),
        scene=packed_scene(scene),
        js=js,
    )
    return page.encode("utf-8")


def run_file(run: Run, *, start: int, stop: int, data_name: str, meta: Meta) -> bytes:
    """The file of steps ``start..stop`` of ``run``: one scene window that holds them all."""
    scene = lecture_scene(run, start=start, stop=stop, data_name=data_name)
    scene["run"] = "file"
    return build(scene, meta)
