"""A token bucket that caps how often one session writes to the store."""

from __future__ import annotations

import math
import threading
import time


class RateLimit:
    """A token bucket, one per session: ``burst`` writes at once, then ``rate_per_s``.

    ``allow(now)`` takes a token if there is one; ``now`` defaults to
    ``time.monotonic()`` (a clock that goes back gives no tokens). Thread-safe.
    """

    def __init__(self, rate_per_s: float, burst: int) -> None:
        if not (math.isfinite(rate_per_s) and rate_per_s > 0):
            raise ValueError("rate_per_s must be a positive number.")
        if isinstance(burst, bool) or not isinstance(burst, int) or burst < 1:
            raise ValueError("burst must be a whole number, at least 1.")
        self.rate_per_s = float(rate_per_s)
        self.burst = burst
        self._tokens = float(burst)
        self._last: float | None = None
        self._lock = threading.Lock()

    def allow(self, now: float | None = None, cost: float = 1.0, *, take: bool = True) -> bool:
        """Take ``cost`` tokens (one write; a writer's bytes) if there are that many
        (``take=False``: only say whether there are)."""
        t = time.monotonic() if now is None else float(now)
        with self._lock:
            if self._last is not None and t > self._last:
                self._tokens = min(self.burst, self._tokens + (t - self._last) * self.rate_per_s)
            if self._last is None or t > self._last:
                self._last = t
            if self._tokens >= cost:
                if take:
                    self._tokens -= cost
                return True
            return False
