"""Reading the clips the lecture saves, as a person's player would see them: a GIF's size,
frames and delays, and a WebM's size and frames (its EBML read as far as that needs).
For the tests; no decoder library."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field


@dataclass
class Clip:
    width: int
    height: int
    frames: int
    delays_ms: list[int] = field(default_factory=list)  # a GIF's, per frame


def read_gif(data: bytes) -> Clip:
    """A GIF89a's logical size, its frames (image descriptors) and their delays."""
    if data[:6] not in (b"GIF89a", b"GIF87a"):
        raise ValueError("not a GIF")
    width, height, flags = struct.unpack_from("<HHB", data, 6)
    i = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    clip = Clip(width, height, 0)
    delay = 0
    while i < len(data):
        block = data[i]
        if block == 0x3B:  # the trailer
            return clip
        if block == 0x21:  # an extension: its label, then sub-blocks
            label = data[i + 1]
            if label == 0xF9:  # graphic control: the next frame's delay, in 1/100 s
                delay = struct.unpack_from("<H", data, i + 4)[0] * 10
            i = _skip_sub_blocks(data, i + 2)
        elif block == 0x2C:  # an image: descriptor, local colour table, LZW data
            packed = data[i + 9]
            i += 10 + (3 * 2 ** ((packed & 7) + 1) if packed & 0x80 else 0)
            i = _skip_sub_blocks(data, i + 1)  # after the LZW minimum code size
            clip.frames += 1
            clip.delays_ms.append(delay)
        else:
            raise ValueError(f"unknown GIF block 0x{block:02x} at byte {i}")
    raise ValueError("a GIF without its trailer")


def _skip_sub_blocks(data: bytes, i: int) -> int:
    while data[i]:
        i += data[i] + 1
    return i + 1


# EBML ids of the elements a WebM's frames and size are in (Matroska's)
_SEGMENT, _CLUSTER, _TRACKS, _TRACK, _VIDEO = 0x18538067, 0x1F43B675, 0x1654AE6B, 0xAE, 0xE0
_BLOCK_GROUP, _SIMPLE_BLOCK, _BLOCK = 0xA0, 0xA3, 0xA1
_PIXEL_WIDTH, _PIXEL_HEIGHT = 0xB0, 0xBA
_MASTERS = {_SEGMENT, _CLUSTER, _TRACKS, _TRACK, _VIDEO, _BLOCK_GROUP}


def _vint(data: bytes, i: int, *, keep_marker: bool) -> tuple[int, int, bool]:
    """An EBML variable-length integer at ``i``: (value, its length, all ones: unknown)."""
    first = data[i]
    length = 1
    while length <= 8 and not first & (0x80 >> (length - 1)):
        length += 1
    if length > 8:
        raise ValueError(f"a bad EBML number at byte {i}")
    value = first if keep_marker else first & (0xFF >> length)
    for b in data[i + 1 : i + length]:
        value = (value << 8) | b
    unknown = not keep_marker and value == (1 << (7 * length)) - 1
    return value, length, unknown


def read_webm(data: bytes) -> Clip:
    """A WebM's video size and its frames (blocks), walking its elements in order: a
    recorder writes the segment and its clusters with an unknown size, so the containers
    are entered, not measured."""
    if data[:4] != b"\x1a\x45\xdf\xa3":
        raise ValueError("not a WebM (no EBML header)")
    clip = Clip(0, 0, 0)
    i = 0
    while i < len(data):
        element, n, _ = _vint(data, i, keep_marker=True)
        size, m, unknown = _vint(data, i + n, keep_marker=False)
        body = i + n + m
        if element in _MASTERS:
            i = body  # its children follow
            continue
        if unknown:
            raise ValueError(f"element 0x{element:x} of unknown size at byte {i}")
        if element in (_SIMPLE_BLOCK, _BLOCK):
            clip.frames += 1
        elif element == _PIXEL_WIDTH:
            clip.width = int.from_bytes(data[body : body + size], "big")
        elif element == _PIXEL_HEIGHT:
            clip.height = int.from_bytes(data[body : body + size], "big")
        i = body + size
    return clip
