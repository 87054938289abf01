"""The class on a light page: a phone follows the lecture without Streamlit's frontend.

The QR code and the join link open ``/join?room=<code>`` (the routes: :mod:`ui.live.light`),
a page of a few kB whose code is the live page's own files (``/api/code/``, kept a year by
the browser): the same ``player.js`` draws the lecture, the same ``card.js`` the question
card, the same ``live.js`` opens the class channel, and ``light.js`` hosts them. What the
page says comes from here and is written as text: the class code, the nickname, the
challenge's words.

The seat is the seat the Streamlit pages take (``ui.classmode.arrive.take_seat``), kept in
the same cookie of the browser, so a student moves between the two pages in one seat:
*Explore on my own* opens the full app at the lecture's data, settings and step. The
lecture a page is sent is the room's own, read from the store: its URL form made a run as
a page's session would (``ui.app.state.init``, the cached run and scene), with no session.

May import: ``ui.app``, ``ui.classmode``, ``ui.compute``, ``ui.lecture`` (player, runs,
steps, export), ``ui.live``, ``ui.look``, ``ui.server``.
"""

from __future__ import annotations

import html
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import numpy as np

import perceptron_store as store_mod
from ui import words
from ui.app import links, sidebar
from ui.app.state import LINK_PARAM, SETTINGS, init
from ui.classmode import arrive, challenge
from ui.classmode import classroom as cr
from ui.classmode import live as channel
from ui.classmode.card import CARD_CSS, CARD_JS
from ui.classmode.follow import Play
from ui.classmode.onscreen import BAR
from ui.classmode.seat import Refused, reach
from ui.compute.model import Run, RunSettings
from ui.compute.runs import lecture_run
from ui.lecture import steps
from ui.lecture.export import script_json
from ui.lecture.player import LIVE_PLAYER_JS, PLAYER_CSS, window
from ui.lecture.runs import scene
from ui.live import card as card_route
from ui.live import route as live_route
from ui.live.light import JOIN_PATH, LECTURE_PATH, PAGE_PATH, Asker, Joined
from ui.live.route import Ticket, under
from ui.look.palette import PLUS, W_COLOUR
from ui.server import clients
from ui.server import code as component_code
from ui.words import t

_HERE = Path(__file__).parent
HOST_JS = (_HERE / "light.js").read_text(encoding="utf-8")
LIVE_PAGE = "lecture"  # the full app's page that Explore on my own opens
MARGIN_PAGE = "margin"  # ... and the challenge's

