"""The qubits a question takes as a set: a run of them written by its two ends, and the ones it leaves out.

Two qubit numbers joined by a dash or "to" read like a coupling, yet a person writes a run of qubits so too, and a
spread, a ranking or a count is then asked over that run, not of one coupling that does not exist.  Two numbers, the
lower first, are a run when a run word joins them ("through", "until", "..") or "inclusive" follows; or, in a
question not about couplings (no coupling word, no two-qubit gate, no coupling metric), when "qubits", "from" or
"numbered" comes before them, or "between" before a share, a count or a spread, or they span more than two qubits
("Q3-Q4" and "Q25-Q11" stay pairs); couplings in the plural with two qubit numbers more than one apart ("couplings
from Q10 to Q19") are the couplings within a run.  A subject written as a qubit after a word that leaves something
out (:data:`~copilot_core.language.limits.LEAVING_WORDS`: "except Q5", "not counting qubits 3 and 7") is left out
of the set and is never a subject asked about.
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Sequence

from copilot_core.language.limits import LEAVING_WORDS, Range, Threshold
from copilot_core.language.pairs import COUPLING_NOUNS, Number, qubit_numbers
from copilot_core.language.phrases import Phrases, tokens_of

LEAVING_OUT = Phrases(LEAVING_WORDS)
_RUN_WORDS = frozenset({"through", "thru", "till", "until", "upto"})
_RUN_MARKS = ("..", "…")
_WEAK_WORDS = frozenset({"to", "and"})
_FILLER = frozenset({"q", "qubit", "qubits", "number", "no", "up", "including", "inclusive"})
_DASHES = frozenset("-–—−→~〜#")  # "Q32–Q63", "q32 → q63", "32~63", "#32-#63"
_BEFORE = frozenset({"qubits", "from", "numbered", "between", "qbs", "range"})
_LIST = frozenset({"and", "or", "nor", "q", "qubit", "qubits", "the", "for", "also", "both"})
_GATES = frozenset({"cr", "cnot", "cz", "zx90", "gate", "gates"})  # a two-qubit gate's words: about couplings
_COMPARING = frozenset({"difference", "gap", "margin", "compare", "compared", "vs", "versus", "delta", "differ"})
# Words of a figure over many qubits ("what share", "how many", "the median"): "between" two of them is a run.
_OVER_A_SET = frozenset({"percent", "percentage", "share", "fraction", "proportion", "many", "median", "spread",
                         "deviation", "std", "stdev", "count", "rank", "top", "all"})
MAX_RUN = 512
# Couplings asked of as many ("couplings from Q10 to Q19"): the two numbers, more than one apart, end a run of qubits.
_SETS = frozenset({"couplings", "pairs", "edges", "links", "connections", "couplers"})


@dataclass(frozen=True)
class QubitSet:
    """The qubits of the runs a question writes (``span``), those it leaves out (``left_out``), and where both are
    written (``spans``), so no other reading takes those numbers for subjects."""

    span: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    limits: tuple[Threshold, ...] = ()  # the limits read, less a bare number that ends a run ("up to 15")


def _ends(text: str, a: Number, b: Number) -> bool:
    """``a`` and ``b`` joined only by a dash or "to" (and "q"s): a pair's or a run's two ends."""
    gap = text[a[1]:b[0]]
    return {w for _, _, w in tokens_of(gap)} <= {"to", "q"} and \
        {c for c in gap if not (c.isalnum() or c.isspace())} <= _DASHES


def _run(text: str, a: Number, b: Number, about_couplings: bool, one_pair: bool = False) -> bool:
    """``a`` and ``b`` written as the two ends of a run of qubits (``one_pair``: the only two numbers the text
    joins so)."""
    gap = text[a[1]:b[0]]
    words = [w for _, _, w in tokens_of(gap)]
    marks = {c for c in gap if not (c.isalnum() or c.isspace() or c == "_")}
    strong = bool(set(words) & _RUN_WORDS) or any(m in gap for m in _RUN_MARKS)
    if not set(words) <= _RUN_WORDS | _WEAK_WORDS | _FILLER or not marks <= _DASHES | {"."} or len(words) > 4:
        return False
    low, high = int(a[2]), int(b[2])
    if low >= high or high - low >= MAX_RUN or "." in marks and not strong:  # "Q25-Q11": control then target
        return False
    before = [w for _, e, w in tokens_of(text) if e <= a[0]][-3:]
    after = [w for s, _, w in tokens_of(text) if s >= b[1]][:1]
    near = [w for w in before if w != "q"][-1:]
    if about_couplings and one_pair and high - low > 1 and _SETS & {w for _, _, w in tokens_of(text)} and \
            (bool(near) and near[0] in _SETS | {"qubits"} or "to" in words):
        return True  # "couplings Q20-Q27", "the couplings from Q10 to Q19"; never "pair 3-9 in the top couplings"
    if strong or after == ["inclusive"] or "inclusive" in words:
        return "and" not in words or "between" in before
    said = {w for _, _, w in tokens_of(text)}
    if "and" in words and "between" in before and high - low > 1 and not _COMPARING & said and _OVER_A_SET & said:
        return True  # "between Q32 and Q63, what share has ...": a share, a count or a spread of the qubits between
    if "and" in words and (not {"between", "qubits"} <= set(before) or _COMPARING & said):
        return False  # "the gap between Q13 and Q16", "the difference between qubits 5 and 9": two qubits
    return not about_couplings and (bool(set(before) & _BEFORE) or high - low > 1)


def qubit_set(text: str, coupling_metric: bool, limits: Sequence[Threshold] = (),
              ranges: Sequence[Range] = ()) -> QubitSet:
    """The runs and the left-out qubits of ``text`` (``coupling_metric``: it names a metric of couplings; the
    ``limits`` and ``ranges`` it states hold numbers that are never qubits)."""
    values = frozenset([t.value for t in limits if t.unit] + [v for r in ranges for v in (r.low, r.high)])
    numbers = qubit_numbers(text, values)
    tokens = tokens_of(text)
    about_couplings = coupling_metric or bool({w for _, _, w in tokens} & (COUPLING_NOUNS | _GATES))
    runs: list[tuple[int, int, range]] = []
    one_pair = sum(_ends(text, a, b) for a, b in zip(numbers, numbers[1:])) == 1
    i = 0
    while i + 1 < len(numbers):
        a, b = numbers[i], numbers[i + 1]
        if a[:2] != b[:2] and _run(text, a, b, about_couplings, one_pair):
            runs.append((a[0], b[1], range(int(a[2]), int(b[2]) + 1)))
            i += 2
            continue
        i += 1
    left: list[int] = []
    spans: list[tuple[int, int]] = [(s, e) for s, e, _ in runs]
    out_runs: set[int] = set()
    for _, end in LEAVING_OUT.spans(tokens):
        stop = end
        while stop < len(tokens) and (tokens[stop][2] in _LIST | _RUN_WORDS | {"to"}
                                      or any(n[0] >= tokens[stop][0] and n[1] <= tokens[stop][1] for n in numbers)):
            stop += 1
        reach = (tokens[end][0], tokens[stop - 1][1]) if stop > end else (0, 0)
        named = [n for n in numbers if reach[0] <= n[0] and n[1] <= reach[1]]
        said = [w for w in (t[2] for t in tokens[end:stop]) if w in ("q", "qubit", "qubits") or w[:1] == "q"
                and w[1:2].isdigit()]
        if not named or not said:  # "without 2 outliers": no qubit
            continue
        spans.append(reach)
        for k, (s, e, qubits) in enumerate(runs):
            if reach[0] <= s and e <= reach[1]:
                out_runs.add(k)
                left += list(qubits)
        left += [int(n[2]) for n in named if not any(s <= n[0] and n[1] <= e for s, e, _ in runs)]
    span = [q for k, (_, _, qubits) in enumerate(runs) if k not in out_runs for q in qubits]
    ends = {float(q) for s, e, _ in runs for n in numbers if s <= n[0] and n[1] <= e for q in (n[2],)}
    return QubitSet(tuple(dict.fromkeys(map(str, span))), tuple(dict.fromkeys(map(str, left))), tuple(spans),
                    tuple(t for t in limits if t.unit or t.value not in ends))
