"""An embedded ``data:image``'s pixels, read from its PNG, JPEG, GIF or WebP header (never decoded)."""

from __future__ import annotations

import base64
import binascii
import struct
from collections.abc import Callable


from copilot_core.render_safety.data_arrays import ChartTooCostly

MAX_IMAGE_PIXELS = 4_000_000  # an embedded image, all frames


def image_pixels(source: str, where: str) -> int:
    """Pixels x frames of an embedded ``data:image`` (PNG, JPEG, GIF, WebP), read from its headers."""
    try:
        raw = base64.b64decode(source.split(",", 1)[1], validate=True)
    except (binascii.Error, IndexError):
        raise ChartTooCostly(f"{where}: the image is not valid base64") from None
    reader = _IMAGE_READERS.get(source[len("data:image/"):source.index(";")])
    size = reader(raw) if reader is not None else None
    if size is None:
        raise ChartTooCostly(f"{where}: the image's size cannot be read from its header")
    width, height, frames = size
    if frames > 1:
        raise ChartTooCostly(f"{where}: animated images ({frames:,} frames) are not drawn; embed one still image")
    if width * height > MAX_IMAGE_PIXELS:
        raise ChartTooCostly(f"{where}: the image is {width}x{height} pixels; the limit is {MAX_IMAGE_PIXELS:,}")
    return width * height


def _png(raw: bytes) -> tuple[int, int, int] | None:
    if raw[:8] != b"\x89PNG\r\n\x1a\n" or raw[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", raw[16:24])
    return width, height, 2 if b"acTL" in raw[:raw.find(b"IDAT")] else 1  # acTL before the image data: animated


def _jpeg(raw: bytes) -> tuple[int, int, int] | None:
    at = 2
    if raw[:2] != b"\xff\xd8":
        return None
    while at + 9 < len(raw):
        if raw[at] != 0xFF:
            return None
        marker, size = raw[at + 1], struct.unpack(">H", raw[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", raw[at + 5:at + 9])
            return width, height, 1
        at += 2 + size
    return None


def _gif(raw: bytes) -> tuple[int, int, int] | None:
    """Walk the GIF's blocks and count its frames (image descriptors)."""
    if raw[:3] != b"GIF" or len(raw) < 13:
        return None
    width, height, flags = struct.unpack("<HHB", raw[6:11])
    at, frames = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0), 0
    while at < len(raw):
        block = raw[at]
        if block == 0x3B:
            break
        if block == 0x21:  # extension: label, then sub-blocks
            at += 2
        elif block == 0x2C:  # image descriptor, local colour table, LZW size, sub-blocks
            frames += 1
            local = raw[at + 9] if at + 9 < len(raw) else 0
            at += 10 + (3 << ((local & 7) + 1) if local & 0x80 else 0) + 1
        else:
            return None
        while at < len(raw) and raw[at]:
            at += raw[at] + 1
        at += 1
    return width, height, max(frames, 1)


def _webp(raw: bytes) -> tuple[int, int, int] | None:
    if raw[:4] != b"RIFF" or raw[8:12] != b"WEBP":
        return None
    chunk = raw[12:16]
    if chunk == b"VP8X":
        animated = bool(raw[20] & 0x02)
        width = 1 + int.from_bytes(raw[24:27], "little")
        height = 1 + int.from_bytes(raw[27:30], "little")
        return width, height, 2 if animated else 1
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", raw[26:30])
        return width & 0x3FFF, height & 0x3FFF, 1
    if chunk == b"VP8L":
        bits = int.from_bytes(raw[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, 1
    return None


_IMAGE_READERS: dict[str, Callable[[bytes], tuple[int, int, int] | None]] = {
    "png": _png, "jpeg": _jpeg, "jpg": _jpeg, "gif": _gif, "webp": _webp}
