"""The lecturer's phone as the projector's remote: ``/remote`` (the routes: ``ui.live.light``).

The remote link (the Class page's lecturer's controls) is ``/remote?room=<code>#key=<secret>``:
the secret in the fragment, which no server, log or Referer is sent; the page keeps it in
its tab (``sessionStorage``) and drops it from the address bar. Each button posts
``{"code", "key", "act"}`` to ``/api/remote``, refused unless the key is the room's secret:

- *Step*, *Back*, *Next mistake* and *Play/Pause* are pressed for the projector's player
  (``classroom.press``: the room's state on the live channel); Step by step's player on
  the projector does each as if its own button were pressed (``player_follow.js``), so the
  projector's page stays the one writer of the lecture's step;
- *Ask the class*, *Vote again* and *Reveal* are the class strip's own actions on the room
  (the question at the lecture's step, the second vote, the reveal that steps the lecture
  past the example, which the projector's player goes to).

Every answer is the remote's view: the lecture's step, the question and how many answered.
The page hears the step on the class channel (the lecturer's ticket) and asks for the
view again while a question is open, for its count of answers.

May import: ``ui.app``, ``ui.classmode``, ``ui.lecture`` (light, question), ``ui.live``,
``ui.look``, ``ui.server``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from ui import words
from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.classmode.seat import Refused, reach
from ui.classmode.votes import question_state
from ui.lecture import light, question
from ui.live import route as live_route
from ui.live.light import REMOTE_PATH, Asker, Joined
from ui.live.route import under
from ui.look.palette import W_COLOUR
from ui.server import clients
from ui.server import code as component_code
from ui.words import N_, t

HOST_JS = (Path(__file__).with_name("remote.js")).read_text(encoding="utf-8")
PAGE_CSS = (
    light.PAGE_CSS
    + f"""
.rm-view {{ font-size: 1.15rem; margin: 0.4rem 0 0.8rem; }}
.rm-view p {{ margin: 0.2rem 0; }}
.rm-pad {{ display: grid; grid-template-columns: 1fr 1fr; gap: 0.7rem; max-width: 32rem; }}
.rm-pad button {{ font: inherit; font-size: 1.3rem; font-weight: 600; min-height: 4.5rem;
  border-radius: 0.8rem; border: 2px solid {W_COLOUR}; background: #fff; color: {W_COLOUR};
  cursor: pointer; touch-action: manipulation; }}
