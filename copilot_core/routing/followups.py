"""Two or three next questions after an answer, built from what the answer touched (never by a model).

The tools it called and their arguments say which chip, qubits and metrics the conversation is about; the next
questions move one step from there (a qubit's trend, the chip's worst qubits for that metric, what changed since
the last run).  Every name in them comes from a catalogue or an identifier pattern, so a hostile tool argument
cannot put words in them.  A failed or stopped answer, or one without tools, gets none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from copilot_core.domain.metrics import CATALOGUE
from copilot_core.domain.topology import qubit_label

MAX_FOLLOW_UPS = 3
_CHIP_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def _chip_id(text: str) -> bool:
    """A chip id as the app writes one: 1-40 ASCII letters, digits, ``_.-``, starting with a letter or digit."""
    return 0 < len(text) <= 40 and set(text) <= _CHIP_CHARS and text[0].isascii() and text[0].isalnum()


def _qid(text: str) -> bool:
    return 0 < len(text) <= 4 and text.isascii() and text.isdigit()
_METRIC_KEYS = ("metric_name", "parameter_name", "metric", "parameter")


def _strings(value: object) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if isinstance(v, (str, int))]
    return [str(value)] if isinstance(value, (str, int)) else []


def _touched(calls: Iterable[tuple[str, dict]]) -> tuple[list[str], list[str], list[str]]:
    """Chips, qubit ids and catalogue metrics named in the calls' arguments, in order of first use."""
    chips: list[str] = []
    qids: list[str] = []
    metrics: list[str] = []
    for _, args in calls:
        for chip in _strings(args.get("chip_id")):
            if _chip_id(chip) and chip not in chips:
                chips.append(chip)
        for qid in _strings(args.get("qid")) + _strings(args.get("qids")):
            if _qid(qid) and qid not in qids:
                qids.append(qid)
        for key in _METRIC_KEYS:
            for name in _strings(args.get(key)):
                if name.lower() in CATALOGUE and name.lower() not in metrics:
                    metrics.append(name.lower())
    return chips, qids, metrics


def follow_ups(question: str, calls: Sequence[tuple[str, dict]], *, chip_in_view: str | None = None,
               failed: bool = False, size_of: Callable[[str], int] | None = None) -> list[str]:
    """Up to three next questions for an answer whose tool calls were ``calls`` (name, arguments).  ``size_of``: a
    chip's qubit count, so a qubit reads as every table writes it (``Q017`` on 144 qubits; ``Q17`` when unknown)."""
    if failed or not calls:
        return []
    chips, qids, metrics = _touched(calls)
    chip = chips[0] if chips else (chip_in_view if chip_in_view and _chip_id(chip_in_view) else None)
    title = CATALOGUE[metrics[0]].title if metrics else None
    qubit = qubit_label(qids[0], size_of(chip) if size_of is not None and chip else 0) if qids else None
    where = f" on {chip}" if chip else ""
    candidates: list[str] = []
    if title and qubit:
        candidates.append(f"{title} trend of {qubit}{where} over the last 30 days")
    if title and chip:
        candidates.append(f"Which qubits on {chip} have the worst {title}?")
    if qubit and chip:
        candidates.append(f"Show every parameter of {qubit} on {chip}")
    if chip:
        candidates.append(f"What changed on {chip} since the last calibration run?")
    if title and not chip:
        candidates.append(f"{title} trend over the last 30 days")
    asked = question.strip().lower().rstrip("?")
    out: list[str] = []
    for text in candidates:
        if text.lower().rstrip("?") != asked and text not in out:
            out.append(text)
    return out[:MAX_FOLLOW_UPS]
