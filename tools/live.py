"""Tabs left open as a browser leaves them: every message read as it comes, every
``run_every`` fragment asked for on its timer (:class:`Live`)."""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import websockets
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tools.app_client import Session
from tools.components import (
    ASK_SCENE,
    CHANNEL_KEY,
    MISSING_SCENE,
    PLAYER_KEY,
    STRIP_CHANGED,
    Lateness,
    PlayerView,
    card_words,
    player_live,
)
from tools.streamlit_client import OK_FINISH, RunView, message

SEAT_COOKIE = "perceptron_seat"  # ui.classmode.arrive.SEAT_COOKIE: a student's seat


def with_cookies(headers: dict[str, str] | None, cookies: dict[str, str]) -> dict[str, str]:
    """``headers`` with ``cookies`` added to its Cookie header (nginx's sticky one kept)."""
    out = dict(headers or {})
    jar = [out["Cookie"]] if out.get("Cookie") else []
    jar += [f"{name}={value}" for name, value in cookies.items()]
    if jar:
        out["Cookie"] = "; ".join(jar)
    return out


def seat_cookie(code: str, seat: str) -> dict[str, str]:
    """The cookie a student's browser keeps for its seat in class ``code``."""
    return {SEAT_COOKIE: f"{code}.{seat}"}


@dataclass(frozen=True)
class Door:
    """How a simulated browser reaches the app: its websocket's URL, the handshake's
    extra headers (nginx's sticky cookie) and the app server behind it (its index)."""

    url: str
    headers: dict[str, str] | None = None
    server: int = 0


