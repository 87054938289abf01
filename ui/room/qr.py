"""The join link as a QR code: ``segno`` draws it as SVG here, offline (no CDN, no image
service)."""

from __future__ import annotations

import functools

import segno


@functools.lru_cache(maxsize=64)
def qr_svg(url: str, title: str = "join link") -> str:
    """The QR code of ``url`` (our own join link: a URL this app makes, at most 200
    characters) as an SVG document, black on white with the quiet zone the standard asks;
    ``title`` (its text alternative, in the caller's language) is part of the cache's key."""
    if len(url) > 200:
        raise ValueError("url must be at most 200 characters")
    code = segno.make(url, error="m", micro=False)
    return code.svg_inline(scale=10, border=4, dark="#000", light="#fff", title=title)
