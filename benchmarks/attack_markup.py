"""Links with hostile values, and whether any text the browser renders as markdown holds
live markup made from them.

The ``url`` attack opens pages with them (``benchmarks/attack_opens.py``); the ``markup``
check (no victim) opens every page from a link with hostile values
(``?data_n=[CLICK ME](http://example.invalid)``,
``?lec_eta=![t](http://example.invalid/track.gif)``, HTML...) and with 1,000 unknown
parameters, and fails if any text the browser renders as markdown (markdown, alerts,
captions, labels, help) holds a live link, image, autolink or HTML tag made from them,
or if more than a handful of warnings are shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode

from benchmarks.attack_phases import CLOSED, PAGES, visit, warnings_of
from tools.streamlit_client import RunView

MAX_WARNINGS = 10  # "a handful": warnings one link may put on a page, however long it is
EVIL = "http://example.invalid"
HOSTILE = (
    f"[CLICK ME]({EVIL})",
    f"![t]({EVIL}/track.gif)",
    "<img src=x onerror=alert(1)>",
    f"<a href={EVIL}>x</a>",
    f"<{EVIL}>",
    f"`x`]({EVIL})",
    f"{EVIL}/plain",
    "<script>alert(1)</script>",
)
# The heaviest settings of each page (a fresh data_seed and exp_seed are added per request).


FIELDS = 1000  # Streamlit ignores a query string of more fields (or of more than 512 KiB)


def hostile_query(keys: list[str], fields: int = 0) -> str:
    """A hostile value in every setting and hostile names, then unknown parameters with
    hostile values up to ``fields`` parameters in all."""
    params = {key: HOSTILE[i % len(HOSTILE)] for i, key in enumerate(keys)}
    if keys:
        params |= {"data_n": HOSTILE[0], "lec_eta": HOSTILE[1]}  # the docstring's links
    params |= {HOSTILE[0]: "1", HOSTILE[2]: "1"}
    params |= {f"p{k:04d}": HOSTILE[k % len(HOSTILE)] for k in range(fields - len(params))}
    return urlencode(list(params.items()))


def huge_query(limit: int) -> str:
    """The largest query string Streamlit still reads (at most 1,000 fields and 512 KiB),
    within a frame: long hostile values in every field."""
    per_field = min(500 * 1024, int(limit * 0.9)) // FIELDS - 6
    value = (HOSTILE[0] + " ") * 40
    item = urlencode([("p", value)])[1:]
    while len(item) > per_field and value:
        value = value[: len(value) * per_field // len(item) - 1]
        item = urlencode([("p", value)])[1:]
    return "&".join(f"p{k:03d}{item}" for k in range(FIELDS - 1))


# ---------------------------------------------------------------------------- markup


def _escaped(text: str, i: int) -> bool:
    """Whether the character at ``i`` is backslash-escaped (an odd run of backslashes)."""
    n = 0
    while i - n - 1 >= 0 and text[i - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def without_code_spans(text: str) -> str:
    """``text`` with every markdown code span (CommonMark: a run of backticks closed by a
    run of the same length) replaced by ``·``: nothing inside one is markup."""
    runs = [m for m in re.finditer(r"`+", text) if not _escaped(text, m.start())]
    out, pos, i = [], 0, 0
    while i < len(runs):
        opener = runs[i]
        close_at = next(
            (j for j in range(i + 1, len(runs)) if len(runs[j][0]) == len(opener[0])), None
        )
        if close_at is None:
            i += 1
            continue
        out += [text[pos : opener.start()], "·"]
        pos, i = runs[close_at].end(), close_at + 1
    return "".join(out) + text[pos:]


_LINK = re.compile(r"\]\(\s*<?\s*https?://example\.invalid", re.I)  # [..](..) and ![..](..)
_TAG = re.compile(r"<\s*/?\s*(img|a|script|iframe|svg|style)\b|<https?://", re.I)
_AUTO = re.compile(r"(https?://|www\.)example\.invalid", re.I)  # GFM autolink


def live_markup(text: str) -> list[str]:
    """The link, image, autolink or HTML markup of ``text`` that a markdown renderer would
    act on: outside code spans and not backslash-escaped."""
    code_free = without_code_spans(text)
    neutral = re.sub(r"\\[!-/:-@\[-`{-~]", "·", code_free)  # an escaped character: inert
    unescaped = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", code_free)  # autolinks see through
    found = [f"link {m[0]!r}" for m in _LINK.finditer(neutral)]
    found += [f"html {m[0]!r}" for m in _TAG.finditer(neutral)]
    found += [f"autolink {m[0]!r}" for m in _AUTO.finditer(unescaped) if not _LINK.search(neutral)]
    return found


def live_markup_in(view: RunView) -> list[str]:
    return [f"{kind}.{name}: {m} in {text[:70]!r}" for kind, name, text in view.texts
            for m in live_markup(text)]  # fmt: skip


@dataclass
class MarkupRow:
    page: str
    link: str
    markup: list[str]
    warnings: int
    errors: list[str]

    @property
    def ok(self) -> bool:
        return not self.markup and self.warnings <= MAX_WARNINGS and not self.errors


async def markup_check(port: int, keys: list[str]) -> list[MarkupRow]:
    links = {
        "hostile values": hostile_query(keys),
        "1,000 unknown": hostile_query([], fields=FIELDS),
    }
    rows = []
    for page in PAGES:
        for name, query in links.items():
            try:
                view = await visit(port, page, query, 60.0)
            except (TimeoutError, *CLOSED) as exc:
                rows.append(MarkupRow(page or "home", name, [], 0, [type(exc).__name__]))
                continue
            errors = ["exception: " + "; ".join(view.exceptions)[:100]] if view.exceptions else []
            markup = live_markup_in(view)
            rows.append(MarkupRow(page or "home", name, markup, warnings_of(view), errors))
    return rows
