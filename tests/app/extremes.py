"""Every setting at its largest (or smallest) accepted value, found through its own parser.

Used by ``test_extremes.py`` (no page may fail or hang there) and by
``benchmarks/extremes.py`` (how long each page then takes).
"""

from collections.abc import Callable
from pathlib import Path

from ui import shell
from ui.app.state import SETTINGS, Setting

PAGES = tuple(Path(p.path).stem for p in shell.PAGES)  # every page of the router
_CANDIDATES = (
    -5, -1, 0, 0.001, 0.02, 0.1, 0.3, 1, 3, 5, 10, 20, 99, 100, 101, 200, 500, 600, 1000, 2000,
    5000, 200_000, 2**31 - 1,
)  # fmt: skip


def _accepts(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except (ValueError, TypeError, OverflowError):
        return False
    return True


def extreme_query(
    largest: bool, *, last_choices: bool = True, data_name: str = "xor"
) -> dict[str, str]:
    """URL parameters: every number at its largest (or smallest) accepted value, every
    choice at its last option (mostly the heavier one: shuffled, adversarial, the shared
    data...) or, with ``last_choices=False``, at its default."""
    query: dict[str, str] = {}
    for key, setting in SETTINGS.items():
        if isinstance(setting.default, bool):
            query[key] = "1" if largest else "0"
        elif isinstance(setting.default, int | float):
            ok = [c for c in _CANDIDATES if _accepts(setting.parse, str(c))]
            if ok:
                query[key] = str(max(ok) if largest else min(ok))
        elif isinstance(setting.default, str):
            options = [o for o in _options(setting) if _accepts(setting.parse, o)]
            if options and last_choices:
                query[key] = options[-1]
    query["data_name"] = data_name
    query["data_n"] = "500" if largest else "4"
    return query


def _options(setting: Setting) -> list[str]:
    """The options of a choice setting, read back from its parser's error message."""
    try:
        setting.parse("\0")
    except ValueError as exc:
        text = str(exc)
        if text.startswith("must be one of "):
            return text.removeprefix("must be one of ").split(", ")
    return []


CASES = {
    "largest": extreme_query(True),
    "largest, default choices": extreme_query(True, last_choices=False),
    "smallest": extreme_query(False),
}
