"""The lecture's offline file's font: Streamlit's Source Sans cut to the characters the
file shows, so the file looks as the live page does with no network.

The live page draws its text in Streamlit's "Source Sans" (a variable woff2 of 170 kB,
fetched from the server); the offline file (``ui/lecture/export.py``) fetches nothing, so
without a font of its own it falls back to the system's, wider or narrower than the one
the chart's labels were laid out in. This script keeps:

- Basic Latin and Latin-1 (a dataset's name, a number, a word of the page), Greek (γ, η,
  θ), general punctuation, super- and subscripts, arrows, mathematical operators and
  geometric shapes, as far as the font has them;
- every character of the player's source and of the page around it (``SOURCES``): a
  button's ▶, a sentence's ‖w‖², the file's own text;
- the font's weight axis (the page uses 400, 600 and 700) and fontTools' default layout
  features (kerning, ligatures, marks; the font's figures are tabular without a feature).

The copy is renamed "Perceptron Lab Sans": Source Sans 3 is under the SIL Open Font
License 1.1 with the Reserved Font Name "Source", which a modified copy may not carry. The
font's copyright and licence entries stay in its name table. A character the cut lacks
(a letter of another script in an uploaded file's name) falls back to the system's font.

Beside the subset it writes its manifest: the original's file name and SHA-256, the
Streamlit it came with, the characters kept (``fontTools``, with ``brotli``: a dev/build
dependency only; the app reads the woff2 as bytes).

Run after a Streamlit upgrade or when the player shows a new character
(``tests/ui/lecture/test_file_font.py`` says when):

    python3 -m scripts.subset_file_font
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from scripts.subset_icons import provenance, streamlit_media

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "ui" / "lecture" / "fonts"
SUBSET = OUT / "PerceptronLabSans.subset.woff2"
MANIFEST = OUT / "PerceptronLabSans.subset.json"
FAMILY = "Perceptron Lab Sans"
FONT_FILE = re.compile(r"SourceSansVF-Upright\.ttf\.[A-Za-z0-9_-]+\.woff2")
# the text the offline file can show: the player, the figures it saves, the page around it
SOURCES = (
    "ui/lecture/player_types.js",
    "ui/lecture/player_chart.js",
    "ui/lecture/player_maths.js",
    "ui/lecture/player_moves.js",
    "ui/lecture/player_follow.js",
    "ui/lecture/player.js",
    "ui/lecture/player.py",
    "ui/lecture/export.py",
    "ui/lecture/figures.py",
    "ui/lecture/steps.py",  # the settings' summary, with
    "ui/compute/model.py",  # the scalings' names and
    "perceptron_core/perceptron.py",  # the mistake rules' texts
    "ui/look/figure.js",
    "ui/look/clip.js",
    "ui/look/numbers.py",
)
RANGES = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1
    (0x0370, 0x03FF),  # Greek
    (0x2000, 0x206F),  # general punctuation
    (0x2070, 0x209F),  # super- and subscripts
    (0x2190, 0x21FF),  # arrows
    (0x2200, 0x22FF),  # mathematical operators
    (0x25A0, 0x25FF),  # geometric shapes
)
LEGAL = (0, 7, 13, 14)  # copyright, trademark, licence and its URL: kept as they are


def original_font(media: Path | None = None) -> Path:
    """The installed Streamlit's Source Sans, upright (its name carries a hash)."""
    media = media or streamlit_media()
    found = sorted(p for p in media.iterdir() if FONT_FILE.fullmatch(p.name))
    if len(found) != 1:
        raise FileNotFoundError(f"not one SourceSansVF-Upright woff2 in {media}: {found}")
    return found[0]


def shown(root: Path = ROOT) -> set[int]:
    """Every character of SOURCES that is not a control character."""
    codes: set[int] = set()
    for name in SOURCES:
        codes |= {ord(c) for c in (root / name).read_text(encoding="utf-8") if c >= " "}
    return codes


def wanted(root: Path = ROOT) -> set[int]:
    """The code points to keep: RANGES and every character of SOURCES."""
    return {c for low, high in RANGES for c in range(low, high + 1)} | shown(root)


def cut(font_path: Path, codes: set[int]) -> TTFont:
    """The font at ``font_path`` with only ``codes`` (those it has), renamed FAMILY."""
    font = TTFont(font_path, recalcTimestamp=False)  # the same bytes from the same font
    options = subset.Options()
    options.flavor = "woff2"
    options.glyph_names = False
    options.notdef_outline = True
    options.name_IDs = ["*"]  # the copyright and the licence stay
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codes & set(font.getBestCmap())))
    subsetter.subset(font)
    names = font["name"]
    for record in names.names:
        if record.nameID not in LEGAL:
            old = record.toUnicode()
            record.string = old.replace("Source Sans 3", FAMILY).replace(
                "SourceSans3", FAMILY.replace(" ", "")
            )
    return font


def build(root: Path = ROOT, media: Path | None = None) -> dict[str, object]:
    """Write the subset and its manifest; return the manifest."""
    original = original_font(media)
    codes = wanted(root)
    font = cut(original, codes)
    SUBSET.parent.mkdir(parents=True, exist_ok=True)
    font.save(SUBSET)
    full = set(TTFont(original).getBestCmap())
    kept = set(TTFont(SUBSET).getBestCmap())
    lost = sorted((codes & full) - kept)
    if lost:
        raise RuntimeError(f"the subset lost characters: {''.join(map(chr, lost))}")
    manifest: dict[str, object] = {
        "about": "scripts/subset_file_font.py made this subset of Streamlit's Source Sans "
        "(SIL Open Font License 1.1, renamed: 'Source' is a Reserved Font Name) for the "
        "lecture's offline file (ui/lecture/export.py)",
        "family": FAMILY,
        **provenance(original, SUBSET),
        "characters": "".join(chr(c) for c in sorted(kept)),
        "not_in_font": "".join(chr(c) for c in sorted(shown(root) - full)),
    }
    MANIFEST.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args(argv)
    m = build()
    print(
        f"{SUBSET.relative_to(ROOT)}: {m['subset_bytes']:,} bytes, "
        f"{len(str(m['characters']))} characters (Streamlit {m['streamlit']}'s "
        f"{m['original']}: {m['original_bytes']:,} bytes)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
