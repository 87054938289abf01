"""The class page's pieces that are not widgets: what opening a submission in the lecture
does, and the challenge's lecture settings."""

from __future__ import annotations

import perceptron_store as store_mod
from ui.app import links
from ui.app.state import Session, assign, passes_within
from ui.classmode import entries as en
from ui.words import t

# the challenge's run, which the lecture shows the same way: w = 0, η = 1, the given order,
# the bias feature 1 last, mistake iff y·w·x ≤ 0 (the margin lab's settings, c = 1)
CHALLENGE_LECTURE = {
    "lec_bias": True,
    "lec_eta": 1.0,
    "lec_w0": "zero",
    "lec_order": "given",
    "lec_rule": "nonpositive",
    "lec_scale": "given",
}


def open_submission(session: Session, sub: en.Submission, rank: int) -> str | None:
    """Make a submission the lecture's run from step 0; an error sentence or None."""
    try:
        found = links.call(store_mod.load_dataset, sub.data)
    except (store_mod.StoreDown, ValueError):
        found = None
    if found is None:
        return t("That submission's points cannot be opened right now.")
    X, y = found
    for key, value in CHALLENGE_LECTURE.items():
        assign(session, key, value)
    assign(session, "lec_max_epochs", passes_within(len(y)))  # the challenge's limit for n points
    session[links.CUSTOM] = (X, y, t("submission #{rank} of the challenge").format(rank=rank))
    session[links.LINKED] = sub.data  # new data: the lecture restarts at step 0 by itself
    return None
