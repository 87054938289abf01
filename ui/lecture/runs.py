"""The lecture's cached scene (``kit.cache``); its run is ``kit.runs.lecture_run``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ui.kit.cache import cached
from ui.kit.model import RunSettings
from ui.kit.runs import lecture_run
from ui.lecture.figures import lecture_scene


@cached(max_mb=16, heavy=True)
def scene(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, start: int, stop: int, data_name: str
) -> dict[str, Any]:
    """Steps ``start..stop`` of the lecture's run, drawn and written for the browser."""
    run = lecture_run(X, y, settings)
    return lecture_scene(run, start=start, stop=stop, data_name=data_name)
