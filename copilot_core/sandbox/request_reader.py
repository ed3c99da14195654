"""How the worker reads the app's requests: a length-prefixed header (ids, op, sizes; never data), then the
request body straight from the pipe into a mapping of its own, a little at a time so the worker's loop never
blocks on one request."""

from __future__ import annotations

import os

from copilot_core.sandbox import protocol
from copilot_core.sandbox.job_process import MAX_REQUEST_BYTES


class RequestReader:
    """The request being read from ``in_fd``; the worker never unpickles a body, so a request's data never
    lands in the heap later jobs fork from."""

    def __init__(self, in_fd: int) -> None:
        self.in_fd = in_fd
        self.head = bytearray()  # the request header being read (ids and sizes only, never data)
        self.incoming: tuple[dict, protocol.OffHeap] | None = None  # a request whose body is being read

    def read(self) -> tuple[dict, protocol.OffHeap | None] | None:
        """Read a little more of the current request: its header (a few bytes at a time), then its body into
        its own mapping (``protocol.OffHeap``); the whole request (header, body or None) once complete, else None."""
        if self.incoming is not None:
            header, body = self.incoming
            if not body.read_from(self.in_fd):
                raise EOFError("app closed the request stream inside a request")
            if body.complete:
                self.incoming = None
                return header, body
            return None
        have = len(self.head)
        size = protocol.HEADER.unpack_from(self.head)[0] if have >= protocol.HEADER.size else 0
        if size > protocol.MAX_HEADER_BYTES:
            raise protocol.ProtocolError("request header too large")
        need = protocol.HEADER.size - have if have < protocol.HEADER.size else protocol.HEADER.size + size - have
        chunk = os.read(self.in_fd, need)
        if not chunk:
            raise EOFError("app closed the request stream")
        self.head += chunk
        if len(self.head) < protocol.HEADER.size:
            return None
        size = protocol.HEADER.unpack_from(self.head)[0]
        if size > protocol.MAX_HEADER_BYTES:
            raise protocol.ProtocolError("request header too large")
        if len(self.head) < protocol.HEADER.size + size:
            return None
        header = protocol.decode_header(bytes(self.head[protocol.HEADER.size:]), MAX_REQUEST_BYTES)
        self.head.clear()
        if header["body"]:
            body = protocol.OffHeap(header["body"])
            body.hide_from_forks()  # a spare forked while it is being read must not inherit it
            self.incoming = (header, body)
            return None
        return header, None
