"""Every session-state key, its default and its URL form, in one table.

Settings round-trip through ``st.query_params``: the first run of a session
reads them from the URL (a bad value falls back to its default and leaves a
notice for the page to show), and every run writes the non-default ones back,
so a copied URL reproduces the dataset (by seed), the settings and the step.
Nothing here is module-level per-user state: values live in the session state
mapping passed in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from perceptron_core import (
    DATASETS,
    DIGIT_PAIRS,
    EXPERT_BEHAVIOURS,
    FEATURE_MAPS,
    RULES,
    SPAM_VOCABULARIES,
)
from ui import words
from ui.look.text import safe
from ui.server import internals

# A session's state as the functions here take it: ``st.session_state`` (a mapping whose
# keys Streamlit types as str or int) or, in the tests, a plain dict.
Session = MutableMapping[Any, Any]

MAX_SEED = 2**31 - 1
MAX_EPOCHS = 10_000  # passes: enough for the margin challenge's hardest sets to converge
MAX_STEPS = 200_000  # epochs x n cap: a run never pins the CPU


def passes_within(n: int, passes: int = MAX_EPOCHS) -> int:
    """``passes`` over n points, cut so that the run takes at most MAX_STEPS steps."""
    return max(1, min(int(passes), MAX_STEPS // max(int(n), 1)))


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        # our own sentence: int()'s error would repeat the text (a link, an image...)
        if not re.fullmatch(r"[-+]?\d{1,12}", text.strip()) or not lo <= int(text) <= hi:
            raise ValueError(f"must be an integer from {lo} to {hi}")
        return int(text)

    return parse


def _odd_in(lo: int, hi: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        v = _int_in(lo, hi)(text)
        if v % 2 == 0:
            raise ValueError(f"must be an odd integer from {lo} to {hi}")
        return v

    return parse


def _float_in(lo: float, hi: float) -> Callable[[str], float]:
    def parse(text: str) -> float:
        if not re.fullmatch(_NUMBER, text.strip()) or not lo <= float(text) <= hi:
            raise ValueError(f"must be a number from {lo:g} to {hi:g}")
        v = float(text)
        if not math.isfinite(v):  # pragma: no cover - the pattern has no inf or nan
            raise ValueError(f"must be a number from {lo:g} to {hi:g}")
        return v

    return parse


@dataclass(frozen=True, eq=False)  # hashed by identity: its registry is a dict
class Choice:
    """The parser of a choice setting: its text must be a key of ``options``, the choice's
    one registry (an engine dict such as ``RULES``, or a tuple below), read at every call,
    so an entry added to the registry is accepted without touching this table."""

    options: Collection[str]

    def __call__(self, text: str) -> str:
        if text not in self.options:
            raise ValueError(f"must be one of {', '.join(self.options)}")
        return text


def _bool(text: str) -> bool:
    if text in ("1", "true", "True"):
        return True
    if text in ("0", "false", "False"):
        return False
    raise ValueError("must be 1 or 0")


_NUMBER = r"[-+]?(\d{1,20}(\.\d{0,20})?|\.\d{1,20})([eE][-+]?\d{1,3})?"


def _language(text: str) -> str:
    """A language on offer, or "" (the default: the browser's language)."""
    if text and text not in words.CHOICES:
        raise ValueError(f"is not a language on offer ({words.on_offer()})")
    return text


def _vector_text(text: str) -> str:
    if len(text) > 100:  # before any split: three numbers are never this long
        raise ValueError("must be 2 or 3 numbers separated by commas")
    parts = [p.strip() for p in text.split(",")]
    if not 2 <= len(parts) <= 3 or not all(re.fullmatch(_NUMBER, p) for p in parts):
        raise ValueError("must be 2 or 3 numbers separated by commas")
    if any(abs(float(p)) > 1e6 for p in parts):
        raise ValueError("numbers must be at most 1e6 in size")
    return ", ".join(parts)


def _serialize(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class Setting:
    """One session-state key: its default, and how its URL text is parsed."""

    key: str
    default: Any
    parse: Callable[[str], Any]
    label: str


# The choices no engine registry holds: each tuple is the one list of its options, for the
# setting below and for the page's widget (the pages import them from here).
W0_MODES = ("zero", "random", "typed")
ORDERS = ("given", "shuffle")
# the lecture's points before the run: as given, all divided by R = max ‖x‖, or each to length 1
SCALES = ("given", "radius", "unit")
XOR_DATA = ("corners", "shared")  # pages/xor.py: its 4 corners, or the sidebar's dataset
# pages/margin.py: what a tap or click on the surface does (add a +1, add a −1, flip, delete,
# move); a drag moves a point in every mode
MAR_MODES = ("plus", "minus", "flip", "delete", "move")
VAR_DATA = ("own", "shared")  # pages/variants.py: the page's own 2-D set, or the sidebar's
SPAM_RULES = ("nonpositive", "predict_gt")  # pages/spam.py: the two rules of RULES it compares
SGD_DATA = ("given", "centred")  # pages/sgd.py: the data as given, or centred
# The URL parameter of an embed (?embed=1). Streamlit reserves ``embed`` for its own embed
# mode and keeps it out of ``st.query_params``: it is read from the run's query string
# (ui.server.internals.reserved_query_parameter) and stays in the frame's address as it is.
EMBED = "embed"

_CORE = (
    # the session's language (ui.words): "" reads the browser's; carried by links, never
    # by following a lecturer (each student of a class reads their own)
    Setting("lang", "", _language, "language"),
    Setting("app_presenter", False, _bool, "presenter mode"),
    # presenter mode's look for a washed-out projector: thicker lines, larger marks, stronger
    # tints (ui.look.plots, the lecture's chart); a lecturer whose screen is good turns it off
    Setting("app_projector", True, _bool, "projector theme"),
    # ?embed=1: the page inside a course page's <iframe> (ui.shell.embed); named as a course
    # page's author types it, without a page prefix. Streamlit's own ?embed=true is read
    # as 1 too (its embed mode then also applies)
    Setting(EMBED, False, _bool, "embedded in a course page"),
    Setting("data_name", "separable", Choice(DATASETS), "dataset"),
    Setting("data_n", 40, _int_in(1, 500), "number of points"),
    Setting("data_seed", 0, _int_in(0, MAX_SEED), "seed"),
    Setting("lec_bias", True, _bool, "bias"),
    Setting("lec_eta", 1.0, _float_in(0.001, 1000.0), "learning rate η"),
    Setting("lec_w0", "zero", Choice(W0_MODES), "start w0"),
    Setting("lec_w0_typed", "0, 0, 0", _vector_text, "typed w0"),
    Setting("lec_order", "given", Choice(ORDERS), "order"),
    Setting("lec_rule", "nonpositive", Choice(RULES), "mistake rule"),
    Setting("lec_scale", "given", Choice(SCALES), "scale x"),
    Setting("lec_max_epochs", 50, _int_in(1, MAX_EPOCHS), "max epochs"),
    Setting("lec_t", 0, _int_in(0, MAX_STEPS), "step"),
    Setting("xor_data", "corners", Choice(XOR_DATA), "XOR page data"),
    Setting("xor_epochs", 30, _int_in(5, 200), "XOR page epochs"),
    Setting("xor_map", "quadratic", Choice(FEATURE_MAPS), "feature map"),
    Setting("mar_bias", True, _bool, "margin lab: bias"),
    Setting("mar_c", 1.0, _float_in(0.1, 10.0), "margin lab: bias feature c"),
    Setting("mar_mode", "plus", Choice(MAR_MODES), "margin lab: what a tap does"),
    Setting("mar_max_epochs", 100, _int_in(1, MAX_EPOCHS), "margin lab: max epochs"),
    # The proof, line by line (pages/proof.py); its run is the lecture's (lec_* above)
    Setting("prf_k", 0, _int_in(0, MAX_STEPS), "proof: mistake k shown (0 = the last)"),
    Setting("prf_orders", 50, _int_in(10, 200), "proof: random orders"),
    Setting("prf_gamma", 0.1, _float_in(0.02, 0.3), "proof: margin of the worst-case set"),
    # Which perceptron to deploy? (pages/variants.py); epochs x 350 training points <= 35,000
    Setting("var_data", "own", Choice(VAR_DATA), "variants: 2-D data"),
    Setting("var_n", 200, _int_in(20, 500), "variants: points of the page's 2-D set"),
    Setting("var_noise", 0.1, _float_in(0.0, 0.3), "variants: training labels flipped"),
    Setting("var_epochs", 30, _int_in(1, 100), "variants: epochs T"),
    Setting("var_pair", "8v9", Choice(DIGIT_PAIRS), "variants: digit pair"),
    Setting("var_runs", 100, _int_in(10, 200), "variants: runs over orders and starts"),
    Setting("var_w0", 1.0, _float_in(0.0, 5.0), "variants: ‖w0‖ of the random starts"),
    # Application: following experts (pages/experts.py); the engine caps n at 100, days at 2000
    Setting("exp_n", 25, _int_in(3, 100), "experts: analysts n"),
    Setting("exp_k", 5, _odd_in(1, 99), "experts: committee size k"),
    Setting("exp_days", 500, _int_in(10, 2000), "experts: days"),
    Setting("exp_behaviour", "random", Choice(EXPERT_BEHAVIOURS), "experts: others"),
    Setting("exp_seed", 0, _int_in(0, MAX_SEED), "experts: seed"),
    # Example: a spam filter (pages/spam.py); the typed e-mail is not a setting (see the page)
    Setting("spam_vocab", "two", Choice(SPAM_VOCABULARIES), "spam: words counted"),
    Setting("spam_rule", "nonpositive", Choice(SPAM_RULES), "spam: rule"),
    Setting("spam_t", 600, _int_in(0, 600), "spam: training step (600 = the end)"),
    # The perceptron as SGD (pages/sgd.py)
    Setting("sgd_data", "given", Choice(SGD_DATA), "SGD: data"),
    Setting("sgd_epochs", 30, _int_in(1, 100), "SGD: max epochs"),
    Setting("sgd_w1", 2.0, _float_in(-5.0, 5.0), "SGD: start w0, first coordinate"),
    Setting("sgd_w2", 2.0, _float_in(-5.0, 5.0), "SGD: start w0, second coordinate"),
    Setting("sgd_batch", 5, _int_in(1, 500), "SGD: batch size b"),
    Setting("sgd_order", "given", Choice(ORDERS), "SGD: order"),
)


def param_key(dataset: str, param: str) -> str:
    """Session key of a dataset parameter, e.g. ``data_separable_margin``."""
    return f"data_{dataset}_{param}"


_PARAMS = tuple(
    Setting(param_key(d.key, p.name), p.default, _float_in(p.low, p.high), f"{d.title}: {p.label}")
    for d in DATASETS.values()
    for p in d.params
)

SETTINGS: dict[str, Setting] = {s.key: s for s in _CORE + _PARAMS}
_PARAM_KEYS = frozenset(s.key for s in _PARAMS)
# What a session holds besides its settings (above) and its widgets (each with an
# explicit, page-prefixed key): every other session key, with what it holds. Modules
# take their key through ``session_key``, so a key missing here fails at import, and
# tests/app/test_session_keys.py fails on any key a page leaves that is in neither.
SESSION_KEYS: dict[str, str] = {
    "_state_ready": "the URL has been read into the settings (the session's first run)",
    "_lang": "the language this session reads now (ui.words.choose: the lang setting, else "
    "the browser's, else English)",
    "_notices": "messages about refused URL parameters and widget values, shown once",
    "_events_seen": "events of the browser message being handled (ui.server.guard: one is read)",
    "_pages": "(language, the session's st.Page objects): ui.shell, made once per language",
    "_local_browser": "ui.server.clients: the browser of a session with none (AppTest)",
    "_admitted": "the session came through the door (ui.server.clients.admit, its first run)",
    "data_custom": "(X, y, name) of an uploaded or drawn dataset, else absent",
    "data_link": "the store id of the custom data (the URL's data=), or None (ui.app.links)",
    "data_link_wait": "a link's id whose data the store could not give yet (ui.app.links)",
    "data_link_state": "ui.app.links: (arrived, data kept for, rate limit, store down said)",
    "data_upload_error": (
        "the refused upload on show (ui.app.sidebar.Refusal): until another page, other data, "
        "a good upload or Dismiss"
    ),
    "data_upload_pending": "the uploader whose new file the run reads (ui.app.sidebar)",
    "room_seat": "ui.classmode.seat.Seat: the class this session is in, and as whom",
    "room_limit": "ui.classmode.arrive: the session's join attempts (a rate limit)",
    "room_url": "ui.classmode.seat: the URL's class parameter (room=) for to_query",
    "room_go": "ui.classmode.arrive: a class was just started; its page comes after the sidebar",
    "room_show_join": "ui.classmode.arrive: the join view opens over the page at its next run",
    "room_join_asked": "ui.classmode.arrive: Join was pressed: the form's code and nickname",
    "room_join_said": "ui.classmode.arrive: why the last Join was refused, said in the form",
    "room_to_lecture": "class page: a submission was opened; Step by step comes next",
    "room_view": "class page: the projector's view in presenter mode, join or board",
    "room_said": "class page: why the lecturer's last action was refused, said under it",
    "room_cookie": "classmode: this browser holds the class cookie (kept, or dropped once)",
    "room_hooks": "ui.classmode.strip.LectureHooks the lecture page lends the lecturer's strip",
    "room_live": "ui.classmode.strip: the lecturer shows the answers' shares while the class votes",
    "room_live_fresh": "ui.classmode.live: the parts of the page the live channel asked to run "
    "(a frozenset of topics): their runs read the room now",
    "room_recap": "ui.classmode.arrive: a closed class's (code, secret): its lecturer's recap",
    "lec_window": (
        "lecture: (run, start, stop) of the scene this full run sent, None from the start of "
        "the next (whose start may drop it undelivered)"
    ),
    "lec_resend": "lecture: the browser holds a step without its scene (send it again)",
    "lec_seq": "lecture: the number of the browser's last step report acted on",
    "lec_tab": "lecture: the key the page posts its own steps under (ui.live.reports)",
    "lec_play": "lecture: a new value asks the browser to play on into the next window",
    "lec_presenter_flip": "lecture: the player's presenter switch was pressed (redraw all)",
    "lec_t_run": "lecture: fingerprint of the data and run settings the step lec_t belongs to",
    "mar_history": "margin lab: the edits.History of the drawn points (undo, redo)",
    "mar_notice": "margin lab: (error, note) of the last edit, shown once",
    "mar_tick": "margin lab: events handled, so the surface redraws even on a refusal",
    "mar_box": "margin lab: the drawing area last shown (drops outside it are refused)",
    "mar_log": "margin lab: (settings, [(version, γ, bound, M), ...]) for the edits chart",
    "mar_preset": "margin lab: (points, name) the edits started from",
    "mar_sidebar": "margin lab: what the sidebar said about the data at the last full run",
    "mar_shown": "margin lab: (settings, version, numbers, numbers before the last edit)",
    "mar_challenge_said": "margin lab: what the last Submit to the class's challenge said",
    "mar_challenge_new": "margin lab: the challenge box switched the data (redraw the page)",
    "mar_table": "margin lab: table events handled (part of the table editor's key)",
    "mar_edit": "margin lab: the surface's last edit acted on (its number): a resent one is not",
}


def session_key(name: str) -> str:
    """``name``, if ``SESSION_KEYS`` declares it (else a KeyError at import time)."""
    if name not in SESSION_KEYS:
        raise KeyError(f"session key {name!r} is not declared in ui.app.state.SESSION_KEYS")
    return name


NOTICES = session_key("_notices")
_READY = session_key("_state_ready")


MAX_NOTICES = 5  # notices about one URL: a link with 1,000 bad parameters shows 5 and a count


def _notice(text: str) -> str:
    """Outside text for a notice (a URL parameter's name or value), escaped and short."""
    return "“" + safe(text, limit=40) + "”"


def init(session: Session, query: Mapping[str, Any]) -> None:
    """Fill ``session`` with every setting, from the URL on the session's first run.

    Unknown URL parameters and bad values are ignored with a notice, never an
    exception.
    """
    if session.get(_READY):
        return
    if EMBED not in query:  # st.query_params never holds it (see EMBED)
        embed = internals.reserved_query_parameter(EMBED)
        if embed is not None:
            query = {**query, EMBED: embed}
    notices: list[str] = []
    unknown = [
        name for name in query if name not in SETTINGS and name not in (LINK_PARAM, *ROOM_PARAMS)
    ]
    if unknown:
        shown = ", ".join(_notice(name) for name in unknown[:3])
        if len(unknown) > 3:
            said = words.t("Ignored unknown URL parameters: {names} and {more} more.")
        else:
            said = words.t("Ignored unknown URL parameters: {names}.")
        notices.append(said.format(names=shown, more=len(unknown) - 3))
    refused = 0
    for key, setting in SETTINGS.items():
        value = setting.default
        if key in query:
            raw = str(query[key])[:200]
            try:
                value = setting.parse(raw)
            except (ValueError, TypeError, OverflowError) as exc:
                refused += 1
                if refused <= MAX_NOTICES:
                    default = safe(_serialize(setting.default))
                    said = (
                        words.t(
                            "URL parameter {key} = {value} {reason}; using the default {default}."
                        )
                        if default
                        else words.t("URL parameter {key} = {value} {reason}; using the default.")
                    )
                    notices.append(
                        said.format(
                            key=key,
                            value=_notice(raw),
                            reason=safe(exc, limit=200),
                            default=default,
                        )
                    )
        session[key] = value
    if refused > MAX_NOTICES:
        notices.append(
            words.t("{n} more URL parameters were refused; defaults used.").format(
                n=refused - MAX_NOTICES
            )
        )
    n_key = "data_n"
    spec = DATASETS[session["data_name"]]
    if not spec.n_min <= session[n_key] <= spec.n_max:
        if n_key in query:  # a size the link asked for; the default size needs no word
            said = (
                words.t("{name} has exactly {low} points; using {n}.")
                if spec.n_min == spec.n_max
                else words.t("{name} takes {low} to {high} points; using {n}.")
            )
            notices.append(
                said.format(name=spec.title, low=spec.n_min, high=spec.n_max, n=spec.n_default)
            )
        session[n_key] = spec.n_default
    session[NOTICES] = notices
    session[_READY] = True


# Settings of the screen, not of the lesson: read from a link as the session arrives (a
# lecturer's bookmark ``?app_presenter=1`` opens the projector's layout, a course page's
# frame ``?embed=1`` the page without sidebar and header), never written back to the URL,
# so the address bar, and every link copied from it or from "Copy link", opens
# the lesson as everyone sees it (a student does not land in presenter mode, nor in a page
# without its sidebar). Streamlit itself keeps the frame's own ``embed=`` in its address.
LOCAL_SETTINGS = frozenset({"app_presenter", "app_projector", EMBED})
LINK_PARAM = "data"  # the URL parameter of a link's data: ?data=<store id> (ui.app.links)
# a class's URL parameters (ui.classmode): its code and the lecturer link's key; seat= is
# known (no notice) and ignored: a link never gives a seat, a cookie does
ROOM_PARAMS = ("room", "seat", "key")


def to_query(session: Mapping[str, Any]) -> dict[str, str]:
    """The URL parameters for the current settings: only those not at their default,
    and of the dataset parameters only the current dataset's; and ``data=<id>`` while the
    data in use (or a link's, not yet opened) are in the store."""
    current = session.get("data_name", "separable")
    out: dict[str, str] = {}
    link = session.get("data_link") or session.get("data_link_wait")
    if link:
        out[LINK_PARAM] = str(link)
    out.update(session.get("room_url") or {})  # a student's room= and seat= (ui.classmode.seat)
    for key, setting in SETTINGS.items():
        if key in _PARAM_KEYS and not key.startswith(f"data_{current}_"):
            continue
        if key in LOCAL_SETTINGS:
            continue
        value = session.get(key, setting.default)
        if value != setting.default:
            out[key] = _serialize(value)
    return out


def sync_query(session: Session, query: Any) -> None:
    """Write the settings to ``st.query_params`` if they changed."""
    wanted = to_query(session)
    if {k: str(v) for k, v in query.to_dict().items()} != wanted:
        query.from_dict(wanted)


def widget_key(key: str) -> str:
    """The key of the widget that edits setting ``key``.

    Widgets do not own the settings: Streamlit drops a widget's state when a page
    that does not draw it runs, so each widget edits its own key and a callback
    copies the value into the setting, which lives for the whole session.
    """
    return f"{key}_w"


def accepts(key: str, value: Any) -> bool:
    """Whether a widget's value is one setting ``key`` accepts (its type and range)."""
    setting = SETTINGS.get(key)
    if setting is None:
        return True
    if not isinstance(value, type(setting.default)) and not (
        isinstance(setting.default, float) and isinstance(value, int)
    ):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    try:
        setting.parse(repr(value) if isinstance(value, float) else _serialize(value))
    except (ValueError, TypeError, OverflowError):
        return False
    return True


def bind(
    session: Session,
    key: str,
    then: Callable[[], None] | None = None,
    *,
    prefix: str = "",
    resend: bool = False,
) -> dict[str, Any]:
    """Keyword arguments that bind a widget to setting ``key`` (and run ``then`` on change).

    A page that shows another page's setting gives its widget a key of its own with
    ``prefix`` (e.g. ``"prf_"``): two widgets with one key on two pages would show a
    stale value after a page switch.

    ``resend``: every run tells the browser the setting's value (Streamlit then sends the
    widget with it; the setting must be within the widget's range). A widget the browser
    draws anew (it moved, or its state went with a run that drew the page without it)
    otherwise starts at its own default, a slider's minimum, and the page's next rerun
    sends that back as a change: a lecturer's Start a class gave the class n = 4 and every
    slider's minimum that way.
    """
    wkey = prefix + widget_key(key)
    if resend or wkey not in session:
        session[wkey] = session[key]

    def copy() -> None:
        value = session[wkey]
        if internals.change_from_another_fragment():  # a stale value: the server's stays
            session[wkey] = session[key]
            return
        if not accepts(key, value):  # a forged widget value: keep the setting as it was
            session[wkey] = session[key]
            notices = session.setdefault(NOTICES, [])
            notices.append(
                words.t("Refused a value for {setting}: out of range.").format(
                    setting=SETTINGS[key].label
                )
            )
            return
        session[key] = value
        if then is not None:
            then()

    return {"key": wkey, "on_change": copy}


def assign(session: Session, key: str, value: Any) -> None:
    """Set a setting from a callback, keeping its widget (if drawn) in step."""
    session[key] = value
    session[widget_key(key)] = value
