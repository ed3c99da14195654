"""An answer's errors held to a number, read as the fidelities the tools hold, with every place mapped back.

"14 qubits have a readout error below 4%" states a count of the filter "readout fidelity above 96%": its numbers are
read on the sentence the question's own reading makes of it (:func:`~copilot_core.language.error_words.fidelity_edits`),
so the limit is held to the tools' 96 and "error" is no failure word, while each claim keeps its place in the text the
person reads.  A value said as an error with no limit ("Q05's readout error is 1.5 %") is held to the fidelity's
complement by :func:`error_value`.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_core.language.error_words import fidelity_edits


@dataclass(frozen=True)
class ErrorRead:
    """The answer as read for checking, and the edits that made it (``(old start, old end, new start, new end)``)."""

    text: str
    moved: tuple[tuple[int, int, int, int], ...]

    def place(self, start: int, end: int) -> tuple[int, int]:
        """Where ``start``-``end`` of the read text stands in the answer: an edited span maps to what it replaced."""
        shift = 0
        for old_start, old_end, new_start, new_end in self.moved:
            if start >= new_end:
                shift = old_end - new_end
                continue
            if end > new_start:
                return old_start, old_end
            break
        return start + shift, end + shift


def error_read(answer: str) -> ErrorRead:
    """``answer`` with each error held to a number read as the fidelity's limit (itself when it holds none)."""
    edits, _ = fidelity_edits(answer, values=True)
    out, moved, at, length = [], [], 0, 0
    for start, end, said in edits:
        out.append(answer[at:start])
        length += start - at
        moved.append((start, end, length, length + len(said)))
        out.append(said)
        length += len(said)
        at = end
    return ErrorRead("".join(out) + answer[at:], tuple(moved))
