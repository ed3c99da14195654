"""Framing between the app and the worker: 4-byte length + payload.

App → worker: a JSON header frame (id, op, timeout, body size), then the body as raw bytes: the
pickled code and data (trusted direction: the app built it).  The worker reads the body into an
anonymous mapping it never unpickles and unmaps once the job has it, so no request's data stays in
the long-lived worker's heap for a later job to find.  Worker → app frames are JSON only and are
never unpickled, so a compromised job cannot execute code in the app.
"""

from __future__ import annotations

import json
import mmap
import os
import re
import struct
import unicodedata
from collections.abc import Mapping
from typing import Any

HEADER = struct.Struct(">I")
MAX_REPLY_BYTES = 8 * 1024 * 1024          # one job's JSON reply
MAX_FRAME_BYTES = MAX_REPLY_BYTES + 64 * 1024
SPARES = 2  # pre-forked job processes the worker keeps ready; back to back, each had a whole job to get ready
MAX_SPARES = 8
# A job handed to a spare still getting ready (prefaulting, or starved on a loaded host) starts its clock when the
# spare takes it; a spare that has not taken it this long after its own limit is killed and the job forked directly.
HANDOVER_S = 10.0
MAX_HEADER_BYTES = 4096
MAX_OUTPUT_CHARS = 20_000  # a job's text output
_SURROGATES = re.compile("[\ud800-\udfff]")


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


def encode_reply(reply: Mapping[str, object]) -> bytes:
    # ASCII escapes: a lone surrogate in model output must not make the reply unencodable
    return json.dumps(reply, ensure_ascii=True, allow_nan=True).encode("ascii")


def decode_reply(payload: bytes) -> dict[str, object]:
    value = json.loads(payload.decode("utf-8"))
    if not isinstance(value, dict):
        raise ProtocolError("worker reply is not a JSON object")
    return value


def write_request(fd: int, header: dict[str, object], body: bytes = b"") -> None:
    """One request: the JSON header frame (``body`` = its size) followed by the raw body (app side)."""
    head = json.dumps({**header, "body": len(body)}).encode("ascii")
    view = memoryview(HEADER.pack(len(head)) + head)
    while view:
        view = view[os.write(fd, view):]
    with memoryview(body) as rest:
        while rest:
            rest = rest[os.write(fd, rest):]


