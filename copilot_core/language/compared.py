"""The shapes a question takes that need more than one row of the word table (a count over a window, a pair, two
chips, a failure ranking), read from the rows it holds."""
from __future__ import annotations

from collections.abc import Sequence


def compared_shape(found: dict[str, str], qubits: Sequence[str], chip_ids: Sequence[str], dated: bool = False,
                   terse: bool = False) -> str | None:
    """The shapes that need more than one row: "fails most", "window count" (a count and a window of time, or a
    count per day),
    "qubit pair" (two qubits and a comparison word), "cross-chip" (two chips named, or words about every chip)."""
    if "fails most" in found:
        return "fails most"
    if ("count words" in found or terse) and (dated or any(row in found for row in _WINDOW_ROWS)):
        return "window count"
    if "per day" in found and any(row in found for row in ("count words", "fail", "execution")):
        return "window count"  # counted day by day: a window (the last days when none is written)
    if len(qubits) == 2 and "pair words" in found:
        return "qubit pair"
    if "which chip" in found or "pooled chips" in found or len({c.lower() for c in chip_ids}) >= 2:
        return "cross-chip"
    return None


_WINDOW_ROWS = ("window", "window form", "this week", "this month", "fortnight", "since weekday", "vague window",
                "part of today")
_TERSE_STARTS = frozenset({"failed", "failures", "runs", "executions", "tasks", "calibration", "calibrations"})


def opens_with_count(text: str, tokens: Sequence[tuple[int, int, str]]) -> bool:
    """A sentence (or a clause after a comma, a colon, a dash or "i.e.") of ``text`` opens with what a count counts
    ("failed tasks this week?", "…, failed runs?"): a count asked tersely."""
    return any(word in _TERSE_STARTS and text[:start].rstrip()[-1:] in ("", *"?.:;,!—(\n") for start, _, word in tokens)
