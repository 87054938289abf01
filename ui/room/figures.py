"""The projector's pictures of a class: the challenge's submissions against the bound.

The board is SVG markup of our own, drawn from numbers only (no nickname is ever in it):
its labels are placed here, where every mark's and label's place is known, so that no
label covers another or a point; and the browser scales the drawing to the width it is
shown at, its text with it (:data:`FRAMES`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ui.classmode.entries import Submission
from ui.look.numbers import number, percent
from ui.look.palette import BOUND, PLUS
from ui.look.text import safe
from ui.words import N_, t, tn

BEST = 5  # submissions the projector lists by name (and names by rank on the board)
LO = 0.8  # the axes' floor: M = 0 is drawn on it (a log axis has no 0)
# A generous width of one character of the board's text, in ems: digits, "#", "," and
# letters are narrower in any sans-serif (bold DejaVu's digits, the widest met, 0.70), so a
# box this wide holds its text in whatever font the browser has.
CHAR_EM = 0.72
LEGEND_EM = 0.85  # the legend's type, in the ticks' ems
LINE_EM = 1.4  # a label's box height in ems: the font's ascent and descent, with room
BASELINE_EM = 1.05  # a label's baseline below its box's top, in ems
TEXT = "#31333f"
MUTED = "#5c5f6e"  # tick labels: 6.0:1 on white
GRID = "#e3e3e8"


@dataclass(frozen=True)
class Frame:
    """The drawing's size in its own units and its type size (``font``, the ticks'): the
    browser scales all of it to the width it is shown at."""

    width: int
    height: int
    font: int


# The board is drawn in each frame, and the browser shows the widest whose ``from`` width
# (CSS px) its box reaches: ticks stay about 14 to 20 px on a phone or beside a laptop's
# table, and on a projector grow with the screen (23 px on a 1280x720 board, 34 px on a
# 1920x1080 one).
FRAMES: tuple[tuple[int, Frame], ...] = (
    (0, Frame(360, 300, 14)),
    (480, Frame(520, 380, 16)),
    (640, Frame(760, 540, 24)),
)


@dataclass(frozen=True)
class Box:
    """A rectangle in drawing units, y down."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, gap: float = 0.0) -> bool:
        return not (
            self.x1 + gap <= other.x0
            or other.x1 + gap <= self.x0
            or self.y1 + gap <= other.y0
            or other.y1 + gap <= self.y0
        )

    def inside(self, other: Box) -> bool:
        return (
            self.x0 >= other.x0
            and self.x1 <= other.x1
            and self.y0 >= other.y0
            and self.y1 <= other.y1
        )

    def distance_to(self, x: float, y: float) -> float:
        """From the point (x, y) to the nearest point of the box (0 inside it)."""
        dx = max(self.x0 - x, 0.0, x - self.x1)
        dy = max(self.y0 - y, 0.0, y - self.y1)
        return math.hypot(dx, dy)


@dataclass
class Mark:
    """One spot of the board: the submissions (by rank, 1 = most mistakes) drawn there."""

    x: float
    y: float
    r: float
    ranks: list[int]
    first: Submission

    @property
    def named(self) -> list[int]:
        """The ranks the board names here: those of the best few, listed beside it."""
        return [r for r in self.ranks if r <= BEST]


@dataclass(frozen=True)
class Label:
    """A mark's name ("#1", "#2, #3"): its box, and the leader line to its mark (if the
    label had to stand off)."""

    text: str
    box: Box
    anchor: str  # the text's SVG text-anchor in its box: start, middle or end
    leader: tuple[float, float, float, float] | None = None


@dataclass
class Board:
    """Where everything of the board goes, in one frame."""

    frame: Frame
    plot: Box
    x_ticks: list[tuple[float, str]]  # (position, text)
    y_ticks: list[tuple[float, str]]
    legend: Box
    marks: list[Mark] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)