def decode_header(payload: bytes, max_body: int) -> dict[str, Any]:
    """The request header as sent by ``write_request``; ProtocolError if malformed."""
    try:
        header = json.loads(payload.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        raise ProtocolError("request header is not JSON") from None
    body = header.get("body") if isinstance(header, dict) else None
    if not isinstance(body, int) or not 0 <= body <= max_body:
        raise ProtocolError("request header has no valid body size")
    return header


class OffHeap:
    """Bytes of one job (its pickled request, its JSON reply) in a private anonymous mapping, off the heap.

    Freed heap memory is handed out again uninitialised; an unmapped region is not (the kernel gives
    zeroed pages).  ``hide_from_forks`` keeps later forks (spares, other jobs) from inheriting it.
    Pages are only allocated as they are written, so a reply buffer of the reply limit costs what it holds.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.filled = 0
        self.map: mmap.mmap | None = mmap.mmap(-1, max(size, 1), flags=mmap.MAP_PRIVATE)

    def hide_from_forks(self, hidden: bool = True) -> None:
        if self.map is not None and hasattr(mmap, "MADV_DONTFORK"):
            self.map.madvise(mmap.MADV_DONTFORK if hidden else mmap.MADV_DOFORK)

    @property
    def complete(self) -> bool:
        return self.filled >= self.size

    def read_from(self, fd: int) -> int:
        """Read what is available of the rest of the body from ``fd``; 0 at end of stream."""
        assert self.map is not None
        with memoryview(self.map) as view, view[self.filled:self.size] as rest:
            count = os.readv(fd, [rest])
        self.filled += count
        return count

    def write_to(self, fd: int, offset: int) -> int:
        """Write from ``offset`` on to ``fd``; how many bytes were written."""
        assert self.map is not None
        with memoryview(self.map) as view, view[offset:self.size] as rest:
            return os.write(fd, rest)

    def put(self, data: bytes) -> None:
        assert self.map is not None
        self.map[self.filled:self.filled + len(data)] = data
        self.filled += len(data)

    def framed(self) -> bool:
        """Whether what was read so far starts with ``{`` and ends with ``}`` (a whole JSON object, unparsed)."""
        assert self.map is not None
        return self.filled >= 2 and self.map[0] == 0x7B and self.map[self.filled - 1] == 0x7D

    def write_all(self, fd: int) -> None:
        """The filled part as one frame (blocking)."""
        view = memoryview(HEADER.pack(self.filled))
        while view:
            view = view[os.write(fd, view):]
        sent = 0
        while sent < self.filled:
            assert self.map is not None
            with memoryview(self.map) as whole, whole[sent:self.filled] as rest:
                sent += os.write(fd, rest)

    def json(self) -> dict[str, object]:
        """Decode the filled part (trusted callers only: the worker's own probe job)."""
        assert self.map is not None
        return decode_reply(self.map[:self.filled])

    def loads(self) -> Any:  # the app's own request (trusted direction): its fields are read as sent
        """Unpickle the body (only ever in the job process that runs it)."""
        import pickle

        assert self.map is not None
        with memoryview(self.map) as view, view[:self.size] as body:
            return pickle.loads(body)

    def drop(self) -> None:
        """Hand the pages back to the kernel (read again, they are zero): the bytes left the process already."""
        if self.map is not None and self.filled:
            self.map.madvise(mmap.MADV_DONTNEED)

    def close(self) -> None:
        if self.map is not None:
            self.map.close()
            self.map = None


def valid_text(text: str) -> str:
    """``text`` as valid UTF-8: lone surrogates (which no encoder accepts) become U+FFFD."""
    return _SURROGATES.sub("\ufffd", text)


def valid_json(value: object, depth: int = 0) -> object:
    """A JSON value with every string made valid UTF-8 (keys included)."""
    if isinstance(value, str):
        return valid_text(value)
    if depth > 64:
        return value
    if isinstance(value, dict):
        return {valid_text(k) if isinstance(k, str) else k: valid_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [valid_json(v, depth + 1) for v in value]
    return value


# Every alternative starts at the beginning of a run of the characters it scans (a look-behind refuses a start
# inside the run), so a long run is scanned once, not once per position: matching stays linear in the text.
_URL = re.compile(r"""(?ix)
      (?<![a-z0-9+.\-])[a-z0-9+.\-]+:\s*[/\\]{2}\S*
    | (?:^|(?<=[\s"'`(<\[{=,;|>]))[/\\]{2}[^\s/\\]\S*
    | (?<![a-z0-9\-])www\.\S+
    | (?<![a-z0-9+.\-])(?:javascript|vbscript|mailto|tel|sms|callto|facetime|xmpp|sips?|ircs?|magnet|news|nntp
                         |intent|market|geo|bitcoin|file|blob|data|ms-[a-z\-]{1,40})\s*:\S*
    | (?<![a-z0-9.@\-])(?:[a-z0-9](?:[a-z0-9\-]{0,62}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?[/\\?#]\S*
    | (?<![a-z0-9.@\-])(?:[a-z0-9](?:[a-z0-9\-]{0,62}[a-z0-9])?\.)+[a-z]{2,63}:\d{1,5}(?![0-9])
    | (?<![0-9.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?[/\\?#]\S* | (?<![0-9.])(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}(?![0-9])
    | (?<![a-z0-9\-])localhost(?::\d{1,5}|[/\\])\S*
    | (?<![a-z0-9.+_%\-])[a-z0-9.+_%\-]{1,64}@(?:[a-z0-9\-]{1,63}\.)+[a-z]{2,63}
    | </?(?:img|a|iframe|script|svg|link|object|embed|image|video|audio|source|base|meta|form)\b[^>\n]*>?
""")
# Markdown links and images: ``![alt](target)``, ``[label](target)``, ``[label]: target`` definitions (which
# also serve ``[label][ref]``; ``data['a']['b']`` in an error line stays readable).
_MARKDOWN_LINK = re.compile(r"!?\[([^\]\n]{0,500})\]\([^)\n]*\)?|^\s{0,3}\[[^\]\n]+\]:\s*\S+",
                            re.MULTILINE)


def _fold_table() -> dict[int, str]:
    """One character to one ASCII character for every character that stands for it in a link (fullwidth
    ``ｈｔｔｐｓ：／／``, ideographic full stops, fraction and division slashes), so folded text keeps its offsets."""
    table: dict[int, str] = {}
    for code in range(0x80, 0x10000):
        folded = unicodedata.normalize("NFKC", chr(code))
        if len(folded) == 1 and folded.isascii() and folded.isprintable():
            table[code] = folded
    for chars, ascii_char in (("\u2044\u2215\u29f8\uff0f\u2571", "/"), ("\ua789\ufe13\ufe55\u2236\uff1a", ":"),
                              ("\u3002\uff0e\uff61\u2024", "."), ("\u29f5\u2216\ufe68\uff3c", "\\")):
        table.update(dict.fromkeys(map(ord, chars), ascii_char))
    return table


_FOLD = _fold_table()


def strip_links(text: str) -> tuple[str, bool]:
    """Valid UTF-8 with every link, image and loading tag removed: job text is shown and echoed by the model.
    Links are found in the text folded to ASCII (``_FOLD``) and cut from the text as it was."""
    cleaned, links = _MARKDOWN_LINK.subn(lambda m: f"{m.group(1) or ''} [link removed]", valid_text(text))
    spans = [m.span() for m in _URL.finditer(cleaned.translate(_FOLD))]
    if spans:
        parts, last = [], 0
        for begin, end in spans:
            parts += [cleaned[last:begin], "[link removed]"]
            last = end
        cleaned = "".join(parts) + cleaned[last:]
    return cleaned, bool(links or spans)
