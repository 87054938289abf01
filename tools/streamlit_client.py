"""A browser without a browser: one session over Streamlit's own websocket protocol.

- connect to ``ws://127.0.0.1:<port>/_stcore/stream`` with the subprotocol
  ``streamlit`` (the second and third subprotocol entries, an XSRF token and a
  session id to resume, are left out: a new session without an auth cookie);
- open a page: a ``BackMsg.rerun_script`` whose ``ClientState`` has the URL's
  ``query_string`` and ``page_name`` (what the browser sends on a first visit to
  ``/<page>``, before it knows any page hash); the server answers with ``new_session``,
  ``navigation`` (every page's ``page_script_hash`` and ``url_pathname``; the current
  page's hash), the deltas, and ``script_finished``;
- rerun: a ``rerun_script`` with the page's ``page_script_hash``, the latest query
  string (``page_info_changed``) and every widget value set so far (as the browser
  sends them all), with a ``fragment_id`` to rerun only that fragment (the run then
  ends with ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY``);
- a component's event: a ``WidgetState`` with the trigger id
  ``$$STREAMLIT_INTERNAL_KEY_<element id>__events`` and its ``json_trigger_value``;
- a file uploaded: an HTTP ``PUT`` of the file (a multipart form) to
  ``/_stcore/upload_file/<session id>/<file id>`` with Streamlit's XSRF cookie and its
  token in ``X-Xsrftoken``, then a rerun whose uploader's ``file_uploader_state_value`` names the
  file (the session id is the one ``new_session`` gave).

Every keyed element and block a run sends is remembered under its key
(:meth:`Client.element`), so a client can open a lazy expander (``open_expander``), fire any
component's trigger (``trigger``), rerun with the widget values it set (``rerun``), and
read the text the browser renders as markdown and the alerts (``RunView.texts``,
``RunView.alerts``). An exception element, an error alert (the page's guard turning an
exception into a sentence), a run that does not finish successfully, a timeout or a
dropped connection is an error (:class:`RunError`, or the exception as it came).
"""

from __future__ import annotations

import asyncio
import collections
import secrets
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Self, TypedDict, Unpack

import websockets
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.Common_pb2 import UploadedFileInfo
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from tools.components import PlayerView

OK_FINISH = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
RUN_TIMEOUT = 60.0  # seconds a single run may take before it counts as an error
GUARD_ERROR = "went wrong"  # ui.server.guard's sentence for an unexpected exception (st.error)
_TEXT_FIELDS = frozenset({"body", "label", "help", "caption", "placeholder"})


class RunError(Exception):
    """A run that failed: timeout, exception element, bad finish, lost connection."""


CLOSED_OR_FAILED = (RunError, TimeoutError, OSError, websockets.WebSocketException)


def message(state: ClientState) -> bytes:
    """The websocket frame of a ``BackMsg.rerun_script`` with this client state."""
    msg = BackMsg()
    msg.rerun_script.CopyFrom(state)
    frame: bytes = msg.SerializeToString()  # protobuf's Message is untyped
    return frame


def stream_url(where: int | str) -> str:
    """The websocket of a server: a port on 127.0.0.1, or the address of a front door
    (``http://host:port`` or ``ws://host:port``: nginx in front of several servers)."""
    if isinstance(where, int):
        return f"ws://127.0.0.1:{where}/_stcore/stream"
    base = where.rstrip("/")
    if base.startswith(("http://", "https://")):
        base = "ws" + base[4:]
    return base if base.endswith("/_stcore/stream") else base + "/_stcore/stream"


def http_base(stream: str) -> str:
    """``http://host:port`` of a server (or front door) from its websocket's URL."""
    base = stream.removesuffix("/_stcore/stream")
    return "http" + base[2:] if base.startswith("ws") else base