def text_width(text: str, font: float) -> float:
    """An upper bound of ``text``'s width at ``font`` (see :data:`CHAR_EM`)."""
    return len(text) * CHAR_EM * font


def _ticks(lo: float, hi: float, length: float, needed: float) -> list[float]:
    """Values for a log axis from lo to hi drawn ``length`` units long, no two closer than
    ``needed`` units: 1, 2, 5, 10, ... if there is room, else 1, 3, 10, ..., else powers of
    ten (every second, fifth... if even those crowd)."""
    per_decade = length / (math.log10(hi) - math.log10(lo))
    for mantissas in ((1, 2, 5), (1, 3), (1,)):
        values = [m * 10.0**k for k in range(0, 12) for m in mantissas]
        shown = [v for v in values if lo <= v <= hi]
        gaps = [math.log10(b / a) * per_decade for a, b in itertools.pairwise(shown)]
        if min(gaps, default=needed) >= needed:
            return shown
    step = max(1, math.ceil(needed / per_decade))
    return [10.0**k for k in range(0, 12, step) if lo <= 10.0**k <= hi]


def board_layout(subs: Sequence[Submission], frame: Frame) -> Board:
    """Every submission as its mistakes M against its bound (R/γ)², on log axes with one
    range, so the line M = (R/γ)² is the plot's diagonal and the theorem keeps every mark on
    or under it. Submissions closer than a mark's width are one mark named by all their
    ranks (the same idea twice reads as one spot); the best few are named by rank, each
    label placed where it covers no other label, no mark and not the legend, or left out
    (the table beside the board names them all)."""
    # the legend sits in the plot's top left corner, above the line M = (R/γ)², where the
    # theorem leaves no mark; if a mark reaches it all the same, it goes above the plot
    board = _frame_layout(subs, frame, legend_above=False)
    pad = 0.15 * frame.font
    if any(board.legend.distance_to(m.x, m.y) <= m.r + pad for m in board.marks):
        board = _frame_layout(subs, frame, legend_above=True)
    _place_labels(board)
    return board


def _frame_layout(subs: Sequence[Submission], frame: Frame, *, legend_above: bool) -> Board:
    """The axes, the legend and the marks (no labels yet)."""
    f = float(frame.font)
    top = max([10.0, *(s.bound for s in subs), *(float(s.M) for s in subs)]) * 1.5
    tick_texts = [number(10.0**k) for k in range(0, 12) if 10.0**k <= top]
    widest = max(text_width(t, f) for t in tick_texts)
    rows = _legend_texts(len(subs) > BEST)
    lf = LEGEND_EM * f
    legend_w = 2.6 * lf + max(text_width(t, lf) for t in rows)
    legend_h = LINE_EM * lf * len(rows)
    left = 1.6 * f + widest + 0.5 * f  # the y title, the tick labels, a gap
    plot_top = 0.8 * f + (legend_h + 0.3 * f if legend_above else 0.0)
    plot = Box(left, plot_top, frame.width - max(1.2 * f, widest / 2 + 4), frame.height - 3.2 * f)
    if legend_above:
        x0, y0 = plot.x0, 0.3 * f
    else:
        x0, y0 = plot.x0 + 0.3 * f, plot.y0 + 0.3 * f
    legend = Box(x0, y0, x0 + legend_w, y0 + legend_h)
    pw, ph = plot.x1 - plot.x0, plot.y1 - plot.y0
    span = math.log10(top) - math.log10(LO)

    def sx(v: float) -> float:
        return plot.x0 + pw * (math.log10(max(v, LO)) - math.log10(LO)) / span

    def sy(v: float) -> float:
        return plot.y1 - ph * (math.log10(max(v, LO)) - math.log10(LO)) / span

    x_ticks = [(sx(v), number(v)) for v in _ticks(LO, top, pw, widest + 0.8 * f)]
    y_ticks = [(sy(v), number(v)) for v in _ticks(LO, top, ph, 1.6 * f)]
    board = Board(frame, plot, x_ticks, y_ticks, legend)
    base = 0.45 * f
    for rank, sub in enumerate(subs, start=1):
        x, y = sx(sub.bound), sy(float(sub.M))
        near = next((m for m in board.marks if math.hypot(m.x - x, m.y - y) < 2 * base), None)
        if near is None:
            board.marks.append(Mark(x, y, base, [rank], sub))
        else:
            near.ranks.append(rank)
            near.r = base + 0.15 * f * min(len(near.ranks) - 1, 4)
    return board


