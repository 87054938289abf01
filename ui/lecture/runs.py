"""The lecture's cached scene (``ui.server.cache``); its run is ``ui.compute.runs.lecture_run``."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ui import words
from ui.compute.model import RunSettings
from ui.compute.runs import lecture_run
from ui.lecture.figures import lecture_scene
from ui.lecture.player import PLAYER_JS
from ui.server.cache import cached


@cached(max_mb=16, heavy=True)
def scene(
    X: np.ndarray,
    y: np.ndarray,
    settings: RunSettings,
    start: int,
    stop: int,
    data_name: str,
    run_id: str,
    lang: str,
) -> bytes:
    """Steps ``start..stop`` of the lecture's run (``run_id``), drawn and written for the
    browser, as UTF-8 JSON: encoded once here, not on every run that sends it (Streamlit
    would ``json.dumps`` a dict twice a run; bytes it only hashes).

    ``lang`` is the language of the run that asks (``ui.words.language()``), which the
    scene's words and numbers are written in: a part of the key, so a scene cached for one
    language is never sent to a reader of another."""
    run = lecture_run(X, y, settings)
    data: dict[str, Any] = lecture_scene(run, start=start, stop=stop, data_name=data_name)
    data["run"] = run_id
    # the player's own words: sent with the scene, once a window, not with every step
    data["words"] = words.script_words(PLAYER_JS, lang)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