class Live:
    """A session left open as a browser leaves a tab, its class strip polling.

    Every message is read as it comes, the runs this client did not ask for included (a
    poll that finds the lecturer's change reruns the whole page). Every fragment the server
    asked to rerun by itself (``st.fragment(run_every=...)``, a ``ForwardMsg.auto_rerun``
    with the fragment's id and interval) is asked for every interval, as the browser's
    timer does: ``setInterval`` from the first ``auto_rerun`` (one timer a fragment, kept
    while the interval stays, cleared by ``stop_auto_rerun``) sending a ``rerun_script``
    with the fragment's id, ``is_auto_rerun``, the latest query string and the widget
    values, whether or not a run is going (the server folds what arrives during a run into
    one rerun). A lecture step that came without its scene is asked for again after a
    second, as ``player.js`` does. A student's page opens the class's live channel
    (``/api/live`` with the ticket its strip carries) and does with each state what
    ``live.js`` and ``player.js`` do: a follower's step inside the page's window is drawn
    with no message to the server (it counts as shown when the state arrives); what the page
    cannot draw (another window or run, a question) is a trigger of the player, once per
    change; a strip whose part of the room changed, a trigger of the strip.
    Actions are sent without waiting (:meth:`send`); what
    they did is read from what arrives: each lecture player's step and when it first came
    (:attr:`shown`), each element key and when it first came (:attr:`keys`), the last
    finished run (``session.last``)."""

    def __init__(self, session: Session, server: int = 0) -> None:
        self.session = session
        self.server = server
        self.shown: dict[int, float] = {}  # the player's step -> first received (perf_counter)
        self.player: tuple[float, PlayerView] | None = None  # the last player, when received
        self.lateness = Lateness()  # as player.js judges each message's delay
        self.late = 0.0  # the last player's: seconds later than the quickest message so far
        self.keys: dict[str, float] = {}  # an element's key -> first received in a finished run
        self.polls = 0
        self.polled: list[float] = []  # when each poll was sent (perf_counter)
        self.runs = 0
        self.errors: list[str] = []
        self.asked = 0  # steps that came without their scene (asked for again)
        self.received = 0  # bytes of every message the server sent this tab
        self._ask: asyncio.Task[None] | None = None
        self._reader: asyncio.Task[None] | None = None
        self._timers: dict[str, tuple[float, asyncio.Task[None]]] = {}
        self._closing = False
        self._channel: asyncio.Task[None] | None = None
        self.heard = 0  # states the live channel brought
        self.drawn = 0  # steps drawn from the channel, with no message to the server
        self._seen = 0  # the newest state's id
        self._last: dict[str, object] | None = None  # the newest state, as the page keeps it
        self._follow_n = -1  # the lecturer's change the page shows (player.js S.followN)
        self._follow_q: str | None = None  # the question version it shows (S.followQ)
        self._asked_live: tuple[object, object] | None = None
        self._asked_part: dict[str, object] = {}  # a part's key -> the version asked for
        # the question card the page draws itself (card.js): its view, when each question
        # first showed on it, and the card version last asked of its route
        self.card_view: dict[str, Any] | None = None
        self.cards: dict[int, float] = {}
        self._card_drawn: object = None  # the run's card last taken (its data, as sent)
        self._card_asked: object = None
        self._card_posting = 0

    def start(self) -> None:
        """Read from now on; the timers of the fragments the page's runs asked for so far."""
        for fragment_id, interval in self.session.auto_reruns.items():
            self._timer(fragment_id, interval)
        last = self.session.last
        if last is not None and last.player is not None and not last.player.problem:
            self.player = (time.perf_counter(), last.player)  # the page as it opened
            self._mounted(last.player, time.perf_counter())
        self._reader = asyncio.create_task(self._read())
        self._channel = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        """The page's live channel, reconnected as ``live.js`` does, once the strip drew it."""
        s = self.session
        base = s.url.rsplit("/_stcore/stream", 1)[0]
        while not self._closing:
            channel = getattr(s, "channel", None)
            if not channel:
                await asyncio.sleep(0.1)
                continue
            url = f"{base}{channel['url']}?ticket={channel['ticket']}&seen={self._seen}"
            try:
                async with websockets.connect(url, additional_headers=s.headers) as ws:
                    async for text in ws:
                        self._heard(json.loads(text), time.perf_counter())
            except (websockets.WebSocketException, OSError, ValueError):
                await asyncio.sleep(0.5)

    def _heard(self, message: dict[str, object], now: float) -> None:
        state = message.get("state")
        if not isinstance(state, dict):
            return
        if isinstance(message.get("id"), int):
            self._seen = int(message["id"])  # type: ignore[call-overload]
            self.heard += 1
        self._last = message
        part = getattr(self.session, "channel", None) or {}
        version = state.get(part.get("topic"))
        if isinstance(version, str) and version not in (
            part.get("shown"),
            self._asked_part.get(CHANNEL_KEY),
        ):
            self._asked_part[CHANNEL_KEY] = version
            self._spawn(self.session.trigger(CHANNEL_KEY, STRIP_CHANGED))
        self._card_check()
        p = self.player[1] if self.player is not None else None
        follow = p.follow if p is not None else None
        lecture = state.get("lecture")
        if p is None or not follow or not isinstance(lecture, dict) or state.get("closed"):
            return
        following = bool(follow.get("following"))
        newer = following and lecture["n"] > self._follow_n
        asked = lecture["q"] != self._follow_q
        if not newer and not asked:
            return
        if newer:
            self._follow_n = lecture["n"]
        self._follow_q = lecture["q"]
        # the question's example: a follower's chart rings it by itself (the state's
        # "asked"); the card is its own part (above)
        ring = lecture.get("asked", "missing")
        ringable = ring is None or (isinstance(ring, list) and len(ring) == 2)
        if ringable and not newer and lecture["run"] == follow.get("run"):
            return
        inside = p.start <= lecture["t"] <= p.stop
        play = lecture.get("play")
        if (
            (asked and following and not ringable)
            or lecture["run"] != follow.get("run")
            or not (inside or play)
        ):
            want = (lecture["n"], lecture["q"])
            if self._asked_live != want:
                self._asked_live = want
                self._spawn(self.session.trigger(PLAYER_KEY, player_live(lecture["n"])))
            return
        sent = message.get("sent")
        if play and isinstance(sent, (int, float)):  # the page plays along by its own clock
            start, rate, at = play
            along = {"from": start, "rate": rate, "elapsed": float(sent) - at}
            self.late = self.lateness(float(sent), time.time(), True)
            self.player = (now, dataclasses.replace(p, along=along))
            return
        self.player = (now, dataclasses.replace(p, t=lecture["t"], along=None))  # a Pause too
        self.drawn += 1
        self.shown.setdefault(lecture["t"], now)  # the browser draws it: no message

    def _spawn(self, state: ClientState) -> None:
        task = asyncio.create_task(self.send(state))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    def _mounted(self, player: PlayerView, now: float) -> None:
        """A new player: what it shows of the class (player.js's mount), and a newer state
        heard meanwhile applied to it."""
        follow = player.follow or {}
        self._follow_n = int(follow.get("n", -1)) if follow.get("following") else -1
        self._follow_q = follow.get("q")
        if self._last is not None:
            self._heard(self._last, now)

    async def _ask_scene(self) -> None:
        await asyncio.sleep(1.0)
        self._ask = None
        last = self.session.last
        if last is not None and last.player is not None and last.player.problem == MISSING_SCENE:
            await self.send(self.session.trigger(PLAYER_KEY, ASK_SCENE))

    async def stop(self) -> None:
        self._closing = True
        tasks = [task for _, task in self._timers.values()]
        tasks += [self._reader] if self._reader is not None else []
        tasks += [self._channel] if self._channel is not None else []
        tasks += [self._ask] if self._ask is not None else []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def send(self, state: ClientState) -> None:
        await self.session.send(message(state))

    def says(self, text: str, where: str | None = None) -> bool:
        """The last finished run drew ``text`` (in a markdown, caption, label...); with
        ``where`` (an element's key), the last run that drew that element (the question
        card is drawn by the lecture's instrument on Step by step, by the strip elsewhere)."""
        last = self.session.last if where is None else self.session.last_with.get(where)
        return last is not None and any(text in body for _, _, body in last.texts)

    def _timer(self, fragment_id: str, interval: float) -> None:
        old = self._timers.get(fragment_id)
        if old is not None and old[0] == interval:
            return
        if old is not None:
            old[1].cancel()
        self._timers[fragment_id] = (
            interval,
            asyncio.create_task(self._every(fragment_id, interval)),
        )

    async def _every(self, fragment_id: str, interval: float) -> None:
        due = time.perf_counter() + interval
        while True:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due = max(due + interval, time.perf_counter())  # a late tick is not made up
            try:
                await self.send(self.session.poll_state(fragment_id))
            except websockets.WebSocketException:
                return  # the reader says why
            self.polls += 1
            self.polled.append(time.perf_counter())

    def first_poll(self, after: float) -> float | None:
        """When the first poll after ``after`` was sent (None: none yet)."""
        i = bisect.bisect_left(self.polled, after)
        return self.polled[i] if i < len(self.polled) else None

    async def _read(self) -> None:
        s = self.session
        assert s.ws is not None
        view = RunView()
        try:
            while True:
                data = await s.ws.recv()
                now = time.perf_counter()
                self.received += len(data)
                fwd = ForwardMsg()
                fwd.ParseFromString(data)
                had = view.player
                s.read(fwd, view)
                if view.player is not None and view.player is not had:
                    if view.player.problem == MISSING_SCENE:
                        self.asked += 1  # as the browser does, after a second
                        self._ask = self._ask or asyncio.create_task(self._ask_scene())
                    elif view.player.problem:
                        self.errors.append(view.player.problem)
                    else:
                        self.shown.setdefault(view.player.t, now)
                        self.player = (now, view.player)
                        self.late = self.lateness(view.player.sent, time.time(), view.player.quick)
                        self._mounted(view.player, now)
                kind = fwd.WhichOneof("type")
                if kind == "auto_rerun":
                    self._timer(fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval)
                elif kind == "stop_auto_rerun":
                    for fragment_id in fwd.stop_auto_rerun.fragment_ids:
                        timer = self._timers.pop(fragment_id, None)
                        if timer is not None:
                            timer[1].cancel()
                if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    view.status = None  # st.rerun: the run that follows ends it
                if view.status is not None:
                    self._finished(view, now)
                    view = RunView()
        except (websockets.WebSocketException, OSError) as exc:
            if not self._closing:
                self.errors.append(f"{type(exc).__name__}: {exc}"[:300])

    def _card_seen(self, view: dict[str, Any] | None, now: float) -> None:
        if not isinstance(view, dict) or not isinstance(view.get("version"), str):
            return
        if self.card_view is not None and view.get("at", 0) < self.card_view.get("at", 0):
            return  # card.js keeps the newest card it was given
        self.card_view = view
        if view.get("q"):
            self.cards.setdefault(int(view["q"]), now)

    def _card_check(self) -> None:
        """As ``card.js`` does: the card the run drew, then its route asked for the room's
        card when the channel names another, once per version."""
        data = getattr(self.session, "card", None)
        if data is not None and data is not self._card_drawn:
            self._card_drawn = data
            if not self._card_posting:  # an answer on its way keeps what was clicked
                self._card_seen(data.get("view"), time.perf_counter())
        state = (self._last or {}).get("state")
        want = state.get("card") if isinstance(state, dict) else None
        shown = (self.card_view or {}).get("version")
        if data is None or not isinstance(want, str) or want in (shown, self._card_asked):
            return
        self._card_asked = want
        task = asyncio.create_task(self._card_fetch(want))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _card_fetch(self, want: str) -> None:
        for tries in range(5):
            status, got = await self.session.card_call(want=want)
            if status == 200:
                self._card_seen(got, time.perf_counter())
                state = (self._last or {}).get("state")
                if not isinstance(state, dict) or state.get("card") == got.get("version"):
                    return
            await asyncio.sleep(0.4 * 2**tries)  # card.js's AGAIN
        self.errors.append("the question card's route did not give the room's card")

    async def answer_card(self, said: int, turn: int | None = None) -> int:
        """A click on the card's choice ``said`` (and turn ``turn``), posted as ``card.js``
        posts it; the route's status (the card it answers with is shown)."""
        view, data = self.card_view or {}, getattr(self.session, "card", None) or {}
        body = {
            "ticket": data.get("ticket"),
            "q": view.get("q"),
            "vote": view.get("vote", 1),
            "said": said,
            "turn": turn,
            "ringed": bool(data.get("ringed")),
        }
        self._card_posting += 1
        try:
            status, got = await self.session.card_call(body)
        finally:
            self._card_posting -= 1
        if status == 200:
            self._card_seen(got, time.perf_counter())
        return status

    def card_says(self, text: str) -> bool:
        """The card the page draws says ``text``."""
        return text in card_words(self.card_view)

    def _finished(self, view: RunView, now: float) -> None:
        self.session.keep(view)
        for key in view.keyed:
            self.keys.setdefault(key, now)
        self.runs += 1
        if view.exceptions:
            self.errors.append("exception on the page: " + "; ".join(view.exceptions)[:300])
        elif view.status not in OK_FINISH:
            self.errors.append(f"script_finished status {view.status}")
        else:
            self.session.check(view)
        self._card_check()


async def until(ready: Callable[[], bool], deadline: float, every: float = 0.02) -> bool:
    """Wait until ``ready()`` or the ``deadline`` (perf_counter); whether it was ready."""
    while not ready():
        if time.perf_counter() >= deadline:
            return False
        await asyncio.sleep(every)
    return True


async def open_live(
    door: Door, query: str, page: str = "lecture", cookies: dict[str, str] | None = None
) -> Live:
    """A session on ``page`` with ``query`` (and ``cookies``: a seat's), open and reading
    (see :class:`Live`)."""
    headers = with_cookies(door.headers, cookies or {})
    session = Session(door.url, query_string=query, page=page, headers=headers or None)
    await session.__aenter__()
    try:
        await session.open()
    except BaseException:
        await session.__aexit__()
        raise
    live = Live(session, door.server)
    live.start()
    return live


async def close_all(lives: list[Live]) -> None:
    for live in lives:
        await live.stop()
    await asyncio.gather(*(live.session.__aexit__() for live in lives), return_exceptions=True)
