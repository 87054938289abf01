"""The class deployment's icon font: Streamlit's Material Symbols Rounded cut down to the
icons the app can show.

Streamlit draws every icon (``:material/<name>:``) as its name in the font "Material
Symbols Rounded", whose ``rlig`` feature turns the name's letters into one glyph (a
ligature). The font holds about 4,000 icons (375 kB as woff2), the largest file of a
student's first visit; the app shows a few dozen. This script keeps every ligature the
app can show:

- every ``:material/<name>:`` in the app's source (``app.py``, ``pages/``, ``ui/``,
  ``assets/``);
- every ligature name that is a word of Streamlit's frontend JavaScript
  (``static/static/js/*.js``): the icons Streamlit draws itself (the sidebar's arrows, a
  menu's dots, an alert's default icon). Some of those words are ordinary ones ("add",
  "list"): kept all the same, since an icon too many costs a few hundred bytes and one
  too few shows its name in letters instead.

It also keeps the letters, digits and signs the names are typed with (each its own glyph
of the font) and the layout features the ligatures live in, and writes a woff2
(``fontTools``, with the ``brotli`` package: a dev/build dependency only). Beside the
subset it writes its manifest: the original's file name and SHA-256, the Streamlit it
came with, the names kept. nginx serves the subset at the original's URL only while the
installed Streamlit's font has that SHA-256 (``deploy/class_server.py``): a subset cut
from another version's font could lack an icon that version draws.

Run (after a Streamlit upgrade, or when the app uses a new icon; tests/deploy says when):

    python3 scripts/subset_icons.py
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "deploy" / "fonts"
SUBSET = OUT / "MaterialSymbols-Rounded.subset.woff2"
MANIFEST = OUT / "MaterialSymbols-Rounded.subset.json"
APP_SOURCES = ("app.py", "pages", "ui", "assets")
APP_FILES = (".py", ".md", ".js", ".toml")
APP_ICON = re.compile(r":material/([a-z0-9_]+):")
JS_WORD = re.compile(r"[A-Za-z0-9_$]+")  # a JavaScript identifier or a word of a string
FONT_FILE = re.compile(r"MaterialSymbols-Rounded\.[A-Za-z0-9_-]+\.woff2")


def streamlit_media() -> Path:
    """The installed Streamlit's font folder (``streamlit/static/static/media``), found
    without importing Streamlit."""
    spec = importlib.util.find_spec("streamlit")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("Streamlit is not installed: python3 scripts/environment.py --dev")
    return Path(spec.origin).parent / "static" / "static" / "media"


def original_font(media: Path | None = None) -> Path:
    """The installed Streamlit's Material Symbols Rounded (its name carries a hash)."""
    media = media or streamlit_media()
    found = sorted(p for p in media.iterdir() if FONT_FILE.fullmatch(p.name))
    if len(found) != 1:
        raise FileNotFoundError(f"not one Material Symbols Rounded woff2 in {media}: {found}")
    return found[0]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def provenance(original: Path, cut: Path) -> dict[str, object]:
    """A subset's manifest entries on where it came from: the Streamlit, the original font
    and the cut, each file's name, SHA-256 and size."""
    return {
        "streamlit": importlib.metadata.version("streamlit"),
        "original": original.name,
        "original_sha256": sha256(original),
        "original_bytes": original.stat().st_size,
        "subset": cut.name,
        "subset_sha256": sha256(cut),
        "subset_bytes": cut.stat().st_size,
    }


def _ligature_tables(font: TTFont) -> Iterable[object]:
    """The font's ligature substitution subtables (inside extension lookups or not)."""
    if "GSUB" not in font:
        return
    for lookup in font["GSUB"].table.LookupList.Lookup:
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)
            if getattr(table, "LookupType", None) == 4:
                yield table


def _letters(font: TTFont) -> dict[str, str]:
    """Each glyph the font maps an ASCII character to, and that character (lower case:
    the font maps "A" and "a" to one glyph, and icon names are lower case)."""
    out: dict[str, str] = {}
    for code, glyph in sorted(font.getBestCmap().items()):
        if code < 128:
            out[glyph] = chr(code)  # in ascending order: "a" (97) overwrites "A" (65)
    return out


def ligatures(font: TTFont) -> dict[str, str]:
    """Every ligature of ``font`` that can be typed: its name ("home") -> its glyph."""
    letters = _letters(font)
    out: dict[str, str] = {}
    for table in _ligature_tables(font):
        for first, ligs in table.ligatures.items():
            for lig in ligs:
                glyphs = [first, *lig.Component]
                if all(g in letters for g in glyphs):
                    out.setdefault("".join(letters[g] for g in glyphs), lig.LigGlyph)
    return out


