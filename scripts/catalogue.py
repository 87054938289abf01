"""The app's catalogues (``ui/words/locale``), with Babel, in the project's environment:

    .venv/bin/python scripts/catalogue.py             extract, update every .po, compile
    .venv/bin/python scripts/catalogue.py --check     say each language's share translated;
                                                      exit 1 if a .po or .mo is stale

Extract reads the marked messages (``babel.cfg``: ``t``, ``N_``, ``tn``, ``Nn_`` in Python,
``tr`` and ``N_`` in JavaScript) and the engine's registry words into ``perceptron.pot``;
update merges it into each language's ``.po`` (a new message empty, a changed one fuzzy:
the app shows either in English); compile writes the ``.mo`` the app reads, committed
beside its ``.po``. The test command runs ``--check``.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "ui" / "words" / "locale"
POT = LOCALE / "perceptron.pot"
LANGUAGES = ("fr", "es", "de", "zh")  # ui.words.LANGUAGES without English
KEYWORDS = ["-k", "t", "-k", "N_", "-k", "tn:1,2", "-k", "Nn_:1,2", "-k", "tr"]


def pybabel(*args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "-q", *args], cwd=ROOT, check=True
    )


def engine_messages() -> list[str]:
    """The words of the engine's registries a page shows (a dataset's title, description
    and parameters' labels, a mistake rule's words, a feature map's and a loss's title):
    the engine imports nothing of the app, so the catalogue takes
    them from the registry itself, and a page passes them through ``t``."""
    sys.path.insert(0, str(ROOT))
    from perceptron_core.datasets import DATASETS
    from perceptron_core.features import FEATURE_MAPS
    from perceptron_core.perceptron import RULES
    from perceptron_core.sgd import LOSSES

    found: list[str] = []
    for d in DATASETS.values():
        found += [d.title, d.description, *(t for p in d.params for t in (p.label, p.help))]
    found += [text for r in RULES.values() for text in (r.text, r.short)]
    found += [m.title for m in FEATURE_MAPS.values()] + [loss.title for loss in LOSSES.values()]
    return [m for m in dict.fromkeys(found) if m]


def extract(to: Path) -> None:
    pybabel(
        "extract", "-F", "babel.cfg", "--no-default-keywords", *KEYWORDS,
        "--omit-header", "--no-location", "--sort-output", "-o", str(to), ".",
    )  # fmt: skip
    catalog = read(to)
    for message in engine_messages():
        if message not in catalog:
            catalog.add(message)
    with to.open("wb") as f:
        write_po(f, catalog, omit_header=True, no_location=True, sort_output=True)


def po(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / "perceptron.po"


def read(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=code)


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)  # what pybabel compile writes: no fuzzy nor empty message
    return out.getvalue()


def pairs(mo: bytes) -> set[tuple[object, object]]:
    """A compiled catalogue's messages and their translations (its header aside)."""

    def key(part: object) -> object:  # a plural's forms come as a list or a tuple
        return tuple(part) if isinstance(part, (list, tuple)) else part

    return {(key(m.id), key(m.string)) for m in read_mo(io.BytesIO(mo)) if m.id}


def build() -> None:
    extract(POT)
    for code in LANGUAGES:
        if po(code).is_file():
            pybabel("update", "-i", str(POT), "-d", str(LOCALE), "-D", "perceptron", "-l", code,
                    "--no-wrap")  # fmt: skip
        else:
            pybabel("init", "-i", str(POT), "-d", str(LOCALE), "-D", "perceptron", "-l", code,
                    "--no-wrap")  # fmt: skip
        po(code).with_suffix(".mo").write_bytes(mo_bytes(read(po(code), code)))


def check() -> int:
    """Each language's share of the app's messages translated; 1 if a catalogue is stale."""
    fresh = LOCALE / "fresh.pot"
    try:
        extract(fresh)
        wanted = {m.id for m in read(fresh) if m.id}
    finally:
        fresh.unlink(missing_ok=True)
    stale = 0
    for code in LANGUAGES:
        catalog = read(po(code), code)
        have = {m.id for m in catalog if m.id and m.string and not m.fuzzy}
        missing = sorted(str(i) for i in wanted - {m.id for m in catalog if m.id})
        done = len(wanted & have)
        print(f"catalogue {code}: {done} of {len(wanted)} messages translated "
              f"({100 * done / max(len(wanted), 1):.0f} %)")  # fmt: skip
        if missing:
            print(f"  {code}: {len(missing)} messages not in its .po (run scripts/catalogue.py)")
            stale = 1
        mo = po(code).with_suffix(".mo")
        if not mo.is_file() or pairs(mo.read_bytes()) != pairs(mo_bytes(catalog)):
            print(f"  {code}: {mo.name} is not its .po compiled (run scripts/catalogue.py)")
            stale = 1
    return stale


if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        sys.exit(check())
    build()
