"""Two couplings a question sets side by side, each written by its two qubits with whatever joins them.

"Q4-Q5 vs Q4-Q6" is read by the mention grammar; a person also writes "coupling of qubits 4 and 5 against that of
qubits 4 and 6", "(4,5) or (4,6)", "4/5 vs 4/6", "Q4Q5 versus Q4Q6", "4 to 5 or 4 to 6".
Read as loose numbers those are three or four qubits, and the answer lists qubits for a question about couplings.
Here two numbers joined only by a joining word or mark are one pair, and two or more pairs separated by a word that
sets them apart ("or", "vs", "and the one") are couplings, when the question is about couplings at all (a coupling
word, a coupling metric, or two qubits written as one word): a list of qubits ("qubits 3, 7 and 9") never has two
pairs apart, so it stays qubits.
"""

from __future__ import annotations

from collections.abc import Iterable

from copilot_core.language.question_words import tokens_of

# What may stand between a pair's two qubits: words, and marks (any other character ends the pair).
_JOINS = frozenset({"and", "to", "with", "q", "qubit", "qubits", "no", "nr", "number", "num"})
_CONNECTIVES = frozenset({"and", "to", "with"})  # at most one of them
_MARKS = frozenset(" ,-–—−/&→>():<↔⇄⇔.#")  # "Q5 <-> Q6", "Q5 & Q6", "no. 5" (a number sign)
# What sets one pair apart from the next: one of these words between them.
_APART = frozenset({"or", "vs", "versus", "than", "and", "against", "compared", "between", "v"})
COUPLING_NOUNS = frozenset({"coupling", "couplings", "coupler", "couplers", "link", "links", "edge", "edges",
                            "connection", "connections", "pair", "pairs", "bond", "bonds", "coupled"})

# Words that set two qubits against each other ("which of Q5 and Q6", "Q5 better than Q6"): no coupling by a
# coupling metric alone.
_CHOOSING = frozenset({"which", "better", "worse", "than", "compare", "compared", "vs", "versus", "higher", "lower",
                       "best", "worst", "each", "either", "both"})
_UNITS = frozenset({"us", "μs", "µs", "ns", "ms", "s", "hz", "khz", "mhz", "ghz", "percent", "day", "days", "week",
                    "weeks", "hour", "hours", "h"})
Number = tuple[int, int, str]  # start, end, the number as written (zeros kept)


def qubit_numbers(text: str, values: frozenset[float]) -> list[Number]:
    """Every qubit number written: "16", "Q16", and both of "Q16Q17" (one word, no room between them); never a
    decimal's part ("0.95"), a value with its unit ("90 %", "60 us") or a limit the question states (``values``)."""
    out: list[Number] = []
    tokens = tokens_of(text)
    for i, (start, end, word) in enumerate(tokens):
        after = tokens[i + 1][2] if i + 1 < len(tokens) else ""
        if word.isdecimal():
            decimal = text[start - 1:start] == "." or text[end:end + 1] == "." and text[end + 1:end + 2].isdigit()
            unit = text[end:].lstrip()[:1] == "%" or after in _UNITS and not text[end:tokens[i + 1][0]].strip()
            if not (decimal or unit or float(word) in values or _in_power(text, start)):
                out.append((start, end, word))
            continue
        parts = word.split("q")
        if 2 <= len(parts) <= 3 and not parts[0] and all(p.isdecimal() for p in parts[1:]):
            out += [(start, end, p) for p in parts[1:]]
    return out


def _in_power(text: str, start: int) -> bool:
    """The number at ``start`` is part of a power of ten ("3.5 x 10-5", "2×10^-8"): no qubit."""
    before = text[:start].rstrip()
    if before[-1:] in ("-", "−", "^"):
        before = before[:-1].rstrip()
        if not before.endswith("10"):
            return False
        before = before[:-2].rstrip()
    return before[-1:] in ("×", "x", "X", "*", "·") and before[:-1].rstrip()[-1:].isdigit()


def _joined(gap: str) -> bool:
    """Only a joining word or mark stands between two numbers: they are one pair."""
    words = [w for _, _, w in tokens_of(gap)]
    marks = {c for c in gap if not (c.isalnum() or c == "_")}
    return set(words) <= _JOINS and sum(w in _CONNECTIVES for w in words) <= 1 and marks <= _MARKS


def _apart(gap: str) -> bool:
    return bool({w for _, _, w in tokens_of(gap)} & _APART)


def couplings_written(text: str, about_couplings: bool, values: frozenset[float] = frozenset()) -> list[str]:
    """The couplings ``text`` sets side by side, written by their qubits ("16-17"), in order; none unless it is
    about couplings (``about_couplings``, or a coupling word) and names at least two pairs set apart, or one pair
    alone beside a coupling word ("pair 40/41", "the 40/41 link", "the coupler between Q10 and Q11") or asked of
    a coupling metric with no word setting the two qubits against each other ("ZX90 fidelity of Q5 ↔ Q6", "nr. 5
    with nr. 6"; "which of Q5 and Q6" stays two qubits).  ``values``:
    the limits it states with a unit, never a qubit ("between 16 and 18" of a coupling is one, not a range)."""
    numbers = qubit_numbers(text, values)
    fused = any(a[:2] == b[:2] for a, b in zip(numbers, numbers[1:]))  # "Q7Q10": a pair whatever the words
    if not about_couplings and not fused and not {w for _, _, w in tokens_of(text)} & COUPLING_NOUNS:
        return []
    pairs: list[tuple[Number, Number]] = []
    i = 0
    while i + 1 < len(numbers):
        a, b = numbers[i], numbers[i + 1]
        together = a[:2] == b[:2] or _joined(text[a[1]:b[0]])
        if together and (not pairs or _apart(text[pairs[-1][1][1]:a[0]])):
            pairs.append((a, b))
            i += 2
            continue
        i += 1
    before = [w for s, _, w in tokens_of(text) if pairs and s < pairs[0][0][0]][-1:]  # "pair 29/15": named so
    before += [w for s, _, w in tokens_of(text) if pairs and s >= pairs[0][1][1]][:1]  # "the 29/15 coupler" too
    words = {w for _, _, w in tokens_of(text)}
    context = about_couplings and (bool(words & COUPLING_NOUNS) or not words & _CHOOSING)  # "CZ of Q5 ↔ Q6"
    if len(pairs) == 1 and len(numbers) == 2 and (context or set(before) & COUPLING_NOUNS):
        return [f"{int(a[2])}-{int(b[2])}" for a, b in pairs if int(a[2]) != int(b[2])]  # "the coupler of Q4 and Q5"
    if len(pairs) < 2:
        return []
    return list(dict.fromkeys(f"{int(a[2])}-{int(b[2])}" for a, b in pairs if int(a[2]) != int(b[2])))


def stored_coupling(written: str, held: Iterable[str | None]) -> str:
    """The one identity of a coupling: ``written`` ("10-11") as the coupling ``held`` (what the data or the tools
    hold) stores, either way round ("11-10") when only that direction is held; as written when it is held itself, when
    both directions are (a directional value must name its direction) or when it is no coupling at all.  The router,
    the claim check and the ranking check read a written pair through this, so "Q10-Q11" is never another subject
    than a stored 11→10."""
    ends = written.split("-")
    if len(ends) != 2 or not all(e.isdigit() for e in ends):
        return written
    keys = set(held)
    flipped = f"{ends[1]}-{ends[0]}"
    return flipped if written not in keys and flipped in keys else written
