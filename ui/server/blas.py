"""One BLAS thread per server process (imported once, by ``app.py``).

Every product the pages compute is small in one dimension (w·x with 2, 3 or 65
features, for up to a few thousand vectors and points), so OpenBLAS's extra
threads only wait for each other: on two shared cores the E_p grid of the SGD
page (6,561 x 500 margins) took 0.11 s of CPU with two threads and 0.016 s with
one, the variants page's many runs on the digits 0.5 to 1 s against 0.06 s.
Sessions already run in parallel threads of their own; one BLAS thread each is
what keeps one student's page from taking the others' cores.
"""

from __future__ import annotations

# threadpoolctl limits the libraries loaded so far: load both OpenBLAS copies first
# (numpy's, and scipy's own, which perceptron_core's linear programs bring in)
import numpy  # noqa: F401
import scipy.linalg  # noqa: F401
from threadpoolctl import threadpool_info, threadpool_limits

LIMIT = threadpool_limits(limits=1, user_api="blas")  # process-wide, for the server's life


def blas_threads() -> dict[str, int]:
    """Threads of every BLAS library loaded, by file name (all 1 after this import)."""
    return {
        info["filepath"].rsplit("/", 1)[-1]: info["num_threads"]
        for info in threadpool_info()
        if info["user_api"] == "blas"
    }
