"""A page's websocket traffic with Streamlit, one line per message, for a failing class
test to show: the reruns its browser asked for (page, fragment, the widget values it sent)
and what each run drew and how it ended. A flaky test's report then says which request
a run missed, not only which element never came."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

M = TypeVar("M", BackMsg, ForwardMsg)
MAX_LINES = 400  # the last this many lines are shown
RECENT_S = 180.0  # a failed test shows the pages that exchanged anything this lately
T0 = time.monotonic()
WIRES: list[Wire] = []  # every page of this worker's browser (``watch``)


def parse(payload: str | bytes, kind: type[M]) -> M | None:
    """A websocket frame as the message ``kind`` (BackMsg or ForwardMsg), None if text."""
    if not isinstance(payload, bytes):
        return None
    msg = kind()
    msg.ParseFromString(payload)
    return msg


def _value(w: WidgetState) -> str:
    kind = w.WhichOneof("value")
    if kind is None:
        return "-"
    v = getattr(w, kind)
    if kind in ("string_value", "int_value", "double_value", "bool_value", "trigger_value"):
        return repr(v)[:24]
    if kind == "json_value":
        return v[:24]
    return kind


def _short(widget_id: str) -> str:
    """A widget id's user key (``$$ID-<hash>-<key>``), else its hash's start."""
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] != "None" else widget_id[-8:]


class Wire:
    """The lines of one page's traffic (``attach`` to a Playwright page)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self.t0 = T0  # one clock for every page: their lines line up
        self._deltas: Counter[str] = Counter()
        self._paths: list[str] = []  # the first delta paths of the parts' elements, this run
        self.last = 0.0  # when the page last sent or received (monotonic)

    def _say(self, text: str) -> None:
        self.last = time.monotonic()
        self.lines.append(f"{time.monotonic() - self.t0:8.2f} {self.name} {text}")
        del self.lines[:-MAX_LINES]

    def sent(self, payload: str | bytes) -> None:
        if (msg := parse(payload, BackMsg)) is None:
            return
        kind = msg.WhichOneof("type")
        if kind != "rerun_script":
            self._say(f"> {kind}")
            return
        cs = msg.rerun_script
        ws = cs.widget_states.widgets
        shown = [
            f"{_short(w.id)}={_value(w)}" for w in ws if w.WhichOneof("value") == "trigger_value"
        ]
        self._say(
            f"> rerun page={cs.page_script_hash[:6]} frag={cs.fragment_id[-6:] or '-'} "
            f"auto={cs.is_auto_rerun} widgets={len(ws)} {' '.join(shown)}"
        )

    def received(self, payload: str | bytes) -> None:
        if (msg := parse(payload, ForwardMsg)) is None:
            return
        kind = msg.WhichOneof("type")
        if kind == "delta":
            part = msg.delta.fragment_id[-6:] or "app"
            self._deltas[part] += 1
            if part != "app" and len(self._paths) < 6:  # where a part's run draws
                self._paths.append(".".join(map(str, msg.metadata.delta_path)))
        elif kind == "new_session":
            ns = msg.new_session
            self._deltas.clear()
            self._paths.clear()
            parts = [f[-6:] for f in msg.metadata.run.fragment_ids] or "the whole page"
            self._say(f"< new_session page={ns.page_script_hash[:6]} runs {parts}")
        elif kind == "script_finished":
            how = ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)
            self._say(f"< {how.lower()} deltas={dict(self._deltas)} parts at {self._paths}")
            self._deltas.clear()
            self._paths.clear()
        elif kind == "session_status_changed":
            s = msg.session_status_changed
            self._say(f"< status running={s.script_is_running}")
        elif kind in ("auto_rerun", "stop_auto_rerun"):
            body = getattr(msg, kind)
            self._say(f"< {kind} {str(body).strip().replace(chr(10), ' ')[:60]}")
        elif kind not in ("ref_hash", "parent_message"):
            self._say(f"< {kind}")

    def console(self, message) -> None:  # a playwright ConsoleMessage
        text = message.text
        if text.startswith("wire: "):
            self._say(text[6:])
        elif message.type in ("warning", "error"):
            self._say(f"console {message.type}: {text[:200]}")

    def attach(self) -> Callable[[object], None]:
        def on_socket(ws) -> None:  # a playwright WebSocket
            self._say(f"websocket opened {ws.url[-30:]}")
            ws.on("framesent", self.sent)
            ws.on("framereceived", self.received)
            ws.on("close", lambda _: self._say("websocket closed"))

        return on_socket

    def report(self) -> str:
        return "\n".join(self.lines)


# the page's clicks on buttons and links, told on its console (a click that sent nothing)
CLICKS = """document.addEventListener("click", (e) => {
  const hit = e.target instanceof Element ? e.target.closest("button, a, [role=radio]") : null;
  if (hit) console.debug(`wire: click on ${(hit.textContent || hit.tagName).slice(0, 40)}`);
}, true);"""


def watch(page) -> None:
    """Keep ``page``'s traffic (a playwright Page, from its context's "page" event): its
    websocket's messages, its clicks, its console's warnings and errors."""
    size = page.viewport_size or {}
    wire = Wire(f"page {len(WIRES) + 1} ({size.get('width')}x{size.get('height')})")
    WIRES.append(wire)
    page.on("websocket", wire.attach())
    page.on("console", wire.console)
    page.on("pageerror", lambda e: wire._say(f"page error {str(e)[:200]}"))
    page.add_init_script(CLICKS)


def recent() -> list[Wire]:
    """The pages that sent or received anything in the last ``RECENT_S`` seconds."""
    now = time.monotonic()
    return [w for w in WIRES if w.last and now - w.last < RECENT_S]