# The page's own look: Streamlit's type sizes and colours, large targets for a thumb
PAGE_CSS = f"""
:root {{ --st-font: "Source Sans", "Source Sans Pro", system-ui, -apple-system, "Segoe UI",
  Roboto, "Helvetica Neue", Arial, sans-serif; --st-text-color: #31333f; }}
html {{ font-size: 16px; }}
body {{ margin: 0; padding: 0.75rem 1rem 2rem; font-family: var(--st-font);
  color: var(--st-text-color); background: #fff; line-height: 1.45; }}
main {{ max-width: 60rem; margin: 0 auto; }}
h1 {{ font-size: 1.35rem; margin: 0 0 0.4rem; }}
.hall-head {{ display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.75rem;
  margin: 0 0 0.5rem; }}
.hall-head p {{ margin: 0; font-size: 0.95rem; }}
[hidden] {{ display: none !important; }}
form.hall-join {{ display: flex; flex-direction: column; gap: 0.9rem; max-width: 26rem; }}
.hall-join label {{ display: flex; flex-direction: column; gap: 0.3rem; font-weight: 600; }}
.hall-join input {{ font: inherit; font-size: 1.1rem; padding: 0.6rem 0.7rem; min-height: 2.75rem;
  border: 1px solid #a3a8b8; border-radius: 0.5rem; box-sizing: border-box; width: 100%; }}
.hall-join input#hall-code {{ text-transform: uppercase; letter-spacing: 0.08em; }}
.hall-join button, .hall-row a, .hall-row button {{ font: inherit; font-size: 1.05rem;
  min-height: 2.75rem; padding: 0.5rem 1.1rem; border-radius: 0.5rem; cursor: pointer;
  border: 1px solid {W_COLOUR}; background: {W_COLOUR}; color: #fff; text-decoration: none;
  display: inline-flex; align-items: center; justify-content: center; box-sizing: border-box; }}
.hall-row a.quiet {{ background: #fff; color: {W_COLOUR}; }}
.hall-join button[disabled] {{ opacity: 0.6; cursor: progress; }}
:focus-visible {{ outline: 3px solid {W_COLOUR}; outline-offset: 2px; }}
.hall-said {{ color: #8a2a00; font-weight: 600; margin: 0; }}
.hall-said:empty {{ display: none; }}
.hall-status {{ font-size: 0.95rem; color: #5c3f00; margin: 0 0 0.4rem; position: sticky;
  top: 0; z-index: 5; background: #fff4d6; border: 1px solid #e0b84c; border-radius: 0.5rem;
  padding: 0.4rem 0.7rem; }}
.hall-status:empty {{ display: none; }}
.hall-box {{ border: 1px solid rgba(49, 51, 63, 0.2); border-left: 4px solid {PLUS};
  border-radius: 0.5rem; padding: 0.6rem 0.8rem; margin: 0.4rem 0 0.6rem; }}
.hall-box p {{ margin: 0 0 0.4rem; }}
.hall-row {{ display: flex; flex-wrap: wrap; gap: 0.6rem; margin: 0.8rem 0; }}
.hall-lang {{ margin: 1.2rem 0 0.4rem; font-size: 0.95rem; }}
.hall-lang select {{ font: inherit; min-height: 2.5rem; margin-left: 0.4rem; }}
.hall-card {{ margin: 0.6rem 0; }}
html.perceptron-bar-open body {{ padding-bottom: 14rem; }}
@media (prefers-reduced-motion: reduce) {{ * {{ transition: none !important;
  animation: none !important; }} }}
"""

# The head of a light page (this one, the remote's): only the app's own files run and are
# fetched, its data travel as JSON (script_json) and its title is escaped
HEAD = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; \
style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
connect-src 'self'; base-uri 'none'; form-action 'none'">
<title>{title}</title>
{links}
<script type="application/json" id="{data_id}">{data}</script>
<script type="module" src="{host}"></script>
</head>
"""


def head(
    title: str, styles: list[str], modules: list[str], data_id: str, data: Any, host: str
) -> str:
    """A light page's head, in this request's language: its ``styles`` and its
    ``modules`` (preloaded) as files, its ``data`` as JSON in the element ``data_id`` and
    its ``host`` module."""
    links = [f'<link rel="stylesheet" href="{html.escape(u)}">' for u in styles]
    links += [f'<link rel="modulepreload" href="{html.escape(u)}">' for u in modules]
    return HEAD.format(
        title=html.escape(title),
        links="\n".join(links),
        data_id=data_id,
        data=script_json(data),
        host=html.escape(host),
        lang=page_language(),
    )


def page_language() -> str:
    """The ``lang`` of this request's page: its language's code ("zh-Hans" for Chinese;
    English for the pseudo-locale)."""
    code = words.language()
    return {"zh": "zh-Hans", words.PSEUDO: "en"}.get(code, code)


def request_language(asker: Asker) -> str:
    """The language a request to a light page reads: its ``?lang=``, else its browser's."""
    return words.of_request(asker.lang, str(asker.headers.get("accept-language", "")))


def with_lang(url: str) -> str:
    """``url`` with this request's ``?lang=`` (none in English): what the page asks next
    reads the same language."""
    code = words.language()
    return url if code == words.ENGLISH else f"{url}?{urlencode({'lang': code})}"


def language_switch() -> str:
    """The page's Language switch (its script, light.js's or remote.js's, reloads the
    page with the language chosen as ``?lang=``), in this request's language."""
    here = words.language()
    options = "".join(
        f'<option value="{code}"{" selected" if code == here else ""}>{html.escape(name)}</option>'
        for code, name in words.LANGUAGES.items()
    )
    label = html.escape(t("Language"))
    return (
        f'<p class="hall-lang"><label for="hall-lang">{label}</label>'
        f'<select id="hall-lang">{options}</select></p>'
    )


