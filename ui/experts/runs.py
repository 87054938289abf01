"""Cached engine calls for the experts and spam pages (``ui.server.cache``: by value,
in a byte budget).

Both runs are small (the experts simulation is capped at 100 analysts and 2000 days,
about 0.1 s and 1.6 MB of weights; the spam run is 12 e-mails), so a few entries each.
"""

from __future__ import annotations

from perceptron_core import ExpertsRun, simulate_experts
from ui.server.cache import cached


@cached(max_mb=8, heavy=True)
def experts_run(n: int, k: int, days: int, behaviour: str, seed: int) -> ExpertsRun:
    """``simulate_experts``, cached."""
    return simulate_experts(n=n, k=k, days=days, behaviour=behaviour, seed=seed)
