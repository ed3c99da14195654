"""A log or stack-trace line pasted before the ask ("2026-11-30 12:00:01 WARN ...", "Traceback (most recent call
last):", "KeyError: 't1'", "File \"app.py\", line 3") is context, not the question: its times read as couplings,
its metric words as metrics asked.  :func:`without_pasted` leaves such lines out when the rest of the text asks
something of its own (names a metric); a question that points back at the log ("why did this fail?") keeps it.
"""

from __future__ import annotations

from copilot_core.domain.vocabulary import metrics_named
from copilot_core.language.phrases import tokens_of

# A log line's level word, first (or after a time stamp).
_LEVELS = frozenset({"error", "err", "warn", "warning", "info", "debug", "critical", "fatal", "trace", "exception"})


def _level(line: str, token: tuple[int, int, str]) -> bool:
    """A log level as a program writes it: in capitals ("WARN") or before a colon ("Error:"), not "error rates"."""
    start, end, word = token
    return word in _LEVELS and (line[start:end].isupper() or line[end:end + 1] == ":")


def _pasted(line: str) -> bool:
    """The line reads as a program's output: a time stamp first (three numbers: a date or a time), a level first,
    a traceback's header or frame, or an exception's name ("KeyError")."""
    tokens = tokens_of(line)
    if not tokens:
        return False
    words = [t[2] for t in tokens]
    first = line.lstrip(" \t-*>[")
    stamped = len(words) >= 3 and all(w.isdigit() for w in words[:3])  # "2026-11-30 ...", "[12:00:01] ..."
    level = words[0] == "traceback" or _level(line, tokens[0]) or stamped and any(_level(line, t) for t in tokens[3:8])
    frame = first.startswith('File "')
    named = any(t[2].endswith(("error", "exception")) and line[t[0]:t[0] + 1].isupper()
                and any(c.isupper() for c in line[t[0] + 1:t[1]]) for t in tokens)  # "KeyError", not "error"
    return stamped or level or frame or named


def without_pasted(text: str) -> str:
    """``text`` without its pasted log lines, when a line left names a metric itself; else ``text`` as it is."""
    lines = text.splitlines()
    if len(lines) < 2:
        return text
    kept = [line for line in lines if not _pasted(line)]
    if not kept or len(kept) == len(lines) or not any(m is not None for m in metrics_named("\n".join(kept))):
        return text
    return "\n".join(kept)
