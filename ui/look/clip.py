"""Recording a range of steps as a clip (``clip.js``): WebM by the browser's MediaRecorder,
GIF by gifenc.

gifenc (MIT, ``vendor/gifenc.LICENSE.md``) is the npm registry's file as published,
``vendor/gifenc.esm.js``: package.json pins its version and a test keeps the copy equal to
the installed package, so the app needs no Node.js and no CDN at run time. Its module is
wrapped in a function here, so its minified names cannot meet a component's own, and only
what ``clip.js`` uses comes out (``GIFENC``). ``clip.js`` is a plain script that goes in
front of a component's module, after ``figure.js``, whose frames it draws.
"""

from __future__ import annotations

import re
from pathlib import Path

_HERE = Path(__file__).parent
GIFENC_ESM = _HERE / "vendor" / "gifenc.esm.js"
USED = ("GIFEncoder", "quantize", "applyPalette")


def gifenc_script(esm: str) -> str:
    """gifenc's ES module as a plain script that defines only ``const GIFENC`` (the names
    in ``USED``)."""
    found = re.search(r"export\s*\{([^}]*)\};?", esm)
    if found is None:
        raise ValueError("gifenc's module has no export list")
    names: dict[str, str] = {}
    for part in found.group(1).split(","):
        local, _, exported = part.strip().partition(" as ")
        names[(exported or local).strip()] = local.strip()
    missing = [name for name in USED if name not in names]
    if missing:
        raise ValueError(f"gifenc's module does not export {', '.join(missing)}")
    body = re.sub(r"//# sourceMappingURL=\S*", "", esm[: found.start()] + esm[found.end() :])
    out = ", ".join(f"{name}: {names[name]}" for name in USED)
    return f"const GIFENC = (() => {{\n{body}\nreturn {{ {out} }};\n}})();\n"


CLIP_JS = gifenc_script(GIFENC_ESM.read_text(encoding="utf-8")) + (_HERE / "clip.js").read_text(
    encoding="utf-8"
)