def page_words() -> dict[str, str]:
    """The words the light page's code says (its host, player and card), in this
    request's language."""
    return {
        **words.script_words(HOST_JS),
        **words.script_words(LIVE_PLAYER_JS),
        **words.script_words(CARD_JS),
    }


def _body() -> str:
    """The light page's body, in this request's language (its words escaped)."""
    e = {
        "join": t("Join your lecturer's class: its code is on the projector."),
        "code": t("Class code"),
        "nick": t("Your nickname (the class sees it)"),
        "go": t("Join the class"),
        "lecture": t("The lecture"),
        "margin": t("Open the margin lab"),
        "ended": t("This class has ended."),
        "stays": t("The lecture stays as it was; the app goes on without the class."),
        "explore": t("Explore on my own"),
        "script": t("This page needs JavaScript to follow the lecture."),
        "app": t("Perceptron Lab"),
    }
    e = {k: html.escape(v) for k, v in e.items()}
    return f"""<body>
<main>
<header class="hall-head"><h1>{e["app"]}</h1><p id="hall-class"></p></header>
<p id="hall-status" class="hall-status" role="status" aria-live="polite"></p>
<form id="hall-join" class="hall-join" hidden novalidate>
<p>{e["join"]}</p>
<label for="hall-code">{e["code"]}
<input id="hall-code" name="code" autocomplete="off" autocapitalize="characters"
  spellcheck="false" maxlength="20" placeholder="ABCD-EFGH" required></label>
<label for="hall-nick">{e["nick"]}
<input id="hall-nick" name="nick" autocomplete="nickname" maxlength="20" required></label>
<p id="hall-said" class="hall-said" role="alert"></p>
<button type="submit" id="hall-go">{e["go"]}</button>
</form>
<section id="hall-lecture" aria-label="{e["lecture"]}" hidden>
<div id="hall-challenge" class="hall-box" hidden><p><strong id="hall-challenge-head"></strong>
<span id="hall-challenge-rest"></span></p>
<a id="hall-challenge-go" href="#">{e["margin"]}</a></div>
<div id="hall-ended" class="hall-box" hidden><p><strong>{e["ended"]}</strong>
{e["stays"]}</p></div>
<div id="hall-player"></div>
<div id="hall-card" class="hall-card"></div>
<div class="hall-row"><a id="hall-explore" class="quiet" href="#">{e["explore"]}</a></div>
<div id="hall-channel" hidden></div>
</section>
<noscript><p>{e["script"]}</p></noscript>
{language_switch()}
</main>
</body>
</html>
"""


# The page's code and styles, served as files of /api/code/ from this module's import on
# (the live page's own: a phone that opened a Streamlit page of the app has them already)
FILES = {
    key: component_code.keep(component, text, suffix)
    for key, component, text, suffix in (
        ("host", "perceptron.light", words.SCRIPT + HOST_JS, ".js"),
        ("player", "perceptron.lecture", LIVE_PLAYER_JS, ".js"),
        ("card", "perceptron.card", CARD_JS, ".js"),
        ("live", "perceptron.live", channel.LIVE_JS, ".js"),
        ("player_css", "perceptron.lecture", PLAYER_CSS, ".css"),
        ("card_css", "perceptron.card", CARD_CSS, ".css"),
        ("page_css", "perceptron.light", PAGE_CSS, ".css"),
    )
}


def _files(base: str) -> dict[str, str]:
    """The addresses of :data:`FILES` under the server's base path ``base``."""
    return {key: component_code.url(name, base) for key, name in FILES.items()}


def _cookie_seat(cookies: Any) -> tuple[str, str]:
    """(code, seat id) of the browser's seat cookie, or ("", "")."""
    raw = str((cookies or {}).get(arrive.SEAT_COOKIE, "") or "")[:200]
    code, _, seat = raw.partition(".")
    return (code, seat) if cr.valid_seat(seat) else ("", "")


def _seat_of(room: cr.Room, seat: str, nick: str) -> dict[str, str]:
    ticket = live_route.sign(channel.key_of_room(room), room.code, seat)
    return {"code": room.code, "shown": cr.shown_code(room.code), "ticket": ticket, "nick": nick}