_LEGEND_BOUND = N_("M = (R/γ)²: the bound")
_LEGEND_NAMED = N_("#1 to #{best}: the most mistakes")
_LEGEND_OTHER = N_("another submission")


def _legend_texts(others: bool) -> list[str]:
    """The legend's rows in this run's language: the bound, the best few, and (``others``)
    the rest."""
    rows = [t(_LEGEND_BOUND), t(_LEGEND_NAMED).format(best=BEST)]
    return rows + ([t(_LEGEND_OTHER)] if others else [])


def ranks_text(ranks: Sequence[int]) -> str:
    """Ranks as a label: "#1", "#2, #3", and a run of three or more as "#1–#5"."""
    runs: list[list[int]] = []
    for r in sorted(ranks):
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return ", ".join(
        f"#{run[0]}–#{run[-1]}" if len(run) >= 3 else ", ".join(f"#{r}" for r in run)
        for run in runs
    )


def _place_labels(board: Board) -> None:
    """Each named mark's label, in rank order, at the first free place around it: beside,
    above, below, then the corners, then a little farther, then farther with a leader.

    A box is as wide as the text could be (:data:`CHAR_EM`); the text stands at the box's
    side next to its mark, so a box wider than its text leaves the room away from the mark.
    """
    f = float(board.frame.font)
    pad = 0.15 * f
    taken = [board.legend]
    for mark in board.marks:
        if not mark.named:
            continue
        text = ranks_text(mark.named)
        w, h = text_width(text, f), LINE_EM * f
        for ring, leader in ((0.25, False), (1.0, False), (2.4, True)):
            d = mark.r + pad + ring * f
            k = d / math.sqrt(2)
            x, y = mark.x, mark.y
            spots = (  # (the box's top left corner, the text's anchor)
                (x + d, y - h / 2, "start"),  # right
                (x - d - w, y - h / 2, "end"),  # left
                (x - w / 2, y - d - h, "middle"),  # above
                (x - w / 2, y + d, "middle"),  # below
                (x + k, y - k - h, "start"),  # above right
                (x - k - w, y - k - h, "end"),  # above left
                (x + k, y + k, "start"),  # below right
                (x - k - w, y + k, "end"),  # below left
            )
            found = next(
                (
                    (b, anchor)
                    for b, anchor in ((Box(x0, y0, x0 + w, y0 + h), a) for x0, y0, a in spots)
                    if b.inside(board.plot)
                    and not any(b.overlaps(t, pad) for t in taken)
                    and all(b.distance_to(m.x, m.y) > m.r + pad for m in board.marks)
                ),
                None,
            )
            if found is None:
                continue
            box, anchor = found
            line = None
            if leader:  # from the mark's edge to the middle of the text's near side
                tx = {"start": box.x0, "end": box.x1}.get(anchor, (box.x0 + box.x1) / 2)
                ty = (
                    (box.y0 + box.y1) / 2
                    if anchor != "middle"
                    else (box.y1 if box.y1 < y else box.y0)
                )
                n = math.hypot(tx - x, ty - y) or 1.0
                line = (x + (tx - x) / n * mark.r, y + (ty - y) / n * mark.r, tx, ty)
            board.labels.append(Label(text, box, anchor, line))
            taken.append(box)
            break