def app_icons(root: Path = ROOT) -> set[str]:
    """Every ``:material/<name>:`` in the app's source."""
    found: set[str] = set()
    for name in APP_SOURCES:
        top = root / name
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in files:
            if path.is_file() and path.suffix in APP_FILES:
                found |= set(APP_ICON.findall(path.read_text(encoding="utf-8")))
    return found


def frontend_words(media: Path | None = None) -> set[str]:
    """Every word of Streamlit's frontend JavaScript (identifiers and the words of its
    strings: ``"keyboard_double_arrow_left"``, ``:material/expand_more:``)."""
    js = (media or streamlit_media()).parent / "js"
    words: set[str] = set()
    for path in sorted(js.glob("*.js")):
        words |= set(JS_WORD.findall(path.read_text(encoding="utf-8", errors="replace")))
    if not words:
        raise FileNotFoundError(f"no JavaScript in {js}")
    return words


def wanted(font: TTFont, root: Path = ROOT, media: Path | None = None) -> dict[str, set[str]]:
    """The names to keep, and the rest: ``app``, the app's icons that are ligatures of
    ``font``; ``frontend``, the frontend's words that are; ``not_icons``, what the app's
    source writes as ``:material/<name>:`` that the font has no icon for (a docstring's
    example: Streamlit itself refuses an unknown icon name)."""
    names = set(ligatures(font))
    app = app_icons(root)
    return {
        "app": app & names,
        "frontend": frontend_words(media) & names,
        "not_icons": app - names,
    }


def cut(font_path: Path, keep: set[str]) -> tuple[TTFont, int]:
    """The font at ``font_path`` with only the ligatures named in ``keep`` (and the glyphs
    they are typed with, and the font's layout features); and the original's glyph count."""
    font = TTFont(font_path, recalcTimestamp=False)  # the same bytes from the same font
    total = font["maxp"].numGlyphs
    letters = _letters(font)
    for table in _ligature_tables(font):
        kept = {}
        for first, ligs in table.ligatures.items():
            mine = [
                lig
                for lig in ligs
                if all(g in letters for g in [first, *lig.Component])
                and "".join(letters[g] for g in [first, *lig.Component]) in keep
            ]
            if mine:
                kept[first] = mine  # the font's order: the longest name matches first
        table.ligatures = kept
    features = sorted({f.FeatureTag for f in font["GSUB"].table.FeatureList.FeatureRecord})
    options = subset.Options()
    options.layout_features = features  # rlig: the ligatures themselves
    options.flavor = "woff2"
    options.glyph_names = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    # The typed characters, and the icons' own code points (private use) for the kept
    # glyphs; the glyph closure through GSUB then adds the kept ligatures alone.
    glyphs = {names_glyph for name, names_glyph in ligatures(font).items() if name in keep}
    codes = [c for c, g in font.getBestCmap().items() if c < 128 or g in glyphs]
    subsetter.populate(unicodes=codes, glyphs=sorted(glyphs))
    subsetter.subset(font)
    return font, total


def build(root: Path = ROOT, media: Path | None = None) -> dict[str, object]:
    """Write the subset and its manifest; return the manifest."""
    original = original_font(media)
    names = wanted(TTFont(original), root, media)
    app, frontend = names["app"], names["frontend"]
    font, total = cut(original, app | frontend)
    SUBSET.parent.mkdir(parents=True, exist_ok=True)
    font.save(SUBSET)
    kept = ligatures(TTFont(SUBSET))
    lost = sorted((app | frontend) - set(kept))
    if lost:
        raise RuntimeError(f"the subset lost icons: {lost}")
    manifest: dict[str, object] = {
        "about": "scripts/subset_icons.py made this subset of the font, from Streamlit's "
        "static/static/media; nginx serves it at the original's URL while the installed "
        "Streamlit's font has this sha256 (deploy/class_server.py)",
        **provenance(original, SUBSET),
        "original_glyphs": total,
        "subset_glyphs": TTFont(SUBSET)["maxp"].numGlyphs,
        "app_icons": sorted(app),
        "frontend_icons": sorted(frontend - app),
        "not_icons": sorted(names["not_icons"]),
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    m = build()
    print(
        f"{SUBSET.relative_to(ROOT)}: {m['subset_bytes']:,} bytes, {m['subset_glyphs']} glyphs "
        f"(Streamlit {m['streamlit']}'s {m['original']}: {m['original_bytes']:,} bytes, "
        f"{m['original_glyphs']} glyphs)\n"
        f"  the app's icons ({len(m['app_icons'])}): {' '.join(m['app_icons'])}\n"
        f"  the frontend's words that are icons ({len(m['frontend_icons'])} more): "
        f"{' '.join(m['frontend_icons'])}\n"
        f"  written like an icon in the app's source, no icon of the font: "
        f"{' '.join(m['not_icons']) or 'none'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
