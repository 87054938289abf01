"""The lecture's run as one offline HTML file (``ui.lecture.export``, pure): what it holds
(every step, or where it was cut), how big it is, its name, its link back, and that no
outside text in it is markup. That the file plays offline: tests/browser/test_lecture_export.py.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
import tomllib
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

from perceptron_core import make_dataset
from ui import VERSION
from ui.compute.model import Run, RunSettings, record_run
from ui.lecture import export
from ui.lecture.figures import lecture_scene, status

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = "</script><img src=x onerror=alert(1)>\u2028<!-- & \u2029"
SAFE_NAME = re.compile(r"^perceptron-[a-z0-9-]+\.html$")


@cache
def run_of(name: str, n: int, max_epochs: int = 50) -> Run:
    X, y = make_dataset(name, n=n, seed=0)
    return record_run(X, y, RunSettings(max_epochs=max_epochs))


def meta(name: str = "40 separable points", *, t: int = 0, cut: str = "", link=None):
    return export.Meta(
        name=name,
        points=40,
        summary="Run: bias on · η = 1",
        settings="bias on · η = 1 · at most 50 epochs",
        version=VERSION,
        exported="2026-11-30",
        link=link,
        t=t,
        cut=cut,
    )


def whole_file(run: Run, name: str = "40 separable points") -> bytes:
    T = run.trace.n_steps
    start, stop = export.file_range(0, T)
    return export.run_file(run, start=start, stop=stop, data_name=name, meta=meta(name))


class Parts(HTMLParser):
    """Every start tag of a page, and each <script>'s attributes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._in: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "script":
            self._in = dict(attrs)
            self.scripts.append((self._in, ""))

    def handle_data(self, data):
        if self._in is not None:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._in = None


def parts(page: bytes) -> Parts:
    p = Parts()
    p.feed(page.decode("utf-8"))
    return p


def scripts(page: bytes) -> dict[str, str]:
    """The page's scripts by type: application/json, text/plain (the scene), module."""
    return {attrs["type"] or "": text for attrs, text in parts(page).scripts}


def scene_in(page: bytes) -> dict:
    return json.loads(gzip.decompress(base64.b64decode(scripts(page)["text/plain"])))


# --- what it holds -----------------------------------------------------------------------


def test_a_run_longer_than_a_window_carries_every_step_with_its_status():
    run = run_of("noisy", 40)  # not separable: 50 epochs of 40, 2,000 steps
    T = run.trace.n_steps
    assert T == 2_000 > 100  # longer than the live page's scene window (player.WINDOW)
    scene = scene_in(whole_file(run))
    assert (scene["start"], scene["stop"], scene["T"]) == (0, T, T)
    assert [v["t"] for v in scene["steps"]] == list(range(T + 1))
    for t in (0, 1, 99, 100, 101, 1_234, T):  # the same status the live page shows
        assert scene["steps"][t]["status"] == status(run, t)
    live = lecture_scene(run, start=1_200, stop=1_300, data_name="40 separable points")
    assert scene["steps"][1_234] == live["steps"][34]  # each step as a live window draws it


def test_the_default_run_is_under_300_kB_and_a_2000_step_run_under_1_5_MB():
    default = whole_file(run_of("separable", 40))  # the lecture's default: 40 points, seed 0
    long = whole_file(run_of("noisy", 40))  # 2,000 steps
    at_limit = whole_file(run_of("xor", 100))  # 5,000 steps: the most a file holds
    print(
        f"\nfile sizes: default run ({run_of('separable', 40).trace.n_steps} steps) "
        f"{len(default) / 1000:.1f} kB; 2,000 steps {len(long) / 1000:.1f} kB; "
        f"{export.MAX_FILE_STEPS:,} steps (xor, 100 points) {len(at_limit) / 1000:.1f} kB"
    )
    assert len(default) <= 300_000
    assert len(long) <= 1_500_000
    assert len(at_limit) <= 1_500_000
    assert len(scene_in(at_limit)["steps"]) == export.MAX_FILE_STEPS + 1


def test_a_run_too_long_for_a_file_is_cut_around_the_step_and_says_where():
    M = export.MAX_FILE_STEPS
    assert export.file_range(37, 80) == (0, 80)
    assert export.file_range(0, M) == (0, M)
    T = 12_345
    assert export.file_range(0, T) == (0, M)
    assert export.file_range(7_000, T) == (M, 2 * M)
    assert export.file_range(T, T) == (T - M, T)  # the end: the last M steps
    assert export.cut_text(0, 80, 80) == ""
    said = export.cut_text(M, 2 * M, T)
    assert "steps 5,000 to 10,000 of the run's 12,345" in said
    assert "too long for one file (at most 5,000 steps)" in said
    assert export.download_label(0, 80, 80) == "Download this run (HTML, 80 steps, plays offline)"
    label = export.download_label(M, 2 * M, T)
    assert "steps 5,000 to 10,000 of 12,345" in label and "at most 5,000 steps" in label


def test_a_cut_file_holds_its_range_and_its_facts_say_so():
    run = run_of("noisy", 40)
    said = export.cut_text(1_000, 1_500, 2_000)
    page = export.run_file(run, start=1_000, stop=1_500, data_name="x", meta=meta(cut=said))
    scene = scene_in(page)
    assert (scene["start"], scene["stop"], scene["T"]) == (1_000, 1_500, 2_000)
    assert json.loads(scripts(page)["application/json"])["cut"] == said