def board_svg(subs: Sequence[Submission], frame: Frame) -> str:
    """The board in ``frame`` as SVG markup with its text alternative (role img, the
    sentence of :func:`challenge_text` as its label), from numbers only."""
    b = board_layout(subs, frame)
    f = frame.font
    p = b.plot
    said = safe(
        t("Mistakes M against the bound (R/γ)². {said}").format(said=challenge_text(subs)),
        sink="html",
        limit=400,
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {frame.width} {frame.height}" '
        f'role="img" aria-label="{said}" font-size="{f}" fill="{TEXT}">',
        f'<rect x="{p.x0:.1f}" y="{p.y0:.1f}" width="{p.x1 - p.x0:.1f}" '
        f'height="{p.y1 - p.y0:.1f}" fill="#fff" stroke="#c9c9d1"/>',
    ]
    for x, text in b.x_ticks:
        out.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{p.y0:.1f}" y2="{p.y1:.1f}" stroke="{GRID}"/>'
            f'<text class="tick" x="{x:.1f}" y="{p.y1 + 1.2 * f:.1f}" text-anchor="middle" '
            f'fill="{MUTED}">{text}</text>'
        )
    for y, text in b.y_ticks:
        out.append(
            f'<line x1="{p.x0:.1f}" x2="{p.x1:.1f}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>'
            f'<text class="tick" x="{p.x0 - 0.4 * f:.1f}" y="{y + 0.35 * f:.1f}" '
            f'text-anchor="end" fill="{MUTED}">{text}</text>'
        )
    across, up = t("the bound (R/γ)²"), t("mistakes M")
    out.append(
        f'<text x="{(p.x0 + p.x1) / 2:.1f}" y="{frame.height - 0.4 * f:.1f}" '
        f'text-anchor="middle">{across}</text>'
        f'<text transform="translate({1.1 * f:.1f} {(p.y0 + p.y1) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{up}</text>'
        # M = (R/γ)²: the plot's diagonal (both axes have one range)
        f'<line x1="{p.x0:.1f}" y1="{p.y1:.1f}" x2="{p.x1:.1f}" y2="{p.y0:.1f}" '
        f'stroke="{BOUND}" stroke-width="{0.15 * f:.1f}" stroke-dasharray="{0.5 * f:.0f} '
        f'{0.3 * f:.0f}"/>'
    )
    for mark in b.marks:
        s = mark.first
        tip = f"#{mark.ranks[0]}: M = {s.M}, (R/γ)² = {number(s.bound)}, γ = {number(s.gamma)}"
        if mark.ranks[1:]:  # the others drawn here are within a mark's width of it
            also = ", ".join(f"#{r}" for r in mark.ranks[1:])
            tip = t("{tip} (also {ranks})").format(tip=tip, ranks=also)
        filled = bool(mark.named)
        out.append(
            f'<circle class="mark" cx="{mark.x:.1f}" cy="{mark.y:.1f}" r="{mark.r:.1f}" '
            f'fill="{PLUS if filled else "#fff"}" stroke="{PLUS if not filled else "#fff"}" '
            f'stroke-width="{0.12 * f:.1f}"><title>{tip}</title></circle>'
        )
    for label in b.labels:
        if label.leader is not None:
            x1, y1, x2, y2 = label.leader
            out.append(
                f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{MUTED}" stroke-width="{0.08 * f:.1f}"/>'
            )
        bx = label.box
        tx = {"start": bx.x0, "end": bx.x1}.get(label.anchor, (bx.x0 + bx.x1) / 2)
        out.append(
            f'<text class="label" x="{tx:.1f}" y="{bx.y0 + BASELINE_EM * f:.1f}" '
            f'text-anchor="{label.anchor}" font-weight="600">{label.text}</text>'
        )
    out.append(_legend(b, len(subs) > BEST))
    if not subs:
        empty = t("no submissions yet")
        out.append(  # under the line, where the marks will be
            f'<text x="{p.x0 + 0.65 * (p.x1 - p.x0):.1f}" y="{p.y0 + 0.75 * (p.y1 - p.y0):.1f}" '
            f'text-anchor="middle" fill="{MUTED}">{empty}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _legend(b: Board, others: bool) -> str:
    f = LEGEND_EM * b.frame.font
    x, y = b.legend.x0, b.legend.y0
    dash = f'stroke-dasharray="{0.6 * f:.0f} {0.35 * f:.0f}"'
    texts = _legend_texts(others)
    symbols = [
        f'<line x1="{x + 0.3 * f:.1f}" x2="{x + 2 * f:.1f}" y1="{{m:.1f}}" y2="{{m:.1f}}" '
        f'stroke="{BOUND}" stroke-width="{0.19 * f:.1f}" {dash}/>',
        f'<circle cx="{x + 1.15 * f:.1f}" cy="{{m:.1f}}" r="{0.56 * f:.1f}" fill="{PLUS}"/>',
        f'<circle cx="{x + 1.15 * f:.1f}" cy="{{m:.1f}}" r="{0.56 * f:.1f}" '
        f'fill="#fff" stroke="{PLUS}" stroke-width="{0.15 * f:.1f}"/>',
    ]
    rows = list(zip(symbols, texts, strict=False))
    out = [f'<g class="legend" font-size="{f:.1f}">']
    for i, (symbol, text) in enumerate(rows):
        m = y + (i + 0.5) * LINE_EM * f
        out.append(
            symbol.format(m=m)
            + f'<text x="{x + 2.6 * f:.1f}" y="{m + 0.35 * f:.1f}">{safe(text, sink="html")}</text>'
        )
    out.append("</g>")
    return "".join(out)


def board_svgs(subs: Sequence[Submission]) -> list[dict[str, Any]]:
    """The board in every frame of :data:`FRAMES`, each with the width (CSS px) from which
    the browser shows it."""
    return [{"from": wide, "svg": board_svg(subs, frame)} for wide, frame in FRAMES]


def challenge_text(subs: Sequence[Submission]) -> str:
    """The chart in words (its text alternative)."""
    if not subs:
        return t("No submissions yet.")
    under = sum(s.bound + 1e-9 >= s.M for s in subs)
    best = subs[0]
    counted = tn(
        "{n} submission; {under} of them make at most (R/γ)² mistakes, as the theorem says.",
        "{n} submissions; {under} of them make at most (R/γ)² mistakes, as the theorem says.",
        len(subs),
    ).format(n=number(len(subs)), under=number(under))
    most = t(
        "The most mistakes: M = {M} with the bound (R/γ)² = {bound} (M is {share} of the bound)."
    ).format(M=best.M, bound=number(best.bound), share=percent(best.M / best.bound, 0))
    return f"{counted} {most}"


def best_rows(subs: Sequence[Submission], k: int = BEST) -> list[dict[str, Any]]:
    """The best few for the projector's table (nicknames as plain text in a table); the
    columns' names are messages, translated where the table is shown."""
    return [
        {
            N_("rank"): i,
            N_("nickname"): s.nick or t("(no name)"),
            N_("mistakes M"): s.M,
            N_("bound (R/γ)²"): number(s.bound),
            N_("M / bound"): percent(s.M / s.bound, 0),
        }
        for i, s in enumerate(subs[:k], start=1)
    ]


def best_markdown(subs: Sequence[Submission], k: int = BEST) -> str:
    """The best few as a markdown table for the projector's board, every nickname escaped
    (:func:`ui.look.text.safe`): what a student typed shows as typed."""
    rows = best_rows(subs, k)
    if not rows:
        return ""
    nickname, share = t("nickname"), t("M / bound")
    head = f"| # | {nickname} | M | (R/γ)² | {share} |\n|--:|:--|--:|--:|--:|\n"
    return head + "\n".join(
        f"| #{r['rank']} | {safe(r['nickname'], limit=24)} | {r['mistakes M']} | "
        f"{r['bound (R/γ)²']} | {safe(r['M / bound'])} |"
        for r in rows
    )