def page(code_text: str, asker: Asker, *, base: str = "") -> bytes:
    """The light page for a link's ``room=`` (``code_text``): in the class at once when the
    browser's seat cookie holds a seat of it, else its join form (with the code filled in,
    or the sentence why the link's code opens nothing); in the request's language."""
    with words.speaking(request_language(asker)):
        return _page(code_text, asker, base=base)


def _page(code_text: str, asker: Asker, *, base: str = "") -> bytes:
    files = _files(base)
    code = cr.normal_code(code_text) if code_text else None
    said = ""
    seat: dict[str, str] | None = None
    if code_text and code is None:
        said = cr.code_problem(code_text)
    elif code is not None:
        try:
            room = reach(cr.load_room, code)
        except Refused as refused:
            room, said = None, str(refused)
        if room is None and not said:
            said = t("No class {code} is open: it ended or expired.").format(
                code=cr.shown_code(code)
            )
        elif room is not None and room.closed:
            said = arrive.ended(code)
        elif room is not None:
            cookie_code, seat_id = _cookie_seat(asker.cookies)
            nick = reach(cr.seat_nick, room, seat_id) if cookie_code == code else None
            if nick is not None:
                seat = _seat_of(room, seat_id, nick)
    data = {
        "code": cr.shown_code(code) if code else "",
        "said": said,
        "seat": seat,
        "urls": {
            "join": with_lang(under(base, JOIN_PATH)),
            "lecture": with_lang(under(base, LECTURE_PATH)),
            "live": under(base, live_route.PATH) + "?here=1",
            "card": under(base, card_route.PATH),
            "page": under(base, PAGE_PATH),
        },
        "code_files": {k: files[k] for k in ("player", "card", "live")},
        "bar": BAR,
        "words": page_words(),
    }
    title = t("Join a class: Perceptron Lab")
    if code:
        title = t("Class {code}: Perceptron Lab").format(code=cr.shown_code(code))
    styles = [files[k] for k in ("player_css", "card_css", "page_css")]
    modules = [files[k] for k in ("player", "card", "live")]
    return (head(title, styles, modules, "hall-data", data, files["host"]) + _body()).encode()