# --- outside text --------------------------------------------------------------------------


def test_a_hostile_dataset_name_is_data_never_markup():
    run = run_of("separable", 40)
    page = whole_file(run, HOSTILE)
    found = parts(page)
    assert "img" not in found.tags  # no element came from the name
    assert sorted(found.tags) == sorted(
        ["html", "head", "meta", "meta", "meta", "title", "style", "style", "body", "header", "h1"]
        + ["p"] * 7
        + ["a", "noscript", "main", "div", "script", "script", "script"]
    )
    text = page.decode("utf-8")
    assert text.lower().count("</script") == 3  # each script's own end, none from the name
    assert "\u2028" not in text and "\u2029" not in text
    assert "<img" not in text and "<!--" not in text
    facts = json.loads(scripts(page)["application/json"])  # escaped, and parsed back whole
    assert facts["name"] == HOSTILE
    assert scene_in(page)["name"] == HOSTILE  # the player writes it with textContent
    assert "innerHTML" not in scripts(page)["module"]


def test_script_json_escapes_what_could_end_or_change_a_script_element():
    value = {"a": "</script><!--&\u2028\u2029", "b": [1, 2.5, None, True]}
    text = export.script_json(value)
    assert not set("<>&\u2028\u2029") & set(text)
    assert json.loads(text) == value


@pytest.mark.parametrize(
    ("dataset", "start", "stop", "T", "name"),
    [
        ("separable", 0, 80, 80, "perceptron-separable-80steps.html"),
        ("four_points", 0, 4, 4, "perceptron-four-points-4steps.html"),
        ("Données été.CSV", 0, 12, 12, "perceptron-donnees-ete-csv-12steps.html"),
        ("noisy", 5_000, 10_000, 12_345, "perceptron-noisy-steps-5000-10000.html"),
        ("!!!", 0, 3, 3, "perceptron-data-3steps.html"),
        (HOSTILE, 0, 3, 3, "perceptron-script-img-src-x-onerror-alert-1-3steps.html"),
        ("../../etc/passwd\x00.sh", 0, 3, 3, "perceptron-etc-passwd-sh-3steps.html"),
    ],
)
def test_the_file_name_is_only_lowercase_letters_digits_and_hyphens(dataset, start, stop, T, name):
    made = export.file_name(dataset, start, stop, T)
    assert made == name
    assert SAFE_NAME.match(made)


# --- the player in the file ------------------------------------------------------------------


def test_the_file_runs_the_live_players_code_and_its_policy_allows_only_that_script():
    page = whole_file(run_of("separable", 40))
    module = scripts(page)["module"]
    assert "export default" not in module
    body = export.PLAYER_JS.replace(
        "export default function (component) {", "const mountPlayer = function (component) {"
    )
    assert module.startswith(body)  # player.js itself, its entry point named
    digest = base64.b64encode(hashlib.sha256(module.encode("utf-8")).digest()).decode()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page.decode())
    assert policy is not None
    assert f"script-src 'sha256-{digest}'" in policy.group(1)
    assert "default-src 'none'" in policy.group(1)  # nothing fetched, nothing connected
    # nothing in the code it runs asks the network (the addresses in it are XML namespaces)
    assert re.search(r"\bfetch\(|XMLHttpRequest|WebSocket|EventSource|\bimport\(", module) is None


def test_a_player_without_its_entry_point_or_with_an_early_end_is_refused():
    with pytest.raises(ValueError, match="export default"):
        export.player_module("function f() {}")
    run = run_of("separable", 40)
    scene = lecture_scene(run, start=0, stop=4, data_name="x")
    bad = export.PLAYER_JS + "\n// </script>"
    with pytest.raises(ValueError, match="end its <script>"):
        export.build(scene, meta(), player_js=bad)


# --- the link back, the version ----------------------------------------------------------------


def test_the_link_is_the_live_page_with_the_runs_settings_or_none():
    url = "http://127.0.0.1:8501/lecture"
    session = {"data_name": "noisy", "lec_bias": False, "lec_t": 12}
    link = export.live_link(url, session)
    assert link is not None and link.startswith(url + "?")
    assert "data_name=noisy" in link and "lec_t=12" in link
    assert export.live_link(None, session) is None  # the server does not know its address
    assert export.live_link("file:///tmp/x.html", session) is None
    assert export.live_link("javascript:alert(1)", session) is None
    in_class = {**session, "room_url": {"room": "ABCD", "seat": "s1"}}
    assert "room=" not in (export.live_link(url, in_class) or "")
    own = {"data_custom": ("X", "y", "mine.csv")}  # a student's points, not in the store
    assert export.live_link(url, own) is None
    stored = {**own, "data_link": "abcdef123456"}
    assert "data=abcdef123456" in (export.live_link(url, stored) or "")


def test_the_version_the_file_states_is_the_projects():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == VERSION
    facts = json.loads(scripts(whole_file(run_of("separable", 40)))["application/json"])
    assert facts["version"] == VERSION
