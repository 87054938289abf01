"""The lecture's step ``lec_t``: the one module that writes it.

The step belongs to one run: the shared dataset and the lecture's run settings
(``data_*``, ``lec_*``). The lecture remembers a fingerprint of them beside the
step (``lec_t_run``), and :func:`follow` restarts the run (step 0) when they
changed, wherever they were changed: the sidebar, the margin lab, the proof
page or the lecture's own settings. So nothing outside this package writes the
step, and shared code (``ui.app``, ``ui.compute``...) knows nothing of the lecture.

The first fingerprint of a session is taken as it is: the step then came from
the URL (a shared link ``?lec_t=12``) and belongs to the run the link describes.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ui.app.state import SETTINGS, Session, session_key

STEP = "lec_t"  # the setting (ui.app.state.SETTINGS): in the URL, so a link opens at its step
RUN = session_key("lec_t_run")  # the fingerprint of the run the step belongs to
_INPUTS = tuple(
    key for key in SETTINGS if key.startswith(("data_", "lec_")) and key != STEP
)  # the dataset's settings and the lecture's run settings


def fingerprint(session: Session, X: np.ndarray, y: np.ndarray) -> str:
    """A digest of the run's inputs: the data (X, y) and every data_* and lec_* setting
    but the step (the dataset's settings too: a new seed is a new run, as before)."""
    h = hashlib.blake2b(digest_size=16)
    for a in (X, y):
        a = np.ascontiguousarray(a, dtype=np.float64)
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    h.update(repr(tuple((key, session.get(key)) for key in _INPUTS)).encode())
    return h.hexdigest()


def restart(session: Session) -> None:
    """Restart the lecture's run: back to step 0, before the first example (w = w0)."""
    session[STEP] = 0


def go_to(session: Session, t: int) -> None:
    """Make step ``t`` of the current run the lecture's step."""
    session[STEP] = int(t)


def follow(session: Session, X: np.ndarray, y: np.ndarray) -> bool:
    """Restart the run if its data or settings changed since the step was set; True if so.

    Every page that shows or changes the lecture's run calls this with the shared
    dataset; the lecture page calls it before it reads the step.
    """
    now = fingerprint(session, X, y)
    before = session.get(RUN)
    session[RUN] = now
    if before is None or before == now:  # the session's first look keeps the URL's step
        return False
    restart(session)
    return True
