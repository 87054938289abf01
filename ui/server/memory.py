"""Give memory the server no longer uses back to the system.

Streamlit runs every script run in a thread of its own, and glibc's ``malloc``
gives each thread an arena of its own (up to eight per core); memory freed in an
arena stays with the process. After a burst of heavy opens, a server whose
Python objects took 500 MB kept 580 MB, and ``malloc_trim`` gave 90 MB back.
So the arenas are limited to ``ARENAS`` and, at most every ``TRIM_EVERY``
seconds, the end of a page run trims them (about 10 ms). Elsewhere than glibc
both do nothing.

glibc also raises its threshold for ``mmap`` each time a large block is freed (up to
32 MB), after which a page's numpy arrays come from the arenas and their memory stays
there when the page closes: 240 heavy pages opened one after another took the server
from 468 to 937 MB. With the threshold and the trim threshold fixed at ``MALLOC_BLOCK``,
a large block is the system's again when it is freed: 359 to 686 MB (docs/performance.md).
Set at this module's import for the threads made after it; the servers' launchers
(``scripts/run.py``, ``tools.streamlit_server``) also put them in the environment
(``MALLOC_ENV``), so that the threads made before the app's import obey them too.

Python's cyclic garbage collector looks at the youngest objects every
``GC_YOUNG`` allocations of containers, not every 700 (its default). A page run
allocates thousands of lists and dicts that live until the run ends; at 700 they
are found alive mid-run and moved to the older generations, which makes a full
collection of every session's objects (25-40 ms here, with 50 sessions rerunning
it) due every 20 runs of the lecture page with its Plotly chart, every 70 with its
scene. At ``GC_YOUNG`` most of them are gone before a collection looks,
and a full one comes every few hundred runs. Garbage in reference cycles waits for
at most ``GC_YOUNG`` allocations (a run or two) in the youngest generation.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time

ARENAS = 2
MALLOC_BLOCK = 128 * 1024  # bytes: a block this large is mapped, and given back when freed
MALLOC_ENV = {  # scripts/environment.py's SERVER_ENV says the same (a test compares them)
    "MALLOC_ARENA_MAX": str(ARENAS),
    "MALLOC_MMAP_THRESHOLD_": str(MALLOC_BLOCK),
    "MALLOC_TRIM_THRESHOLD_": str(MALLOC_BLOCK),
}
TRIM_EVERY = 30.0  # s
GC_YOUNG = 10_000  # container allocations between collections of the youngest generation
_M_ARENA_MAX = -8  # mallopt's parameter numbers in glibc's malloc.h
_M_MMAP_THRESHOLD = -3
_M_TRIM_THRESHOLD = -1

gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])

_lock = threading.Lock()
_last = time.monotonic()


def _glibc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.malloc_trim  # noqa: B018  (glibc only)
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _glibc()
if _LIBC is not None:
    _LIBC.mallopt(_M_ARENA_MAX, ARENAS)
    _LIBC.mallopt(_M_MMAP_THRESHOLD, MALLOC_BLOCK)
    _LIBC.mallopt(_M_TRIM_THRESHOLD, MALLOC_BLOCK)


def trim_now_and_then(now: float | None = None) -> bool:
    """``malloc_trim`` if the last one is over ``TRIM_EVERY`` s old; True if it ran."""
    global _last
    now = time.monotonic() if now is None else now
    if _LIBC is None or now - _last < TRIM_EVERY or not _lock.acquire(blocking=False):
        return False
    try:
        _last = now
        _LIBC.malloc_trim(0)
        return True
    finally:
        _lock.release()