.rm-pad button.rm-main {{ background: {W_COLOUR}; color: #fff; }}
.rm-pad button.rm-wide {{ grid-column: 1 / -1; }}
.rm-pad button[disabled] {{ opacity: 0.45; cursor: not-allowed; }}
.rm-pad button:active {{ transform: scale(0.98); }}
"""
)
FILES = {
    "host": component_code.keep("perceptron.remote", words.SCRIPT + HOST_JS, ".js"),
    "page_css": component_code.keep("perceptron.remote", PAGE_CSS, ".css"),
    "live": light.FILES["live"],
}
PLAYER_ACTS = {"step": "step", "back": "back", "next": "next", "play": "play"}
NOT_ITS_KEY = N_(
    "This remote's key is not this class's: open the remote link from the Class page "
    "(Lecturer's controls) again."
)


def _body() -> str:
    """The remote's body, in this request's language (its words escaped)."""
    e = {
        "title": t("The remote"),
        "nokey": t(
            "Open this remote with its link from the Class page (*Lecturer's controls*, "
            "*The remote, on your phone*): the link holds the class's key."
        ),
        "main": t("The projector's remote"),
        "pad": t("The lecture on the projector"),
        "back": t("◀ Back"),
        "step": t("Step ▶"),
        "next": t("Next mistake »"),
        "play": t("Play"),
        "ask": t("Ask the class"),
        "again": t("Vote again"),
        "reveal": t("Reveal"),
    }
    e = {k: html.escape(v) for k, v in e.items()}
    nokey = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", e["nokey"])  # its markdown's emphasis
    return f"""<body>
<main>
<header class="hall-head"><h1>{e["title"]}</h1><p id="rm-class"></p></header>
<p id="rm-nokey" class="hall-box" hidden>{nokey}</p>
<section id="rm-main" aria-label="{e["main"]}" hidden>
<div class="rm-view" aria-live="polite"><p><strong id="rm-step"></strong></p>
<p id="rm-question"></p></div>
<div class="rm-pad" role="group" aria-label="{e["pad"]}">
<button type="button" data-act="back">{e["back"]}</button>
<button type="button" data-act="step" class="rm-main">{e["step"]}</button>
<button type="button" data-act="next">{e["next"]}</button>
<button type="button" data-act="play" id="rm-play">{e["play"]}</button>
<button type="button" data-act="ask" class="rm-wide">{e["ask"]}</button>
<button type="button" data-act="again">{e["again"]}</button>
<button type="button" data-act="reveal">{e["reveal"]}</button>
</div>
<div id="hall-channel" hidden></div>
</section>
<p id="rm-said" class="hall-said" role="alert"></p>
{light.language_switch()}
</main>
</body>
</html>
"""


def page(code_text: str, asker: Asker, *, base: str = "") -> bytes:
    """The remote's page for class ``code_text`` (its key comes from the link's fragment),
    in the request's language."""
    with words.speaking(light.request_language(asker)):
        return _page(code_text, base=base)


def _page(code_text: str, *, base: str = "") -> bytes:
    code = cr.normal_code(code_text) if code_text else None
    files = {k: component_code.url(v, base) for k, v in FILES.items()}
    data = {
        "code": code or "",
        "shown": cr.shown_code(code) if code else "",
        "said": "" if code else t("This link names no class: open the remote link again."),
        "urls": {
            "remote": light.with_lang(under(base, REMOTE_PATH)),
            "live": under(base, live_route.PATH),
        },
        "code_files": {"live": files["live"]},
        "words": words.script_words(HOST_JS),
    }
    title = (
        t("Remote of class {code}").format(code=cr.shown_code(code)) if code else t("The remote")
    )
    page_head = light.head(
        title, [files["page_css"]], [files["live"]], "rm-data", data, files["host"]
    )
    return (page_head + _body()).encode()


def view(room: cr.Room) -> dict[str, Any]:
    """What the remote shows of ``room``: the lecture's step, the question and its count."""
    run = light.room_run(room)[3]
    T = int(run.trace.n_steps)
    step = max(0, min(T, channel.step_of(room.lecture_query)))
    q = room.question
    try:
        count = reach(cr.members, room)
    except Refused:
        count = 0
    said = question_state(room, q, count, live=False).replace("**", "") if q else ""
    return {
        "t": step,
        "T": T,
        "question": said or t("No question open."),
        "open": q is not None and not q.revealed,
        "again": q is not None and not q.revealed and q.rounds < cr.MAX_ROUNDS,
        "playing": room.playing is not None,
        "ticket": live_route.sign(channel.key_of_room(room), room.code, "lecturer"),
        "said": "",
    }


def _act(room: cr.Room, key: str, act: str) -> cr.Room | str:
    """``act`` done on ``room`` (its secret ``key``): the room after, or why not."""
    if act in PLAYER_ACTS:
        return reach(cr.lecturer_update, room.code, key, lambda r: cr.press(r, PLAYER_ACTS[act]))
    if act == "again":
        return reach(cr.lecturer_update, room.code, key, cr.vote_again)
    if act == "ask":
        if room.question is not None and not room.question.revealed:  # a second tap
            return t("A question is open: reveal it before asking the next.")
        run = light.room_run(room)[3]
        made = question.at_step(run, channel.step_of(room.lecture_query))
        if isinstance(made, str):
            return made
        return reach(cr.lecturer_update, room.code, key, lambda r: cr.ask(r, made))
    q = room.question  # reveal
    if q is None or q.revealed:
        return t("There is no open question to reveal.")
    # past the example asked about (a bank question: its evidence), as the class strip does
    shown = (q.reveal_t if q.reveal_t >= 0 else q.t) if q.bank else q.t + 1
    after = {**room.lecture_query, channel.STEP_KEY: str(shown)}
    return reach(
        cr.lecturer_update,
        room.code,
        key,
        lambda r: cr.press(cr.publish(cr.reveal(r), after), "at", shown),
    )


def press(code_text: str, key: str, act: str, asker: Asker) -> Joined:
    """A press of the remote (``act``; "status": none) with the class's secret ``key``:
    the remote's view after it, or the sentence why not (nothing in the room changed), in
    the request's language."""
    with words.speaking(light.request_language(asker)):
        return _press(code_text, key, act, asker)


def _press(code_text: str, key: str, act: str, asker: Asker) -> Joined:
    client = clients.client_of(asker.peer, asker.headers, asker.cookies)
    if not clients.allow("remote", client):
        return Joined({"error": clients.refused("remote")}, 429)
    code = cr.normal_code(code_text)
    if code is None:
        return Joined({"error": cr.code_problem(code_text)}, 400)
    try:
        room = reach(cr.load_room, code, fresh=True)
        if room is None:
            return Joined(
                {"error": t("No class {code} is open.").format(code=cr.shown_code(code))}, 404
            )
        if not cr.holds_secret(room, key):
            return Joined({"error": t(NOT_ITS_KEY)}, 403)
        if room.closed:
            return Joined({"error": t("This class has ended."), "closed": True}, 410)
        said = ""
        if act != "status":
            done = _act(room, key, act)
            if isinstance(done, str):
                said = done
            else:
                room = done
                channel.tell(room)  # the projector and every page of the room hear it now
        return Joined({**view(room), "said": said})
    except Refused as refused:
        return Joined({"error": str(refused)}, 400)
