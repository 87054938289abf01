"""ui.look.clip: the GIF encoder the lecture's clips use is the npm registry's gifenc as
published (a copy in the app, so it needs no Node.js or CDN), wrapped so that only what
clip.js uses comes out; and a GIF it writes reads back as a player reads it."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tools.media import read_gif
from ui.look import clip

ROOT = Path(__file__).resolve().parents[3]
INSTALLED = ROOT / "node_modules" / "gifenc"


def test_the_apps_gifenc_is_the_locked_package_as_published():
    # scripts/test.sh installs package-lock.json's packages (npm ci) before the tests
    assert INSTALLED.is_dir(), "run npm ci: the lock's gifenc is not installed"
    version = json.loads((INSTALLED / "package.json").read_text(encoding="utf-8"))["version"]
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]
    assert pinned["gifenc"] == version
    published = (INSTALLED / "dist" / "gifenc.esm.js").read_bytes()
    assert clip.GIFENC_ESM.read_bytes() == published
    assert (clip.GIFENC_ESM.parent / "gifenc.LICENSE.md").read_bytes() == (
        INSTALLED / "LICENSE.md"
    ).read_bytes()


def test_only_the_encoder_comes_out_of_the_wrapped_module():
    script = clip.gifenc_script(clip.GIFENC_ESM.read_text(encoding="utf-8"))
    assert script.startswith("const GIFENC = (() => {")
    assert "export" not in script.split("return {")[-1]
    assert "sourceMappingURL" not in script
    with pytest.raises(ValueError, match="no export list"):
        clip.gifenc_script("var a = 1;")
    with pytest.raises(ValueError, match="does not export quantize"):
        clip.gifenc_script("var a=1;export{a as GIFEncoder,a as applyPalette};")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the encoder here")
def test_a_gif_the_wrapped_encoder_writes_reads_back_frame_by_frame():
    # three 8×6 frames, red, green, blue, a quarter second each, as clip.js writes them
    program = (
        clip.gifenc_script(clip.GIFENC_ESM.read_text(encoding="utf-8"))
        + """
const gif = GIFENC.GIFEncoder();
for (const rgb of [[255, 0, 0], [0, 160, 0], [0, 0, 255]]) {
  const data = new Uint8ClampedArray(8 * 6 * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  const palette = GIFENC.quantize(data, 256);
  gif.writeFrame(GIFENC.applyPalette(data, palette), 8, 6, { palette, delay: 250 });
}
gif.finish();
process.stdout.write(Buffer.from(gif.bytes()).toString("base64"));
"""
    )
    done = subprocess.run(
        ["node", "-e", program], capture_output=True, text=True, timeout=60, check=True
    )
    read = read_gif(base64.b64decode(done.stdout))
    assert (read.width, read.height, read.frames) == (8, 6, 3)
    assert read.delays_ms == [250, 250, 250]
