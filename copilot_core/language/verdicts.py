"""A yes/no question against a limit ("is Q05's T1 over 50 μs?", "does 4-5 clear 0.95 ZX90 fidelity?", "are all
couplings under 300 ns?"), read into a :class:`Verdict`: the subjects, the metric, the side and the limit in the
metric's display unit.

A band word in place of a number ("is coupling 3-4 excellent?", "is Q5's T1 poor?") is a limit at the lab's threshold
of that band (:data:`BAND_WORDS`).  The answer must say yes or no, never only the value: the parse says which
question wants one.  A question wants a verdict when it opens with a yes/no word (a verb that asks: "is", "does",
"are"...; or "whether"/"if" after "tell me") and writes exactly one limit (or one band word) of one clear metric.
"all"/"every"/"each" ask whether every subject passes, "any"/"some" whether one does.  The limit is converted to
the display unit by :meth:`~copilot_core.domain.metrics.Metric.in_display`, the one
reader of a limit's unit (a fraction of a metric shown in %, "0.98", is 98%).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from copilot_core.domain.metrics import CATALOGUE, Band, Metric
from copilot_core.language.limits import Range, Side, Threshold

Quantifier = Literal["one", "all", "any"]
# Words a yes/no question opens with (first word of the question or of a clause after "," or ":").
YES_NO_OPENERS = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have", "can", "will", "would",
                            "could", "isn", "aren", "doesn", "don", "whether"})
# Words that make the question ask for something other than a yes or no ("which", "how many", "list").
NOT_YES_NO = frozenset({"which", "what", "how", "list", "show", "who", "where", "when", "why", "rank", "plot",
                        "chart", "compare", "trend", "history", "since", "between"})
# A band word asks whether the value is in that band of the lab's thresholds ("is 3-4 excellent?"): the band it
# names, "fair" for a word that only rules out "bad" ("acceptable").
BAND_WORDS: dict[str, Band] = {"excellent": "excellent", "good": "good", "great": "good", "acceptable": "fair",
                               "adequate": "fair", "decent": "fair", "ok": "fair", "okay": "fair", "poor": "bad",
                               "bad": "bad", "weak": "bad"}
QUANTIFIERS: dict[str, Quantifier] = {"all": "all", "every": "all", "each": "all", "any": "any", "some": "any",
                                      "anything": "any", "anyone": "any"}


@dataclass(frozen=True)
class Verdict:
    """A yes/no asked of ``subjects`` (qubits "5" or couplings "4-5"; empty: every one of the chip) against one
    limit: ``metric`` ``side`` ``limit`` (display unit; ``inclusive``: a value at the limit passes)."""

    metric: str
    side: Side
    limit: float
    inclusive: bool
    subjects: tuple[str, ...]
    quantifier: Quantifier
    band: str | None = None  # the band word the limit stands for ("excellent"), as written

    def passes(self, value: float) -> bool:
        """Whether ``value`` (display unit) is on the asked side of the limit."""
        if self.inclusive and abs(value - self.limit) < 1e-12:
            return True
        return value < self.limit if self.side == "below" else value > self.limit


def _opens_yes_no(tokens: Sequence[tuple[int, int, str]], text: str) -> bool:
    for i, (start, _, word) in enumerate(tokens):
        before = text[tokens[i - 1][1]:start] if i else ""
        first = i == 0 or any(mark in before for mark in (",", ":", ";", "?", "."))
        if word.lower() in YES_NO_OPENERS and (first or word.lower() == "whether"):
            return True
    return False


def _band_limit(entry: Metric, band: Band) -> tuple[Side, float, bool] | None:
    """``(side, limit, inclusive)`` a value must be on to be in ``band`` (as :meth:`Metric.score` scores it): at
    least the band's limit on the better side, or, for "bad", past the bad limit; None when the metric has none."""
    better: Side = "above" if entry.higher_is_better else "below"
    worse: Side = "below" if entry.higher_is_better else "above"
    value = {"excellent": entry.excellent, "good": entry.good, "fair": entry.bad, "bad": entry.bad}[band]
    return None if value is None else (worse, value, False) if band == "bad" else (better, value, True)


def _band_verdict(tokens: Sequence[tuple[int, int, str]], metric: str | None) -> tuple[Side, float, bool, str] | None:
    """The limit a band word of a yes/no question stands for: one band word, one metric with that band."""
    said = list(dict.fromkeys(w.lower() for _, _, w in tokens if w.lower() in BAND_WORDS))
    entry = CATALOGUE.get(metric) if metric is not None else None
    if len(said) != 1 or entry is None or (found := _band_limit(entry, BAND_WORDS[said[0]])) is None:
        return None
    return (*found, said[0])


def read_verdict(text: str, tokens: Sequence[tuple[int, int, str]], metrics: Sequence[str | None],
                 limits: Sequence[Threshold], ranges: Sequence[Range], qubits: Sequence[str],
                 couplings: Sequence[str]) -> Verdict | None:
    """The verdict ``text`` asks for (its parts as the question parse read them), None when it asks none."""
    words = {w.lower() for _, _, w in tokens}
    if len(limits) > 1 or ranges or words & NOT_YES_NO or "many" in words or not _opens_yes_no(tokens, text):
        return None
    clear = {m for m in metrics if m is not None}
    t = limits[0] if limits else None
    metric = t.metric if t is not None and t.metric else next(iter(clear)) if len(clear) == 1 else None
    entry = CATALOGUE.get(metric) if metric is not None else None
    if entry is None or metric is None:
        return None
    band = _band_verdict(tokens, metric) if t is None else None
    if t is None and band is None:
        return None
    side, limit, inclusive = (band[0], band[1], band[2]) if band is not None else \
        (t.side, entry.in_display(t.value, t.unit), t.inclusive) if t is not None else ("above", None, False)
    if limit is None:
        return None
    subjects = tuple(couplings) if entry.kind == "coupling" else tuple(qubits)
    said = [QUANTIFIERS[w.lower()] for _, _, w in tokens if w.lower() in QUANTIFIERS]
    quantifier: Quantifier = said[0] if said else "one" if len(subjects) == 1 else "all"
    if not subjects and not said:
        return None  # "is the T1 over 50 μs?" of no subject: the model's to read
    return Verdict(metric, side, limit, inclusive, subjects, quantifier, band[3] if band is not None else None)
