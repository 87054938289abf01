"""The offline file's font (``ui/lecture/fonts/``, cut by ``scripts/subset_file_font.py``):
Streamlit's Source Sans cut to what the file shows, so the file's text is the live page's.

- every character the player's source and a file's own text show, that the original font
  has, is in the cut; each kept character is as wide as in the original (lines break
  where the live page breaks them);
- it was cut from the pinned Streamlit's font (its SHA-256), and after an upgrade this
  fails until the script is run again;
- it is renamed (Source is a Reserved Font Name of its licence), licence kept;
- a file carries exactly these bytes, as a data: URL its policy allows.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import re
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from fontTools.ttLib import TTFont

from perceptron_core import RULES
from scripts import subset_file_font as cutter
from tests.ui.lecture.test_lecture_export import meta, run_of
from ui.compute.model import SCALE_NAMES
from ui.lecture import export
from ui.lecture.steps import settings_summary

ROOT = Path(__file__).resolve().parents[3]
MANIFEST = json.loads(cutter.MANIFEST.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def original() -> TTFont:
    return TTFont(cutter.original_font())


@pytest.fixture(scope="module")
def subset() -> TTFont:
    return TTFont(cutter.SUBSET)


def strings(value: Any) -> str:
    """Every string inside a JSON value, joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "".join(strings(v) for v in value.values())
    if isinstance(value, list):
        return "".join(strings(v) for v in value)
    return ""


def a_file_s_text() -> str:
    """What a file of the noisy run says about itself and what its scene carries, and every
    settings summary a file can state (each mistake rule, scaling, w0, order)."""
    run = run_of("noisy", 40)
    page = export.run_file(run, start=0, stop=run.trace.n_steps, data_name="d", meta=meta())
    scene = export.lecture_scene(run, start=0, stop=40, data_name="Noisy (n = 40, seed 0)")
    text = page.decode("utf-8")
    visible = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", " ", text, flags=re.S)
    summaries = [
        settings_summary(
            {"lec_rule": r, "lec_scale": sc, "lec_w0": w0, "lec_order": o, "lec_bias": b}
            | {"lec_eta": 0.5}
        )
        for r, sc, w0, o, b in product(
            RULES, SCALE_NAMES, ("zero", "random", "typed"), ("given", "shuffle"), (True, False)
        )
    ]
    return (
        visible
        + strings(scene)
        + strings(json.loads(export.script_json(vars(meta()))))
        + ("".join(summaries))
    )


def test_the_cut_keeps_every_character_the_file_shows(original: TTFont, subset: TTFont):
    full, kept = original.getBestCmap(), subset.getBestCmap()
    shown = {chr(c) for c in cutter.shown(ROOT)} | set(a_file_s_text())
    assert {"γ", "‖", "²", "·", "≤", "▶", "η"} <= shown  # the scans found the maths
    drawable = {c for c in shown if ord(c) in full}
    missing = sorted(c for c in drawable if ord(c) not in kept)
    assert not missing, f"the file's font lacks {''.join(missing)!r}: run the script again"
    # each as wide as in the original (every weight: the advance is the default's)
    for c in drawable:
        assert subset["hmtx"][kept[ord(c)]][0] == original["hmtx"][full[ord(c)]][0], c
    assert len(kept) < len(full) / 3  # a cut, still


def test_it_was_cut_from_the_pinned_streamlits_font():
    pinned = re.search(r"^streamlit==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pinned and importlib.metadata.version("streamlit") == pinned.group(1)
    assert MANIFEST["streamlit"] == pinned.group(1)
    path = cutter.original_font()
    assert path.name == MANIFEST["original"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == MANIFEST["original_sha256"]
    assert hashlib.sha256(cutter.SUBSET.read_bytes()).hexdigest() == MANIFEST["subset_sha256"]


def test_it_keeps_the_weights_and_the_licence_under_another_name(subset: TTFont):
    assert [a.axisTag for a in subset["fvar"].axes] == ["wght"]  # 400, 600 and 700 drawn
    names = {r.nameID: r.toUnicode() for r in subset["name"].names if r.platformID == 3}
    assert "SIL Open Font License" in names[13]
    assert names[1].startswith(cutter.FAMILY.replace(" ", ""))
    renamed = {i: n for i, n in names.items() if i not in cutter.LEGAL}
    assert not [n for n in renamed.values() if "Source" in n], renamed


def test_a_file_carries_these_bytes_as_its_first_font():
    run = run_of("separable", 40)
    text = export.run_file(run, start=0, stop=run.trace.n_steps, data_name="d", meta=meta())
    text = text.decode("utf-8")
    face = re.search(r'<style id="file-font">@font-face \{ font-family: "([^"]+)";.*?</', text)
    assert face and face.group(1) == cutter.FAMILY
    data = re.search(r"url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)", face.group(0))
    assert data and base64.b64decode(data.group(1)) == cutter.SUBSET.read_bytes()
    assert f'--st-font: "{cutter.FAMILY}",' in text  # the page's first choice
    assert "font-src data:" in text
