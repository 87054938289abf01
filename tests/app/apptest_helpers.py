"""Opening the app through AppTest, as a student's browser would with a URL."""

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from streamlit.testing.v1 import AppTest

from perceptron_core import DATASETS
from tools.components import card_words  # noqa: F401 (the tests' reading of a card)
from ui.app.state import SETTINGS, param_key
from ui.compute.runs import dataset
from ui.look.numbers import AXIS

PLAYER = "perceptron.lecture"  # the lecture page's components (ui.lecture.player)
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
    sent: dict[str, dict[str, Any]] = {
        e.proto.component_name: json.loads(e.proto.json or e.proto.bytes)  # the scene: bytes
        for e in at.get("bidi_component")
        if e.proto.json or e.proto.bytes  # not the components that carry no data
    }
    scene, step = sent[SCENE], sent[PLAYER]
    assert (scene["run"], scene["start"], scene["stop"]) == (
        step["run"],
        step["start"],
        step["stop"],
    ), "the player's step is not in the scene sent"
    return scene | step


def drawn(at: AppTest) -> list[Any]:
    """The page's components that draw something: those that carry data (not the
    reconnection watcher or a page style, which carry none)."""
    return [e for e in at.get("bidi_component") if e.proto.json or e.proto.bytes]


def has_instrument(at: AppTest) -> bool:
    """Whether the margin lab drew its instrument."""
    return any(e.proto.component_name.endswith("margin_canvas") for e in drawn(at))


def margin_scene(at: AppTest) -> dict[str, Any]:
    """What the margin lab sent its instrument: the surface, the numbers, the last sentence."""
    sent = [e.proto for e in at.get("bidi_component")]
    found: list[dict[str, Any]] = [
        json.loads(p.json or p.bytes)
        for p in sent
        if p.component_name.endswith("margin_canvas") and (p.json or p.bytes)
    ]
    assert len(found) == 1, "the margin lab draws one instrument"
    return found[0]


def margin_numbers(at: AppTest) -> dict[str, str]:
    """The margin lab's numbers as the instrument shows them: label -> value."""
    return {n["label"]: n["value"] for n in margin_scene(at)["numbers"]}


def lecture_view(at: AppTest) -> dict[str, Any]:
    """The lecture page's step view at the server's step t (what the browser draws)."""
    scene = lecture_scene(at)
    view: dict[str, Any] = scene["steps"][scene["t"] - scene["start"]]
    return view


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


# --- plain numbers: what a page shows, never "e+", "−0.00" or a hyphen minus

TEXTS = ("title", "header", "subheader", "markdown", "caption", "success", "info", "warning")
NOT_PLAIN = re.compile(r"e\+|[-−]0(?:\.0+)?(?![\d.])")  # 5.94e+03, −0, −0.00
HYPHEN_MINUS = re.compile(r"(?<![\w)\]}])-\d")  # "-5" where "−5" is meant (not 2-D, 000-004)
FORMAT = re.compile(r"%\{[^}:]+:([^}]*)\}")  # the d3 format of a %{...:format} placeholder
PLAIN_FORMATS = re.compile(r",|,\.\d~r|\.\d+f")  # thousands, ui.look.numbers.D3 (any digits), fixed


def assert_plain_numbers(at: AppTest) -> str:
    """Every number the page's main area shows is written the plain way: its text, metrics,
    tables (no float column: the browser would format it) and charts (hover formats that do
    not go exponential, axes without exponents); and no chart keeps a swipe from scrolling a
    phone's page (dragmode off). Returns the text, for more checks."""
    main = at.main
    texts = [e.value for kind in (*TEXTS, "error") for e in getattr(main, kind)]
    texts += [f"${e.value}$" for e in main.latex]  # "$": a formula's "-" is its minus
    texts += [f"{m.value} {m.proto.delta}" for m in main.metric]
    for frame in (d.value for d in main.dataframe):
        assert not [c for c in frame if frame[c].dtype.kind == "f"], frame.dtypes
        texts += [str(v) for v in frame.to_numpy().ravel()]
    for chart in main.get("plotly_chart"):
        fig = json.loads(chart.proto.spec)
        for trace in fig["data"]:
            for key in ("hovertemplate", "texttemplate"):
                for fmt in FORMAT.findall(trace.get(key, "")):
                    assert PLAIN_FORMATS.fullmatch(fmt), (trace.get("name"), trace[key])
            texts.append(str(trace.get("name", "")))
            if "colorbar" in trace:
                assert trace["colorbar"].items() >= AXIS.items(), trace["colorbar"]
        layout = fig["layout"]
        assert layout.get("dragmode") is False, "a swipe over this chart would not scroll"
        for key, axis in layout.items():
            if re.fullmatch(r"[xy]axis\d*", key):
                assert axis.items() >= AXIS.items(), (key, axis)
        texts += [a["text"] for a in layout.get("annotations", [])]
        texts.append(str(layout.get("title", {}).get("text", "")))
    shown = "\n".join(texts)
    assert not NOT_PLAIN.findall(shown), NOT_PLAIN.findall(shown)
    words = re.sub(r"\$[^$]*\$", "", shown)  # LaTeX writes its minus as "-"
    assert not HYPHEN_MINUS.findall(words), [
        words[max(0, m.start() - 30) : m.end() + 10] for m in HYPHEN_MINUS.finditer(words)
    ]
    return shown


