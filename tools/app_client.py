"""A session on this app's pages: the lecture player and the margin lab, as the browser
drives them (:mod:`tools.components` says what they send and what an answer must show).

- open ``/lecture`` (or ``/margin``, or another page): the first run must bring the page's
  hash and, on the lecture page, the player with its scene (on the margin lab, the
  drawing surface with its points);
- step: the player's report of a step (``at`` with ``{"t", "seq"}``, ``seq`` one more
  with every report; ``"play": true`` when a replay ran into the next window), with the
  ``fragment_id`` the player came with, so only the fragment reruns (``full_rerun``
  sends no fragment id: a whole-page rerun). A step outside the window makes the server
  rerun the whole page with the window that holds it. Every answer to a report is
  verified (:func:`tools.components.verify`);
- drag on the margin lab: drop a point somewhere else (``moved``); the answer must draw
  point i where it was dropped, with the version one higher.

Latency is measured from sending the BackMsg to receiving ``script_finished``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any, Unpack
from urllib.parse import urlsplit

from streamlit.proto.ClientState_pb2 import ClientState

from tools.components import (
    ASK_SCENE,
    CANVAS_KEY,
    CARD_KEY,
    CHANNEL_KEY,
    LECTURE_SCENE_KEY,
    PLAYER_KEY,
    Drop,
    PlayerView,
    Where,
    next_burst,
    report,
    verify,
)
from tools.streamlit_client import RUN_TIMEOUT, Client, Options, RunError, RunView, message


async def http_post(stream: str, path: str, body: bytes, headers: dict[str, str] | None) -> int:
    """POST ``body`` to ``path`` on the server of the websocket URL ``stream``; its status."""
    return (await http_call(stream, "POST", path, body, headers))[0]


async def http_call(
    stream: str, method: str, path: str, body: bytes, headers: dict[str, str] | None
) -> tuple[int, bytes]:
    """``method`` ``path`` (with ``body``) on the server of the websocket URL ``stream``, on
    a connection of its own; its status and body."""
    where = urlsplit(stream)
    host, port = where.hostname or "127.0.0.1", where.port or 80
    reader, writer = await asyncio.open_connection(host, port)
    try:
        status, got, _ = await asyncio.wait_for(
            _exchange(
                reader,
                writer,
                f"{host}:{port}",
                method,
                path,
                body,
                {"Connection": "close", **(headers or {})},
            ),
            RUN_TIMEOUT,
        )
        return status, got
    finally:
        writer.close()


async def _exchange(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    host: str,
    method: str,
    path: str,
    body: bytes,
    headers: dict[str, str],
) -> tuple[int, bytes, bool]:
    """One HTTP/1.1 request written and its answer read: its status, its body, and whether
    the server closes the connection after it (a body of no stated length then runs to the
    connection's end)."""
    lines = [
        f"{method} {path} HTTP/1.1",
        f"Host: {host}",
        "Content-Type: text/plain",
        f"Content-Length: {len(body)}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    length, close = None, False
    while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
        elif name.strip().lower() == "connection" and "close" in value.lower():
            close = True
    if length is None:
        return status, (await reader.read()) if close else b"", close
    return status, await reader.readexactly(length), close


class KeptHttp:
    """One kept-alive HTTP/1.1 connection to the server of the websocket URL ``stream``, as
    a browser keeps one to a page's server: one request at a time, opened again when the
    server closed it."""

    def __init__(self, stream: str) -> None:
        where = urlsplit(stream)
        self.host, self.port = where.hostname or "127.0.0.1", where.port or 80
        self._lock = asyncio.Lock()
        self._conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def call(
        self, method: str, path: str, body: bytes, headers: dict[str, str] | None
    ) -> tuple[int, bytes]:
        """``method`` ``path`` (with ``body``); its status and body."""
        async with self._lock:
            for again in (False, True):
                if self._conn is None:
                    self._conn = await asyncio.open_connection(self.host, self.port)
                reader, writer = self._conn
                try:
                    status, got, close = await asyncio.wait_for(
                        _exchange(
                            reader,
                            writer,
                            f"{self.host}:{self.port}",
                            method,
                            path,
                            body,
                            headers or {},
                        ),
                        RUN_TIMEOUT,
                    )
                except (ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError):
                    self.close()
                    if again:
                        raise
                    continue
                if close:
                    self.close()
                return status, got
            raise AssertionError("unreachable")

    def close(self) -> None:
        if self._conn is not None:
            self._conn[1].close()
            self._conn = None


class Session(Client):
    """One simulated student on one websocket, on a page of this app."""

    def __init__(
        self,
        url: str,
        query_string: str = "",
        page: str = "lecture",
        *,
        needs_player: bool = True,
        **options: Unpack[Options],
    ) -> None:
        super().__init__(url, query_string, page, **options)
        self.needs_player = needs_player  # False: any lecture page (a reference copy)
        self.canvas_id = ""
        self.canvas_fragment_id = ""
        self.scene: dict[str, Any] = {}
        self.lecture_scene: dict[str, Any] = {}  # the lecture's window, from the last full run
        self.channel: dict[str, Any] | None = None  # the strip's live channel (its ticket)
        self.card: dict[str, Any] | None = None  # Step by step's card as a run drew it
        self._http: KeptHttp | None = None  # the page's kept connection for the card's route
        self.player_id = ""
        self.player_fragment_id = ""
        self.t = 0  # the server's step, as the player last showed it
        self.n_steps = 0  # T
        self.start = self.stop = 0  # the player's window
        self.seq = 0  # the number of the last report sent (or the server's, if higher)
        self.play = 0
        self.post: dict[str, str] | None = None  # where the page posts its steps, if alone
        self.run = ""  # the run the player shows

    def component(self, view: RunView, component: Any, fragment_id: str) -> None:
        if component.id.endswith(f"-{LECTURE_SCENE_KEY}"):
            self.lecture_scene = json.loads(component.bytes or component.json)
        elif component.id.endswith(f"-{PLAYER_KEY}"):
            player = PlayerView.read(component.id, fragment_id, component.json, self.lecture_scene)
            view.player = player
            view.t, view.n_steps = player.t, player.T
        elif component.id.endswith(f"-{CHANNEL_KEY}"):
            self.channel = json.loads(component.json)  # the ticket, the strip's topic and version
        elif component.id.endswith(f"-{CARD_KEY}"):
            self.card = json.loads(component.json)  # its route, ticket and view
        elif component.id.endswith(f"-{CANVAS_KEY}"):
            view.canvas_id = component.id
            view.canvas_fragment_id = fragment_id
            view.scene = json.loads(component.json)

    def check(self, view: RunView) -> None:
        """Raise RunError for a run that failed; keep the player's and the surface's state."""
        super().check(view)
        p = view.player
        if p is not None and p.problem is None:
            self.player_id, self.player_fragment_id = p.id, p.fragment_id
            self.t, self.n_steps, self.start, self.stop = p.t, p.T, p.start, p.stop
            self.seq, self.play = max(self.seq, p.seq), p.play
            self.post, self.run = p.post, p.run
        if view.canvas_id and view.scene is not None:
            self.canvas_id = view.canvas_id
            self.canvas_fragment_id = view.canvas_fragment_id or ""
            self.scene = view.scene

    def opened(self, view: RunView) -> None:
        if self.page == "margin":
            if not (self.page_hash and self.canvas_id and self.scene.get("points")):
                raise RunError("the margin lab came without its page hash or drawing surface")
        elif self.page != "lecture" or not self.needs_player:
            super().opened(view)
        elif not (self.page_hash and self.player_id) or view.player is None:
            raise RunError("the lecture page came without its page hash or its player")
        elif view.player.problem:
            raise RunError(view.player.problem)

    async def flood(
        self, raw_values: list[str], quiet: float = 2.0, key: str = CANVAS_KEY
    ) -> RunView:
        """Send one trigger of the margin lab (or of the component keyed ``key``, such as
        the lecture player) per ``json_trigger_value`` text, all at once, without waiting
        for answers (a hostile or broken browser); then read until the server has been
        quiet for ``quiet`` s. Returns what the last finished run drew."""
        for raw in raw_values:
            state = self.canvas_event_state(raw) if key == CANVAS_KEY else self.trigger(key, raw)
            await self.send(message(state))
        last, view = RunView(), RunView()
        while True:
            try:
                finished = await asyncio.wait_for(self.receive(view), quiet)
            except TimeoutError:
                return last
            if finished:
                last, view = view, RunView()

    async def ask_scene(self) -> RunView:
        """Ask for the lecture's scene again, as player.js does when a step has waited a
        second for its scene: the answer is the page's run, which sends it."""
        view = await self.request(self.trigger(PLAYER_KEY, ASK_SCENE))
        self.check(view)
        return view

    # ------------------------------------------------------------------ the margin lab

    def canvas_event_state(self, raw: str) -> ClientState:
        """A rerun carrying the margin lab's trigger with ``json_trigger_value`` = ``raw``."""
        return self.component_event(self.canvas_id, self.canvas_fragment_id, raw)

    async def canvas_event(self, raw: str) -> RunView:
        """Send one margin-lab trigger and wait for the run it causes."""
        view = await self.request(self.canvas_event_state(raw))
        self.check(view)
        return view

    async def drag(self, rng: random.Random) -> tuple[float, str | None]:
        """Drop a random point of the margin lab at a random place near where it was;
        (latency ms, None or what was wrong with the answer)."""
        drop = Drop.near(self.scene, rng)
        start = time.perf_counter()
        view = await self.canvas_event(drop.event())
        return (time.perf_counter() - start) * 1000, drop.problem(view.scene)

    # ------------------------------------------------------------------ the lecture player

    def player_event(self, raw: str) -> ClientState:
        """A rerun carrying the lecture player's trigger with ``json_trigger_value`` =
        ``raw``, in the player's fragment (unless ``full_rerun``)."""
        return self.component_event(self.player_id, self.player_fragment_id, raw)

    def report_state(self, target: Any, play: bool = False, **extra: Any) -> ClientState:
        """What the browser sends once a burst of steps pauses at ``target`` (or at once
        for a step outside the window): the player's report, numbered one more than the
        last (:func:`tools.components.report`; ``extra``: a class lecturer's Play)."""
        self.seq += 1
        return self.player_event(report(target, self.seq, play, **extra))

    async def report_view(
        self, target: Any, play: bool = False, timeout: float = RUN_TIMEOUT
    ) -> RunView:
        """Report the step ``target`` and wait for the run it causes; the view unchecked."""
        return await self.request(self.report_state(target, play), timeout)

    def where(self) -> Where:
        return Where(self.t, self.start, self.stop, self.n_steps, self.play)

    async def report(
        self, target: int, play: bool = False, full: list[float] | None = None
    ) -> tuple[float, str | None]:
        """Report the step ``target`` as the browser does; returns (latency ms, None or
        what was wrong with the answer, :func:`tools.components.verify`). A run that fails
        raises RunError. The latency of an answer that was a full rerun is added to
        ``full`` too."""
        before = self.where()
        state = self.report_state(target, play)
        seq = self.seq
        start = time.perf_counter()
        view = await self.request(state)
        elapsed = (time.perf_counter() - start) * 1000
        self.check(view)
        if full is not None and view.full:
            full.append(elapsed)
        return elapsed, verify(view, target, seq, before, full_rerun=self.full_rerun, play=play)

    async def post_report(self, target: int) -> tuple[float, str | None]:
        """Post the step ``target`` to the page's route as ``player.js`` does for a student
        alone (no rerun; a 404 goes through the session instead, as the page does). Returns
        (latency ms, None or what was wrong)."""
        if self.post is None:
            raise RunError("the page offers no route for its steps")
        self.seq += 1
        body = json.dumps({"k": self.post["k"], "t": target, "seq": self.seq, "run": self.run})
        start = time.perf_counter()
        status = await http_post(self.url, self.post["url"], body.encode(), self.headers)
        elapsed = (time.perf_counter() - start) * 1000
        if status == 404:  # a server that does not know this tab: the session hears it
            self.seq -= 1
            return await self.report(target)
        self.t = target
        return elapsed, None if status == 204 else f"the route answered {status}"

    async def card_call(
        self, body: dict[str, Any] | None = None, want: str = ""
    ) -> tuple[int, Any]:
        """The question card's route as ``card.js`` calls it: its card now (``body`` None;
        ``want``: the card version the channel named), or an answer posted; the status and
        the JSON answered."""
        if self.card is None:
            raise RunError("the page drew no question card of its own")
        self._http = self._http or KeptHttp(self.url)
        if body is None:
            ringed = "1" if self.card["ringed"] else "0"
            path = f"{self.card['url']}?ticket={self.card['ticket']}&ringed={ringed}&v={want}"
            status, raw = await self._http.call("GET", path, b"", self.headers)
        else:
            sent = json.dumps(body).encode()
            status, raw = await self._http.call("POST", self.card["url"], sent, self.headers)
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, None

    async def __aexit__(self, *exc: object) -> None:
        if self._http is not None:
            self._http.close()
        await super().__aexit__(*exc)

    async def posted(self) -> str | None:
        """None if the session's next run shows the step last posted (the instrument's
        fragment rerun, as the strip's live channel asks for it); else what it shows."""
        view = await self.request(self.player_event(json.dumps([{"event": "live", "value": {}}])))
        self.check(view)
        if view.player is None or view.player.t != self.t or view.player.seq != self.seq:
            shown = None if view.player is None else (view.player.t, view.player.seq)
            return f"posted step {self.t} (report {self.seq}), the session shows {shown}"
        return None

    async def press_step(self) -> tuple[float, str | None]:
        """Step once and pause: the report of t + 1 (see :meth:`report`)."""
        return await self.report(self.t + 1)

    def burst(self, rng: random.Random, leave: float) -> tuple[int, bool]:
        """Where this student's next burst of steps pauses, and whether it is a replay
        (:func:`tools.components.next_burst`)."""
        return next_burst(self.where(), rng, leave)
