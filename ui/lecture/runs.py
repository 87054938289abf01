"""The lecture's cached figure (``kit.cache``); its run is ``kit.runs.lecture_run``."""

from __future__ import annotations

from typing import Any

import numpy as np

from ui.kit.cache import cached
from ui.kit.model import RunSettings
from ui.kit.runs import lecture_run
from ui.lecture.figures import lecture_figure


@cached(max_mb=16, heavy=True)
def lecture_chart(
    X: np.ndarray, y: np.ndarray, settings: RunSettings, start: int, stop: int, presenter: bool
) -> dict[str, Any]:
    """The lecture figure at step ``start`` with one frame per step up to ``stop``."""
    run = lecture_run(X, y, settings)
    return lecture_figure(
        run,
        start,
        replay=range(start, stop + 1),
        height=820 if presenter else 700,
        font_size=18 if presenter else 13,
    )
