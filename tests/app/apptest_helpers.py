"""Opening the app through AppTest, as a student's browser would with a URL."""

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

PLAYER = "perceptron_lecture"  # the lecture page's components (ui.lecture.player)
SCENE = "perceptron_lecture_scene"
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_app(
    page: str | None = None,
    query: dict[str, str] | None = None,
    session: dict[str, Any] | None = None,
) -> AppTest:
    """Run the app with these URL parameters (and session values), then open ``page``
    (e.g. ``"pages/lecture.py"``); the caller checks for exceptions."""
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    for key, value in (session or {}).items():
        at.session_state[key] = value
    at.run()
    if page is not None:
        at.switch_page(page).run()
    return at


def lecture_scene(at: AppTest) -> dict[str, Any]:
    """What the lecture page sent its player: the scene (a window of steps, sent by a
    component of its own) and the step ``t`` (sent to the player), as the browser joins them."""
    sent = {
        e.proto.component_name: json.loads(e.proto.json or e.proto.bytes)  # the scene: bytes
        for e in at.get("bidi_component")
    }
    scene, step = sent[SCENE], sent[PLAYER]
    assert (scene["run"], scene["start"], scene["stop"]) == (
        step["run"],
        step["start"],
        step["stop"],
    ), "the player's step is not in the scene sent"
    return scene | step


def margin_scene(at: AppTest) -> dict[str, Any]:
    """What the margin lab sent its instrument: the surface, the numbers, the last sentence."""
    sent = [e.proto for e in at.get("bidi_component")]
    found = [
        json.loads(p.json or p.bytes) for p in sent if p.component_name.endswith("margin_canvas")
    ]
    assert len(found) == 1, "the margin lab draws one instrument"
    return found[0]


def margin_numbers(at: AppTest) -> dict[str, str]:
    """The margin lab's numbers as the instrument shows them: label -> value."""
    return {n["label"]: n["value"] for n in margin_scene(at)["numbers"]}


def lecture_view(at: AppTest) -> dict[str, Any]:
    """The lecture page's step view at the server's step t (what the browser draws)."""
    scene = lecture_scene(at)
    return scene["steps"][scene["t"] - scene["start"]]


def lecture_status(at: AppTest) -> str:
    """The lecture page's status line as the browser writes it: the dataset, epoch and
    example, step t, mistakes k, γ, R, the bound and the end of the run, joined by " · "."""
    scene = lecture_scene(at)
    view = scene["steps"][scene["t"] - scene["start"]]
    parts = [scene["name"], *view["status"], *scene["facts"]]
    return " · ".join(parts + ([view["end"]] if view["end"] else []))


def lecture_step(at: AppTest, t: int) -> AppTest:
    """What the browser does after a burst of steps (Step, Back, Next mistake, ...) that
    ended at step ``t``: it reports t to the server (``player.on_event``), which reruns.

    ``AppTest`` cannot fire component events, so the report's effect is applied to the
    session the way ``on_event`` applies it; the browser's side is tested in Playwright.
    """
    from ui.lecture.player import SEQ, on_event

    session: dict[str, Any] = {"lec_t": at.session_state["lec_t"]}
    seq = (at.session_state[SEQ] if SEQ in at.session_state else 0) + 1  # noqa: SIM401
    on_event(session, {"t": t, "seq": seq}, n_steps=lecture_scene(at)["T"])
    at.session_state["lec_t"] = session["lec_t"]
    at.session_state[SEQ] = session[SEQ]
    return at.run()


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    """``open_app`` on ``page`` (e.g. ``"pages/spam.py"``), which must show no exception."""
    at = open_app(page, query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def metrics(at: AppTest) -> dict[str, str]:
    """Every ``st.metric`` on the page, label -> value as shown."""
    return {m.label: m.value for m in at.metric}


def markdown(at: AppTest) -> str:
    """All the page's markdown, joined."""
    return " ".join(m.value for m in at.markdown)
