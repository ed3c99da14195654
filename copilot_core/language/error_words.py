"""A fidelity asked as its error: "the lowest CZ error", "readout infidelity", "the X90 gate error rate".

The catalogue holds fidelities (higher is better); a person often asks for their error, 1 − fidelity, whose ends are
reversed: the lowest error is the highest fidelity.  The question is read once as the fidelity it means
with its ends turned (:func:`as_fidelity`: "the 3 couplings with the lowest CZ error" is read as "the 3 couplings
with the highest CZ fidelity"), so the router's ranking, the cross-chip statistic and the checks all take one end
from one reading; :func:`says_error` tells a checked sentence's ends to turn the same way.  An error held to a
number ("readout error above 2%") is left as written: its limit is no fidelity's, and nothing guesses it.
"""

from __future__ import annotations

from copilot_core.language.phrases import Phrases, tokens_of

# What an error is said of: a fidelity's own words just before it ("CZ", "readout", "two-qubit gate", "X90").
_OF_FIDELITY = frozenset({"readout", "measurement", "assignment", "cz", "zx90", "cr", "cnot", "x90", "x180", "gate",
                          "gates", "bell", "2q", "entangling", "rb", "qubit", "state"})
_ERROR = frozenset({"error", "errors", "infidelity", "infidelities"})
_ALONE = frozenset({"infidelity", "infidelities"})  # a fidelity's error whatever is written before it
_RATE = frozenset({"rate", "rates"})  # "the CZ error rate": the error itself
# An end turned: the lowest error is the highest fidelity, a lower error a higher one.
TURNED: dict[str, str] = {"lowest": "highest", "highest": "lowest", "smallest": "largest", "largest": "smallest",
                          "lower": "higher", "higher": "lower", "smaller": "larger", "larger": "smaller",
                          "minimum": "maximum", "maximum": "minimum", "min": "max", "max": "min",
                          "least": "highest", "fewest": "highest", "less": "more", "more": "less",
                          "weakest": "strongest", "strongest": "weakest"}
_HELD_TO_A_NUMBER = Phrases("# percent/pct")


def _error_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` says a fidelity's error (its error word, with a "rate" after it)."""
    tokens = tokens_of(text)
    out = []
    for i, (start, end, word) in enumerate(tokens):
        if word not in _ERROR or not (word in _ALONE or i and tokens[i - 1][2] in _OF_FIDELITY):
            continue
        if i + 1 < len(tokens) and tokens[i + 1][2] in _RATE:
            end = tokens[i + 1][1]
        out.append((start, end))
    return out


def says_error(text: str) -> bool:
    """``text`` asks (or says) a fidelity as its error, and holds it to no number."""
    percent = any(c == "%" and text[:i].rstrip()[-1:].isdigit() for i, c in enumerate(text))
    return bool(_error_spans(text)) and not percent and not _HELD_TO_A_NUMBER.find(text)


def as_fidelity(text: str) -> str:
    """``text`` read as the fidelity its error words mean, each end word turned; ``text`` itself when it says no
    error (or holds the error to a number)."""
    if not says_error(text):
        return text
    spans = _error_spans(text)
    out, at = [], 0
    for start, end, word in tokens_of(text):
        if any(s <= start < e for s, e in spans):
            if any(s == start for s, _ in spans):
                out.append(text[at:start] + "fidelity")
            at = end
        elif word in TURNED:
            turned = TURNED[word]
            out.append(text[at:start] + (turned.capitalize() if text[start].isupper() else turned))
            at = end
    return "".join(out) + text[at:]


def turned_side(side: str, sentence: str) -> str:
    """A checked sentence's end ("up", "down", "best", "worst") as the fidelity's: "the lowest readout error" is
    the fidelity's "up" end; best and worst stay."""
    if not says_error(sentence):
        return side
    return {"up": "down", "down": "up"}.get(side, side)
