"""The answer to "which chip has fewer / lower / more ..." names that chip first.

A tool that sets chips side by side (``compare_chips``, a count per chip) writes its sentence from its own end: the
higher value, the better chip, the larger share.  A question that asks for the other end ("which chip had fewer
failed runs", "which device has the lower mean T1") or counts qubits where the tool ranks shares ("which chip has
more qubits with T1 below 40 μs": a count, on chips of different sizes) would then read another chip first.  When
the first chip the answer names is not the one the question asks for, a sentence naming it, with each chip's
figure, is put first.  The end asked is read from the question's ranking words (:mod:`~copilot_core.language.subjects`).
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.answer.blocks import Block, TextBlock
from copilot_core.tools.across_chips import STATISTICS
from copilot_core.checking.claim_facts import as_object
from copilot_core.domain.metrics import CATALOGUE
from copilot_core.language.question import Question
from copilot_core.language.question_words import tokens_of
from copilot_core.language.subjects import (BEST, BETTER, COMPARATIVE_DOWN, COMPARATIVE_UP, SUPERLATIVE_DOWN,
                                            SUPERLATIVE_UP, WORSE, WORST)
from copilot_core.tools.toolkit import ToolOutcome

_UP, _DOWN = SUPERLATIVE_UP | COMPARATIVE_UP, SUPERLATIVE_DOWN | COMPARATIVE_DOWN
_COUNT_WORDS = frozenset({"more", "most", "fewer", "fewest", "less", "least"})  # "more qubits": a count


_ENDS = _UP | _DOWN | BEST | BETTER | WORST | WORSE
_ASKING = frozenset({"which", "whose", "or"})  # a question that asks for one chip ("which chip", "64Qv3 or 144Qv2")
# Words after a ranking word that make it no end of the figures ("more than 50", "most recent", "more uniform").
_NOT_AN_END = frozenset({"than", "recent", "recently", "of", "uniform", "consistent", "stable", "even", "variable",
                         "spread", "similar"})


def asked_end(asked: Question) -> str | None:
    """The ranking word a question that asks for one chip asks it by ("fewer", "higher", "worse"), lower-case; None
    when it asks none, or asks for no one chip."""
    words = [t[2] for t in tokens_of(asked.text)]
    if not _ASKING & set(words):
        return None
    return next((w for i, w in enumerate(words) if w in _ENDS and (words[i + 1:i + 2] or [""])[0] not in _NOT_AN_END),
                None)


def _figures(body: dict, word: str) -> tuple[dict[str, float], dict[str, str], str]:
    """(chip -> value the end is read on, chip -> the figure written for it, what the figures are).  A share asked
    as "more / fewer qubits" is read on the count of qubits past the limits, not on the share."""
    ranking = body["ranking"]
    chips = [r for r in body.get("chips") or body.get("counts") or [] if isinstance(r, dict) and "chip_id" in r]
    if body.get("statistic") == "share" and word in _COUNT_WORDS:
        kind = str(body.get("share_of") or "qubits")
        return ({str(r["chip_id"]): float(r["matching"]) for r in chips},
                {str(r["chip_id"]): f"{r['matching']} of {r['with_data']} {kind} with a value" for r in chips},
                f"{kind} {str(ranking.get('metric', '')).removeprefix('share ')}")
    written = ranking.get("written") or {}
    order = [str(n) for n in ranking.get("names") or []]
    values = {n: float(len(order) - i) for i, n in enumerate(order)}  # highest first, ties kept by the tool's order
    for r in chips:
        for key in ("count", "count_failed", str(body.get("statistic"))):
            if isinstance(r.get(key), (int, float)):
                values[str(r["chip_id"])] = float(r[key])
                break
    entry = CATALOGUE.get(str(body.get("metric")))
    what = f"{body.get('statistic')} {entry.title}" if entry is not None and body.get("statistic") in STATISTICS \
        else str(ranking.get("metric"))
    return values, {n: ", ".join(str(w) for w in written.get(n) or []) for n in order}, what


def _lead(body: dict, word: str, said: str) -> str | None:
    """The sentence naming the chip at the end ``word`` asks for, first; None when the answer already does, the
    chips tie, or the result ranks no chips."""
    ranking = body.get("ranking")
    if not isinstance(ranking, dict) or ranking.get("kind") != "chip" or body.get("pooled"):
        return None
    values, shown, what = _figures(body, word)
    if len(values) < 2 or len(set(values.values())) < 2:
        return None
    better = bool(ranking.get("higher_is_better", True))
    high = word in _UP or word in BEST | BETTER and better or word in WORST | WORSE and not better
    ordered = sorted(values, key=lambda c: -values[c] if high else values[c])
    if values[ordered[0]] == values[ordered[1]]:
        return None
    lowered = said.lower()
    first = min((lowered.find(c.lower()), c) for c in values if c.lower() in lowered) if any(
        c.lower() in lowered for c in values) else None
    if first is not None and first[1] == ordered[0]:
        return None
    others = ", ".join(f"{shown.get(c) or values[c]} on {c}" for c in ordered[1:])
    the = "" if word in _COUNT_WORDS else "the "
    return f"{ordered[0]} has {the}{word} {what}: {shown.get(ordered[0]) or values[ordered[0]]} vs {others}."


def chip_lead_blocks(blocks: list[Block], asked: Question, outcomes: Sequence[ToolOutcome]) -> list[Block]:
    """``blocks`` with a first sentence naming the chip a side-by-side question asks for, when the answer names
    another chip first (see the module docstring)."""
    word = asked_end(asked)
    if word is None or asked.chip_scope != "each":
        return blocks
    bodies = [b for o in outcomes if o.ok and isinstance(b := as_object(o.full), dict)
              and isinstance(b.get("ranking"), dict) and b["ranking"].get("kind") == "chip"]
    if len(bodies) != 1:
        return blocks
    said = " ".join(b.text for b in blocks if isinstance(b, TextBlock) and not b.text.startswith("_"))
    lead = _lead(bodies[0], word, said)
    return blocks if lead is None else [TextBlock(lead), *blocks]


__all__ = ["asked_end", "chip_lead_blocks"]