def put_file(url: str, name: str, data: bytes, headers: dict[str, str], timeout: float) -> int:
    """PUT ``data`` as the file ``name`` in a multipart form to ``url``; the HTTP status."""
    boundary = secrets.token_hex(16)
    body = b"".join(
        [
            f"--{boundary}\r\n".encode(),
            f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'.encode(),
            b"Content-Type: text/csv\r\n\r\n",
            data,
            f"\r\n--{boundary}--\r\n".encode(),
        ]
    )
    request = urllib.request.Request(url, data=body, method="PUT")
    for k, v in headers.items():
        request.add_header(k, v)
    request.add_header("Content-Type", f"multipart/form-data; boundary={boundary}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)


def user_key(element_id: str) -> str:
    """The key a page gave an element, from its id ``$$ID-<hash>-<key>`` (else the id)."""
    parts = element_id.split("-", 2)
    return parts[2] if element_id.startswith("$$ID-") and len(parts) == 3 else element_id


@dataclass
class RunView:
    """What one script run sent back, as far as the tools care."""

    status: ForwardMsg.ScriptFinishedStatus.ValueType | None = None
    page_hash: str | None = None
    exceptions: list[str] = field(default_factory=list)
    # every keyed element and block (widgets, components, stateful expanders): user key ->
    # (element id, fragment id)
    keyed: dict[str, tuple[str, str]] = field(default_factory=dict)
    # text the browser renders as markdown: (element type, field, text)
    texts: list[tuple[str, str, str]] = field(default_factory=list)
    alerts: list[tuple[int, str]] = field(default_factory=list)  # (Alert.Format, body)
    # fragments the server asked the browser to rerun every interval s (st.fragment's
    # run_every: a ForwardMsg.auto_rerun), and those whose timers it stopped
    auto_reruns: dict[str, float] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)
    # the app's drawing components (read by tools.app_client.Session)
    player: PlayerView | None = None  # the lecture player
    t: int | None = None  # the lecture player's step
    n_steps: int | None = None  # and its run's length T
    canvas_id: str | None = None  # the margin lab's drawing surface
    canvas_fragment_id: str | None = None
    scene: dict[str, Any] | None = None  # what the surface draws

    @property
    def full(self) -> bool:
        """A whole-page run (not a fragment's)."""
        return self.status == ForwardMsg.FINISHED_SUCCESSFULLY

    def collect(self, which: str, proto: Any, fragment_id: str) -> None:
        """Remember an element's id under its key and the text fields the browser renders."""
        element_id = getattr(proto, "id", "")
        if isinstance(element_id, str) and element_id:
            self.keyed[user_key(element_id)] = (element_id, fragment_id)
        for descriptor, value in proto.ListFields():
            if descriptor.name in _TEXT_FIELDS and isinstance(value, str) and value:
                self.texts.append((which, descriptor.name, value))
        if which == "alert":
            self.alerts.append((proto.format, proto.body))


class Options(TypedDict, total=False):
    """A client's settings, each optional: ``full_rerun`` (a click or a component's event
    reruns the whole page, not its fragment; False), ``headers`` (the handshake's extra
    headers, such as nginx's sticky cookie; None) and ``browser`` (the browser it is, as
    the app's ``perceptron_browser`` cookie that a page load sets, 32 hex digits: a new one
    of its own by default, as every student's browser has; None: no cookie, as a script
    sends none)."""

    full_rerun: bool
    headers: dict[str, str] | None
    browser: str | None


BROWSER_COOKIE = "perceptron_browser"  # the app's name of a browser (ui.server.clients)
XSRF_COOKIE = "_streamlit_xsrf"  # Streamlit's, checked against X-Xsrftoken on an upload


def browser_cookie(name: str) -> str:
    """The cookie that names a browser ``name`` (32 lowercase hex digits), signed as the
    app's door signs it, under the secret of the servers this process starts
    (``tools.streamlit_server``); another ``name`` goes as it is (a forged one)."""
    from ui.server import clients

    is_name = len(name) == 32 and all(c in "0123456789abcdef" for c in name)
    return f"{BROWSER_COOKIE}={clients.signed_browser(name) if is_name else name}"


def xsrf_cookie(token: str) -> str:
    """Streamlit's XSRF cookie for ``token`` (hex): ``2|mask|token^mask|time``, the mask
    all zeros."""
    return f"{XSRF_COOKIE}=2|00000000|{token}|{int(time.time())}"


def with_browser(headers: dict[str, str] | None, browser: str | None) -> dict[str, str] | None:
    """``headers`` with the browser's cookie added to its Cookie header."""
    if browser is None:
        return headers
    return with_cookie(headers, browser_cookie(browser))


def with_cookie(headers: dict[str, str] | None, cookie: str) -> dict[str, str]:
    """``headers`` with ``cookie`` added to its Cookie header."""
    out = dict(headers or {})
    out["Cookie"] = "; ".join([c for c in (out.get("Cookie"), cookie) if c])
    return out