def seat_cookie(code: str, seat: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` value of a student's seat: the cookie the Streamlit pages keep
    (``ui.classmode.arrive.SEAT_COOKIE``: this site only, as long as a room lives)."""
    flags = "; Secure" if secure else ""
    return (
        f"{arrive.SEAT_COOKIE}={code}.{seat}; Path=/; SameSite=Strict; "
        f"Max-Age={int(cr.ROOM_TTL_S)}{flags}"
    )


def join(code_text: str, nick: str, asker: Asker) -> Joined:
    """The join form's seat for ``asker``: its ticket and nickname and the seat's cookie,
    or the sentence why not (in the request's language). A browser that holds a seat of
    the class keeps it."""
    with words.speaking(request_language(asker)):
        return _join(code_text, nick, asker)


def _join(code_text: str, nick: str, asker: Asker) -> Joined:
    client = clients.client_of(asker.peer, asker.headers, asker.cookies)
    if not clients.allow("join", client):
        return Joined({"error": clients.refused("join")}, 429)
    if not cr.clean_nick(nick):
        return Joined({"error": t("Type a nickname: the class sees it beside your answers.")}, 400)
    code = cr.normal_code(code_text)
    cookie_code, seat_id = _cookie_seat(asker.cookies)
    keep: str | None = None
    if code is not None and cookie_code == code:
        try:
            room = reach(cr.load_room, code)
            if room is not None and reach(cr.seat_nick, room, seat_id) is not None:
                keep = seat_id
        except Refused as refused:
            return Joined({"error": str(refused)}, 503)
    taken = arrive.take_seat(client, code_text, nick, keep)
    if isinstance(taken, str):
        return Joined({"error": taken}, 400)
    code, seat_id = taken
    room = reach(cr.load_room, code)
    if room is None:
        return Joined(
            {"error": t("No class {code} is open.").format(code=cr.shown_code(code))}, 400
        )
    https = clients.secure(asker.scheme, asker.peer, asker.headers)
    cookie = seat_cookie(code, seat_id, secure=https)
    return Joined(_seat_of(room, seat_id, cr.clean_nick(nick)), 200, cookie)


def _linked(data_id: str) -> tuple[np.ndarray, np.ndarray] | None:
    """The points stored under a link's id (None: none)."""
    try:
        return links.call(store_mod.load_dataset, data_id)
    except ValueError:
        return None


def _session_of(query: dict[str, str]) -> dict[str, Any]:
    """The settings a page's session would have from the lecture's URL form."""
    session: dict[str, Any] = {}
    init(session, {k: v for k, v in query.items() if k in SETTINGS})
    data_id = query.get(LINK_PARAM)
    if data_id and store_mod.valid_id(data_id):
        found = _linked(data_id)
        if found is not None:
            session[sidebar.CUSTOM] = (*found, links.FROM_LINK)
    return session


ENDED = b'{"closed":true}'  # what a page of a class that ended or expired is told


def room_run(
    room: cr.Room,
) -> tuple[dict[str, Any], tuple[np.ndarray, np.ndarray, str], RunSettings, Run]:
    """The room's lecture as a page's session would run it: its settings, its data (X, y
    and a name), its run settings and the (cached) run."""
    session = _session_of(room.lecture_query)
    X, y, data_name = sidebar.dataset_in(session)
    settings, _ = steps.run_settings(session, X)
    return session, (X, y, data_name), settings, lecture_run(X, y, settings)


def lecture(ticket: Ticket, t: int | None, have: str, *, base: str = "", lang: str = "") -> bytes:
    """The room's lecture for a seat's light page, as JSON: the player's step (the room's,
    its Play's now, or step ``t`` of the room's run), the scene that holds it (unless the
    page has it: ``have`` is its ``run:start``), and the class's end and challenge;
    :data:`ENDED` when the room is gone or closed. Its words are in ``lang`` (the page's
    ``?lang=``; English if none or not on offer)."""
    with words.speaking(words.of_request(lang, "")):
        return _lecture(ticket, t, have, base=base)


def _lecture(ticket: Ticket, t: int | None, have: str, *, base: str = "") -> bytes:
    room = reach(cr.load_room, ticket.code)
    if room is None or room.closed:
        return ENDED
    query = room.lecture_query
    session, (X, y, data_name), settings, run = room_run(room)
    T = int(run.trace.n_steps)
    now = time.time()
    play = None if room.playing is None else Play(*room.playing)
    own = channel.step_of(query) if play is None else play.step(now)
    step = max(0, min(T, own if t is None else t))
    first, last = window(step, T)
    run_id = channel.run_of(query)
    held = have == f"{run_id}:{first}"
    drawn = (
        b"null" if held else scene(X, y, settings, first, last, data_name, run_id, words.language())
    )
    along = None if play is None else play.sent(now)
    player = {
        "t": step,
        "seq": 0,
        "run": run_id,
        "start": first,
        "stop": last,
        "presenter": False,
        "play": 0,
        "asked": channel.asked_point(room),
        "summary": steps.settings_summary(session),
        "lead": False,
        "along": along,
        "follow": {
            "following": True,
            "n": room.lecture_n,
            "run": run_id,
            "q": channel.asked_version(room),
        },
        "post": None,
        "sent": round(now, 3),
        "quick": True,
    }
    c = room.open_challenge
    kept = {k: v for k, v in query.items() if k in SETTINGS or k == LINK_PARAM}
    rest = {
        "step": player,
        "end": channel.version(channel.parts_shown(room)["end"]),
        "challenge": None if c is None else list(challenge.announcement(c)),
        "margin": under(base, MARGIN_PAGE) + "?" + urlencode({"room": room.code}),
        "explore": under(base, LIVE_PAGE) + "?" + urlencode({**kept, "room": room.code}),
        "stepKey": channel.STEP_KEY,
    }
    return b'{"scene":' + drawn + b"," + json.dumps(rest, separators=(",", ":")).encode()[1:]
