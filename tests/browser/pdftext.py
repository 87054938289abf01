"""The text of a PDF that Chromium writes (``page.pdf()``), in pure Python, for the tests.

Chromium's PDF (Skia's) is PDF 1.4 without object streams, its streams Flate-compressed,
and every font carries a ToUnicode map: the text is each font's codes in the pages' and
forms' ``Tj`` strings, mapped through the font's map. Enough to read what a printed page
says (in drawing order, one text object a line), not a general PDF reader.
"""

from __future__ import annotations

import re
import zlib

_OBJECT = re.compile(rb"(\d+) 0 obj(.*?)endobj", re.S)
_REF = rb"(\d+) 0 R"
_TOKEN = re.compile(rb"/(\w+)\s+[\d.]+\s+Tf|<([0-9A-Fa-f\s]*)>|\bET\b")


def _objects(pdf: bytes) -> dict[int, tuple[bytes, bytes]]:
    """Each object's number: its dictionary and its stream (decompressed), or b""."""
    out = {}
    for m in _OBJECT.finditer(pdf):
        head, _, rest = m.group(2).partition(b"stream")
        data = b""
        if rest:
            data = rest.lstrip(b"\r\n").rsplit(b"endstream", 1)[0]
            if b"/FlateDecode" in head:
                data = zlib.decompress(data)
        out[int(m.group(1))] = (head, data)
    return out


def _utf16(hex_text: bytes) -> str:
    return bytes.fromhex(hex_text.decode()).decode("utf-16-be", "replace")


def _to_unicode(data: bytes) -> dict[bytes, str]:
    """A ToUnicode CMap: each code (its bytes) to its text."""
    out: dict[bytes, str] = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", data, re.S):
        for src, dst in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[bytes.fromhex(src.decode())] = _utf16(dst)
    pair = rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>"
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", data, re.S):
        for lo, hi, dst in re.findall(pair, block):
            first, size = _utf16(dst), len(lo) // 2
            for i in range(int(hi, 16) - int(lo, 16) + 1):
                code = (int(lo, 16) + i).to_bytes(size, "big")
                out[code] = first[:-1] + chr(ord(first[-1]) + i)
    return out


def text(pdf: bytes) -> str:
    """The PDF's text: a line per text object (``BT ... ET``)."""
    objects = _objects(pdf)
    fonts: dict[int, tuple[dict[bytes, str], int]] = {}
    for n, (head, _) in objects.items():
        m = re.search(rb"/ToUnicode\s+" + _REF, head)
        if m and b"/Font" in head:
            cmap = _to_unicode(objects[int(m.group(1))][1])
            fonts[n] = (cmap, max((len(code) for code in cmap), default=1))
    # a page's content stream takes its resources from the page; a form has its own
    owner = {}
    for head, _ in objects.values():
        m = re.search(rb"/Contents\s+" + _REF, head)
        if m and b"/Resources" in head:
            owner[int(m.group(1))] = head

    def font_names(head: bytes) -> dict[bytes, int]:
        m = re.search(rb"/Resources\s+" + _REF, head)
        if m:
            head = objects[int(m.group(1))][0]
        m = re.search(rb"/Font\s*<<(.*?)>>", head, re.S)
        if m:
            return {name: int(ref) for name, ref in re.findall(rb"/(\w+)\s+" + _REF, m.group(1))}
        m = re.search(rb"/Font\s+" + _REF, head)
        if m:
            return font_names(b"/Font <<" + objects[int(m.group(1))][0].strip(b" \n<>") + b">>")
        return {}

    out = []
    for n, (head, data) in objects.items():
        if b"BT" not in data:
            continue
        names = font_names(owner.get(n, head))
        cmap: dict[bytes, str] = {}
        width = 2
        for m in _TOKEN.finditer(data):
            if m.group(1) is not None:
                cmap, width = fonts.get(names.get(m.group(1), -1), ({}, 2))
            elif m.group(2) is not None:
                raw = bytes.fromhex(re.sub(rb"\s", b"", m.group(2)).decode())
                codes = (raw[i : i + width] for i in range(0, len(raw), width))
                out.append("".join(cmap.get(code, "") for code in codes))
            else:
                out.append("\n")
    return re.sub(r"\n+", "\n", "".join(out))