class Client:
    """One session on one websocket, on one page of a Streamlit app (``page``: its URL
    path, "" for the home page), opened with the URL's ``query_string``."""

    def __init__(
        self, url: str, query_string: str = "", page: str = "", **options: Unpack[Options]
    ) -> None:
        self.url = url
        browser = options.get("browser", secrets.token_hex(16))
        self.headers = with_browser(options.get("headers"), browser)
        self.browser = browser
        self.session_id = ""  # the server's id of this session (its new_session says)
        self.page = page
        self.query_string = query_string
        self.full_rerun = options.get("full_rerun", False)
        self.ws: websockets.ClientConnection | None = None
        self.page_hash = ""
        self.keyed: dict[str, tuple[str, str]] = {}  # every keyed element seen so far
        self.sticky: dict[str, WidgetState] = {}  # widget values this client set (resent)
        self.last: RunView | None = None  # what the last finished run sent
        self.last_with: dict[str, RunView] = {}  # an element key -> the last run that drew it
        self.auto_reruns: dict[str, float] = {}  # fragment id -> interval (see RunView)
        # what the server sent lately, told when an answer does not come (which run is stuck)
        self.heard: collections.deque[str] = collections.deque(maxlen=40)
        self.page_hashes: dict[str, str] = {}  # every page's URL path -> its script hash

    async def __aenter__(self) -> Self:
        self.ws = await websockets.connect(
            self.url,
            subprotocols=[websockets.Subprotocol("streamlit")],
            max_size=None,
            additional_headers=self.headers,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def request(self, state: ClientState, timeout: float = RUN_TIMEOUT) -> RunView:
        """Send one rerun_script and read until its script_finished (unchecked)."""
        await self.send(message(state))
        return await self.answer(timeout)

    async def send(self, data: bytes) -> None:
        """Send one serialized BackMsg (see :func:`message`) without waiting."""
        assert self.ws is not None
        await self.ws.send(data)

    async def receive(self, view: RunView) -> bool:
        """Read one ForwardMsg into ``view``; whether a run ended with it (a run ended by
        ``st.rerun`` does not: the run that follows answers the message)."""
        assert self.ws is not None
        fwd = ForwardMsg()
        fwd.ParseFromString(await self.ws.recv())  # cancelling recv() loses no message
        self.read(fwd, view)
        if view.status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            view.status = None
        return view.status is not None

    async def answer(self, timeout: float = RUN_TIMEOUT) -> RunView:
        """Read until a run finishes (a fragment that reruns the whole page, as the
        player's does for a step outside its window, answers with the page's run)."""
        view = RunView()
        try:
            async with asyncio.timeout(timeout):
                while not await self.receive(view):
                    pass
        except TimeoutError as e:
            heard = "; ".join(self.heard) or "nothing"
            raise TimeoutError(f"no run finished in {timeout:g} s; lately heard: {heard}") from e
        self.keep(view)
        return view

    async def settle(self, *, runs: int = 0, quiet: float = 0.5) -> RunView | None:
        """Read the runs this client did not ask for (a ``st.rerun`` that followed, a run
        its timer's earlier poll started): at least ``runs`` of them, then until nothing has
        come for ``quiet`` seconds. The last run's view (None if none came).

        Without this, such a run's ``script_finished`` is read as the answer to the
        next message this client sends, and that message's own answer as the one after."""
        view, last, done = RunView(), None, 0
        async with asyncio.timeout(RUN_TIMEOUT):
            while True:
                try:
                    async with asyncio.timeout(None if done < runs else quiet):
                        finished = await self.receive(view)
                except TimeoutError:
                    if done < runs:
                        raise
                    return last
                if finished:
                    self.keep(view)
                    last, view, done = view, RunView(), done + 1

    def keep(self, view: RunView) -> None:
        """Keep what a finished run sent that later messages build on."""
        self.keyed.update(view.keyed)
        self.auto_reruns.update(view.auto_reruns)
        for fragment_id in view.stopped:
            self.auto_reruns.pop(fragment_id, None)
        self.last = view
        for key in view.keyed:
            self.last_with[key] = view

    def state(
        self, widgets: list[WidgetState] | tuple[WidgetState, ...] = (), fragment_id: str = ""
    ) -> ClientState:
        """A rerun of this session's page: the widget values set so far (as a browser
        sends them all) plus ``widgets``, as a fragment rerun if ``fragment_id``."""
        state = ClientState(query_string=self.query_string, page_script_hash=self.page_hash)
        if fragment_id:
            state.fragment_id = fragment_id
        fresh = {w.id for w in widgets}
        state.widget_states.widgets.extend(
            [w for i, w in self.sticky.items() if i not in fresh] + list(widgets)
        )
        return state

    async def rerun(
        self,
        widgets: list[WidgetState] | tuple[WidgetState, ...] = (),
        fragment_id: str = "",
        timeout: float = RUN_TIMEOUT,
    ) -> RunView:
        """One rerun (see :meth:`state`); the view is returned unchecked."""
        return await self.request(self.state(widgets, fragment_id), timeout)

    def poll_state(self, fragment_id: str) -> ClientState:
        """What the browser's timer for a ``run_every`` fragment sends each interval:
        a rerun of that fragment with ``is_auto_rerun`` and the widget values."""
        state = self.state(fragment_id=fragment_id)
        state.is_auto_rerun = True
        return state

    def go(self, page: str) -> ClientState:
        """A link to another page of the app clicked (``st.page_link``): a rerun of that
        page's script, as the browser sends it (no query string, no widget values)."""
        if page not in self.page_hashes:
            raise RunError(f"the navigation has no page {page!r}")
        self.sticky.clear()
        self.page = page
        self.query_string = ""
        return ClientState(page_script_hash=self.page_hashes[page])

    def press(self, key: str) -> ClientState:
        """A click on the button keyed ``key``: its ``trigger_value``, in its fragment."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id, trigger_value=True)
        return self.state([widget], "" if self.full_rerun else fragment_id)

    def choose(self, key: str, *values: str) -> ClientState:
        """A choice in the segmented control (or pills) keyed ``key``: the formatted
        options as ``string_array_value``, kept for later reruns as the browser keeps it."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id)
        widget.string_array_value.data.extend(values)
        self.sticky[element_id] = widget
        return self.state([widget], "" if self.full_rerun else fragment_id)

    async def upload(
        self, key: str, name: str, data: bytes, timeout: float = RUN_TIMEOUT
    ) -> ClientState:
        """Upload ``data`` as the file ``name`` into the file uploader keyed ``key``, as a
        browser does (RunError if the server refuses the file); returns the rerun that
        hands it to the page."""
        element_id, fragment_id = self.element(key)
        if not self.session_id or self.browser is None:
            raise RunError("an upload needs the session's id and a browser")
        file_id = str(uuid.uuid4())
        path = f"/_stcore/upload_file/{self.session_id}/{file_id}"
        cookie = xsrf_cookie(secrets.token_hex(16))  # as the page's response sets it
        headers = with_cookie(self.headers, cookie)
        headers["X-Xsrftoken"] = cookie.split("=", 1)[1]
        status = await asyncio.to_thread(
            put_file, http_base(self.url) + path, name, data, headers, timeout
        )
        if status != 204:
            raise RunError(f"the server refused the upload: HTTP {status}")
        widget = WidgetState(id=element_id)
        info = UploadedFileInfo(file_id=file_id, name=name, size=len(data))
        info.file_urls.file_id, info.file_urls.upload_url = file_id, path
        info.file_urls.delete_url = path
        widget.file_uploader_state_value.uploaded_file_info.append(info)
        return self.state([widget], "" if self.full_rerun else fragment_id)

    def element(self, key: str) -> tuple[str, str]:
        """(id, fragment id) of the element the page keyed ``key`` (RunError if none)."""
        if key not in self.keyed:
            raise RunError(f"the page has no element with key {key!r}")
        return self.keyed[key]

    async def open_expander(self, key: str, timeout: float = RUN_TIMEOUT) -> RunView:
        """Open a stateful (lazy) ``st.expander(key=..., on_change="rerun")``, as a click on
        its label does: its widget state ``bool_value=True``, kept for later reruns."""
        element_id, fragment_id = self.element(key)
        widget = WidgetState(id=element_id, bool_value=True)
        self.sticky[element_id] = widget
        view = await self.rerun([widget], fragment_id, timeout)
        self.check(view)
        return view

    def trigger(self, key: str, raw: str) -> ClientState:
        """A rerun carrying the trigger of the component keyed ``key`` (a
        ``st.components.v2`` component) with ``json_trigger_value`` = ``raw``, as a
        fragment rerun when the component sits in one (unless ``full_rerun``)."""
        element_id, fragment_id = self.element(key)
        return self.component_event(element_id, fragment_id, raw)

    def component_event(self, element_id: str, fragment_id: str, raw: str) -> ClientState:
        """A rerun carrying the events ``raw`` (a ``json_trigger_value``) of the component
        ``element_id``: its trigger id is ``$$STREAMLIT_INTERNAL_KEY_<id>__events``."""
        widget = WidgetState(
            id=f"$$STREAMLIT_INTERNAL_KEY_{element_id}__events", json_trigger_value=raw
        )
        return self.state([widget], "" if self.full_rerun else fragment_id)

    @staticmethod
    def hearing(fwd: ForwardMsg, kind: str | None) -> str:
        """One ForwardMsg in a few words, for :attr:`heard`."""
        at = f"{time.monotonic():.2f}"
        if kind == "script_finished":
            return f"{at} finished {fwd.script_finished}"
        if kind == "delta":
            return f"{at} delta {fwd.delta.fragment_id[:8]}"
        if kind == "session_status_changed":
            return f"{at} running={fwd.session_status_changed.script_is_running}"
        return f"{at} {kind}"

    def read(self, fwd: ForwardMsg, view: RunView) -> None:
        """Read one ForwardMsg of a run into ``view``."""
        kind = fwd.WhichOneof("type")
        heard = self.hearing(fwd, kind)
        same = self.heard and self.heard[-1].split(" ", 1)[1] == heard.split(" ", 1)[1]
        if kind == "delta" and same:
            self.heard[-1] = heard  # a run's deltas, one line
        else:
            self.heard.append(heard)
        if kind == "script_finished":
            view.status = fwd.script_finished
        elif kind == "navigation":
            view.page_hash = fwd.navigation.page_script_hash
            for page in fwd.navigation.app_pages:
                self.page_hashes[page.url_pathname] = page.page_script_hash
        elif kind == "new_session":
            self.session_id = fwd.new_session.initialize.session_id or self.session_id
            if not fwd.metadata.run.fragment_ids:
                # a page run: the browser stops every fragment's timer (the run starts
                # those it still has, under ids that may be new)
                self.auto_reruns.clear()
        elif kind == "page_info_changed":
            self.query_string = fwd.page_info_changed.query_string
        elif kind == "auto_rerun":
            view.auto_reruns[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            view.stopped.extend(fwd.stop_auto_rerun.fragment_ids)
        elif kind == "session_event":
            event = fwd.session_event.WhichOneof("type")
            if event == "script_compilation_exception":
                view.exceptions.append(fwd.session_event.script_compilation_exception.message)
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "add_block":
            block = fwd.delta.add_block
            if block.id:
                view.keyed[user_key(block.id)] = (block.id, fwd.delta.fragment_id)
            if block.WhichOneof("type") == "expandable" and block.expandable.label:
                view.texts.append(("expandable", "label", block.expandable.label))
        elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
            element = fwd.delta.new_element
            which = element.WhichOneof("type")
            if which is not None:
                view.collect(which, getattr(element, which), fwd.delta.fragment_id)
            if which == "bidi_component":
                self.component(view, element.bidi_component, fwd.delta.fragment_id)
            elif which == "alert":
                body = element.alert.body
                if element.alert.format == Alert.ERROR and GUARD_ERROR in body:
                    view.exceptions.append(f"the page's error sentence: {body[:160]}")
            elif which == "exception":
                view.exceptions.append(f"{element.exception.type}: {element.exception.message}")

    def component(self, view: RunView, component: Any, fragment_id: str) -> None:
        """Read a ``bidi_component`` element a run drew (here: nothing beyond its key)."""

    def check(self, view: RunView) -> None:
        """Raise RunError for a run that failed; keep the page's hash it sent."""
        if view.exceptions:
            raise RunError("exception on the page: " + "; ".join(view.exceptions))
        if view.status not in OK_FINISH:
            raise RunError(f"script_finished status {view.status}")
        if view.page_hash:
            self.page_hash = view.page_hash

    async def open(self) -> float:
        """First visit to the page; returns the latency in ms (RunError if the page came
        incomplete, :meth:`opened`)."""
        state = ClientState(query_string=self.query_string, page_name=self.page)
        start = time.perf_counter()
        view = await self.request(state)
        elapsed = (time.perf_counter() - start) * 1000
        self.check(view)
        self.opened(view)
        return elapsed

    def opened(self, view: RunView) -> None:
        """Raise RunError if the first run of the page lacks what later messages need."""
        if not self.page_hash:
            raise RunError(f"the page {self.page!r} came without its page hash")
