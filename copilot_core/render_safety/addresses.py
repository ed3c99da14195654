"""Memory addresses out of every text a sandbox job hands back.

An object's default ``repr`` (functions, generators, groupbys, numpy's ``Generator``) holds its address, and
every job forks from one warmed interpreter, so an address seen in one job's reply is valid in the next:
exactly what forging an object from raw memory needs.  Addresses are therefore cut from job output, errors
and chart text wherever they appear, whatever produced them.
"""

from __future__ import annotations

import re

# ``%p`` as CPython, numpy and pandas print it: 0x plus hex digits (six or more: no address is shorter; a
# reader's ``0xFF`` stays).
_ADDRESS = re.compile(r"0[xX][0-9a-fA-F]{6,}")
HIDDEN = "0x…"


def scrub_addresses(text: str) -> str:
    """``text`` with every hex address replaced by ``0x…``."""
    if "0x" not in text and "0X" not in text:
        return text
    return _ADDRESS.sub(HIDDEN, text)
