"""A metric or shape word typed with one slip ("coherense", "readuot", "T2 echp", "frequancy", "corelation")
read as the one word of the lab's vocabulary it is nearest to, so every reading of the question sees the word meant.

A word is read again only when it is in no table as written, it starts with the letter of the word meant, and
exactly one word of :data:`VOCABULARY` is one slip away (one letter dropped, added, changed, or two neighbours
swapped; two in a word of eleven letters or more); a word of five letters or more.  Short words are read again
only after the word they follow in a metric's name ("T2 echp": echo).  Plain English words near a lab word
("frequent", "derivation") are never read as it.  The question keeps each word read again, so the answer says how
it read it.  A word that takes a count typed with it ("top5", "last10") is read as the word and the count.
"""

from __future__ import annotations

from copilot_core.language.phrases import tokens_of

# Words of metric names and of the shapes of a question, one form each of those people write; a word is read as
# the nearest of these only when it is none of them.
VOCABULARY = frozenset({
    "frequency", "frequencies", "resonator", "resonance", "readout", "readouts", "fidelity", "fidelities",
    "assignment", "measurement", "coherence", "decoherence", "lifetime", "lifetimes", "relaxation", "dephasing",
    "anharmonicity", "interaction", "crosstalk", "depolarizing", "benchmarking", "randomized", "interleaved",
    "amplitude", "entangling", "ramsey", "correlation", "correlations", "correlated", "correlate", "deviation",
    "percentage", "percentages", "percent", "median", "average", "averages", "variance", "distribution",
    "histogram", "spread", "standard", "calibration", "calibrations", "failures", "qubits", "couplings", "coupling",
    "highest", "lowest", "largest", "smallest", "biggest", "longest", "shortest", "greatest", "between", "failed",
    "failing", "fraction", "proportion", "compare", "compared", "comparison", "threshold", "which", "above", "below",
    "difference", "differences", "minimum", "maximum",
})
# Words that take a count, typed with it and no space ("top5", "last10"): read as the word and the count.
GLUED = frozenset({"top", "bottom", "best", "worst", "highest", "lowest", "first", "last", "latest", "newest"})
# Short words read again only right after the word they follow in a metric's name ("T2 echp", "T2 sar").
AFTER = {"echo": frozenset({"t2"}), "star": frozenset({"t2"}), "hahn": frozenset({"t2"})}
# English words one slip from a lab word: never read as it.
PLAIN = frozenset({
    "frequent", "frequently", "derivation", "derivations", "relation", "relations", "coupled", "averaged",
    "percents", "medians", "readily", "standards", "spreads", "amplitudes", "variances", "correlates", "qubit",
    "correction", "intersection", "percentile", "failure", "relaxations", "histograms", "distributions",
    "measurements", "resonators", "resonances", "assignments", "interactions", "deviations", "falls", "filed",
    "files", "filled", "abode", "abide", "highs", "lows", "comparing", "compares", "whose", "while", "whole", "belly",
    "larger", "higher", "lower", "bigger", "longer", "shorter", "greater", "smaller", "thresholds", "fractions",
    "proportions", "betweens", "fading", "filing", "flailing", "fairing", "media", "falling", "fooled", "fouled",
    "faring", "feeling", "hailed", "sailed", "wailed", "failer",
})


def distance(a: str, b: str, most: int) -> int:
    """The letters dropped, added, changed or swapped (neighbours) between ``a`` and ``b``; ``most + 1`` once it is
    past ``most``."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        now = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            now[j] = min(row[j] + 1, now[j - 1] + 1, row[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                now[j] = min(now[j], before[j - 2] + 1)
        before, row = row, now
        if min(row) > most:
            return most + 1
    return min(row[-1], most + 1)


def nearest(word: str, choices: frozenset[str], most: int) -> str | None:
    """The one word of ``choices`` nearest ``word`` within ``most`` and starting with its letter, else None (none,
    or two as near)."""
    found = sorted((d, c) for c in choices if c[:1] == word[:1] and (d := distance(word, c, most)) <= most)
    if not found or len(found) > 1 and found[0][0] == found[1][0]:
        return None
    return found[0][1]


def respelled(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``text`` with every slipped lab word written as the word meant, and ``(as written, as read)`` of each."""
    tokens = tokens_of(text)
    out: list[str] = []
    read: list[tuple[str, str]] = []
    kept = 0
    for i, (start, end, word) in enumerate(tokens):
        letters = word.rstrip("0123456789")
        if letters in GLUED and word[len(letters):].isdigit() and len(word) - len(letters) <= 3:
            meant: str | None = f"{letters} {word[len(letters):]}"
        elif not word.isalpha() or word in VOCABULARY or word in PLAIN or word in AFTER:
            continue
        else:
            meant = nearest(word, VOCABULARY, 2 if len(word) >= 11 else 1) if len(word) >= 5 else None
        before = tokens[i - 1][2] if i else ""
        if meant is None and word.isalpha() and len(word) >= 3:
            meant = nearest(word, frozenset(w for w, after in AFTER.items() if before in after), 1)
        if meant is None:
            continue
        out += [text[kept:start], meant]
        read.append((text[start:end], meant))
        kept = end
    return "".join(out) + text[kept:], tuple(dict.fromkeys(read))


def reading_note(read: tuple[tuple[str, str], ...]) -> str | None:
    """How the answer says it read slipped words: "Read 'coherense' as coherence."; None when none was."""
    if not read:
        return None
    return "Read " + ", ".join(f"'{written}' as {meant}" for written, meant in read) + "."
