"""Framing between the app and the worker: 4-byte length + payload.

App → worker frames are pickles (trusted direction: the app built them).  Worker → app frames are
JSON only and are never unpickled, so a compromised job cannot execute code in the app.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

HEADER = struct.Struct(">I")
MAX_REPLY_BYTES = 8 * 1024 * 1024          # one job's JSON reply
MAX_FRAME_BYTES = MAX_REPLY_BYTES + 64 * 1024
SPARES = 2  # pre-forked job processes the worker keeps ready; back to back, each had a whole job to get ready
MAX_SPARES = 8


class ProtocolError(RuntimeError):
    """The other side sent something that is not a well-formed frame."""


def write_frame(fd: int, payload: bytes) -> None:
    """Write one frame completely (blocking)."""
    view = memoryview(HEADER.pack(len(payload)) + payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exact(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd``; None on end of file before the first byte."""
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            if remaining == size:
                return None
            raise ProtocolError("stream ended inside a frame")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def read_frame(fd: int, limit: int) -> bytes | None:
    """One frame's payload, or None at end of stream; frames over ``limit`` are a protocol error."""
    header = read_exact(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size > limit:
        raise ProtocolError(f"frame of {size} bytes exceeds {limit}")
    payload = read_exact(fd, size) if size else b""
    if payload is None:
        raise ProtocolError("stream ended inside a frame")
    return payload


def encode_reply(reply: dict[str, Any]) -> bytes:
    # ASCII escapes: a lone surrogate in model output must not make the reply unencodable
    return json.dumps(reply, ensure_ascii=True, allow_nan=True).encode("ascii")


def decode_reply(payload: bytes) -> dict[str, Any]:
    value = json.loads(payload.decode("utf-8"))
    if not isinstance(value, dict):
        raise ProtocolError("worker reply is not a JSON object")
    return value