def default(key: str) -> Any:
    """A setting's default, as a page opened without a link has it."""
    return SETTINGS[key].default


@cache
def shared_data() -> tuple[np.ndarray, np.ndarray]:
    """The sidebar's dataset at the default data settings, as the pages get it."""
    name = default("data_name")
    params = tuple((p.name, default(param_key(name, p.name))) for p in DATASETS[name].params)
    X, y = dataset(name, default("data_n"), default("data_seed"), params)
    return np.asarray(X), np.asarray(y)


def checked_or_excused(checks: dict[str, Any], excused: dict[str, str]) -> None:
    """Every page of the shell's table is checked or excused with a reason, never both: a
    new page fails a page-by-page test until someone says what it shows."""
    from ui.shell import PAGES

    assert set(checks) | set(excused) == {p.path for p in PAGES}
    assert not set(checks) & set(excused)


def plain_perceptron(
    Z: np.ndarray, y: np.ndarray, passes: int, *, w0: Any = None, eta: float = 1.0
) -> tuple[int, bool, int, np.ndarray]:
    """The perceptron as the handouts count it, in a plain loop that imports nothing of the
    engine: the vectors Z as given (a bias feature already appended), the given order,
    mistake iff y·w·z ≤ 0, pass after pass until a pass makes no mistake or ``passes`` ran.
    Returns (mistakes M, converged, passes run, final w)."""
    w = np.zeros(Z.shape[1]) if w0 is None else np.asarray(w0, dtype=float)
    M = 0
    for run in range(1, passes + 1):
        made = 0
        for z, label in zip(Z, y, strict=True):
            if label * (w @ z) <= 0:
                w, made = w + eta * label * z, made + 1
        M += made
        if made == 0:
            return M, True, run, w
    return M, False, passes, w


CARD = "perceptron.card"  # a student's question card on Step by step (ui.classmode.card)
_CARD_SERVER: list[Any] = []  # the card's route, served once per test process: its port


def card_data(at: AppTest) -> dict[str, Any] | None:
    """What the page's question card was sent (its ticket, route and view), or None when the
    page draws no card of its own."""
    for e in at.get("bidi_component"):
        if e.proto.component_name == CARD and e.proto.json:
            data: dict[str, Any] = json.loads(e.proto.json)
            return data
    return None


def _card_port() -> int:
    if not _CARD_SERVER:
        from starlette.applications import Starlette

        from tests.asgi_thread import serving
        from ui.live import card
        from ui.shell import asgi

        # many: a test of the rate sets its own (card_rates)
        many = card.Rates(rate=1e6, burst=10**6)
        app = Starlette(routes=[card.route(asgi._card_of, asgi._answer, asgi._key_of, rates=many)])
        served = serving(app)  # kept: the server stops when its context is collected
        _CARD_SERVER.extend([served.__enter__(), served, many])  # for the rest of the process
    return int(_CARD_SERVER[0])


def card_rates() -> Any:
    """The card route's rate per seat (``ui.live.card.Rates``) in the tests' server."""
    _card_port()
    return _CARD_SERVER[2]


def card_call(
    body: dict[str, Any] | None = None, *, ticket: str = "", ringed: bool = False
) -> tuple[int, Any]:
    """The card's route answering a GET (``body`` None) or a POST of ``body``, as the page
    calls it: its status and JSON."""
    import http.client
    from urllib.parse import urlencode

    from ui.live import card

    conn = http.client.HTTPConnection("127.0.0.1", _card_port(), timeout=30)
    try:
        if body is None:
            query = urlencode({"ticket": ticket, "ringed": "1" if ringed else "0"})
            conn.request("GET", f"{card.PATH}?{query}")
        else:
            conn.request("POST", card.PATH, body=json.dumps(body).encode())
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def card_now(at: AppTest) -> dict[str, Any]:
    """The card page ``at`` shows, as its page asks the route for it now (the channel said
    the room's question changed)."""
    data = card_data(at)
    assert data is not None, "the page draws no question card"
    status, got = card_call(ticket=data["ticket"], ringed=data["ringed"])
    assert status == 200, got
    view: dict[str, Any] = got
    return view


def answer_card(at: AppTest, said: str | None, turn: str | None = None) -> dict[str, Any]:
    """A click on page ``at``'s card: the choice ``said`` (None: the one picked) and the turn
    ``turn`` (None: the one picked), posted as card.js posts it; the card it is answered with."""
    data = card_data(at)
    assert data is not None, "the page draws no question card"
    view = card_now(at)
    picked = view["options"].index(said) if said is not None else view["picked"]
    way = view["turns"].index(turn) if turn is not None else view["turnPicked"]
    body = {
        "ticket": data["ticket"],
        "q": view["q"],
        "vote": view["vote"],
        "said": picked,
        "turn": way if way >= 0 else None,
        "ringed": data["ringed"],
    }
    status, got = card_call(body)
    assert status == 200, got
    after: dict[str, Any] = got
    return after
