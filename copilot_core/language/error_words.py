"""A fidelity asked as its error: "the lowest CZ error", "readout infidelity", "the X90 gate error rate".

The catalogue holds fidelities (higher is better); a person often asks for their error, 1 − fidelity, whose ends are
reversed: the lowest error is the highest fidelity.  The question is read once as the fidelity it means
with its ends turned (:func:`as_fidelity`: "the 3 couplings with the lowest CZ error" is read as "the 3 couplings
with the highest CZ fidelity"), so the router's ranking, the cross-chip statistic and the checks all take one end
from one reading; :func:`says_error` tells a checked sentence's ends to turn the same way.  An error held to a
number ("readout error above 2%") is read as the fidelity's limit it means (:mod:`~copilot_core.language.error_limits`).
"""

from __future__ import annotations

from copilot_core.language.error_limits import HeldError, bound_limits, value_edits
from copilot_core.language.phrases import tokens_of

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
_TWO_QUBIT = frozenset({"2q", "qubit", "entangling"})  # "2Q error", "two-qubit error": the two-qubit gate's
_MISASSIGNED = frozenset({"misassignment", "misassignments", "misclassification"})  # a readout's error by itself
_MINUS = frozenset({"1", "one"})  # "1 − fidelity", "one minus the readout fidelity"
_FIDELITY = frozenset({"fidelity", "fidelities", "fid", "fids"})


def _minus_spans(text: str, tokens: list[tuple[int, int, str]]) -> list[tuple[int, int, int, int, str]]:
    """"1 - fidelity", "one minus the readout fidelity": the "1 -" dropped, the fidelity phrase kept."""
    out = []
    for i, (start, end, word) in enumerate(tokens[:-1]):
        nxt = tokens[i + 1]
        sign = text[end:nxt[0]].strip()
        if word not in _MINUS or not (sign in ("-", "−") or sign == "" and nxt[2] == "minus"):
            continue
        j = i + 1 + (nxt[2] == "minus")
        j += j < len(tokens) and tokens[j][2] == "the"
        last = next((k for k in range(j, min(j + 4, len(tokens))) if tokens[k][2] in _FIDELITY), None)
        if last is not None and j < len(tokens):
            out.append((start, start, tokens[j][0], tokens[last][1], ""))
    return out


def _error_spans(text: str) -> list[tuple[int, int, int, int, str]]:
    """``(phrase start, words start, words end, phrase end, fidelity words)`` where ``text`` says a fidelity's
    error: its error words (a "rate" after them) are replaced by the fidelity's, its phrase starts at the fidelity's
    own words ("CZ", "readout", "two-qubit gate")."""
    tokens = tokens_of(text)
    out = _minus_spans(text, tokens)
    for i, (start, end, word) in enumerate(tokens):
        alone = word in _ALONE or word in _MISASSIGNED
        if not (word in _ERROR or word in _MISASSIGNED) or not (alone or i and tokens[i - 1][2] in _OF_FIDELITY):
            continue
        if i + 1 < len(tokens) and (tokens[i + 1][2] in _RATE or word in _MISASSIGNED and tokens[i + 1][2] in _ERROR):
            end = tokens[i + 1][1]
        first = i
        while first and tokens[first - 1][2] in _OF_FIDELITY | {"two", "average"} and \
                text[tokens[first - 1][1]:tokens[first][0]].strip() in ("", "-"):
            first -= 1
        said = "readout fidelity" if word in _MISASSIGNED else "gate fidelity" if i and tokens[i - 1][2] in \
            _TWO_QUBIT else "fidelity"
        out.append((tokens[first][0], start, end, end, said))
    return sorted(out)


def fidelity_edits(text: str, values: bool = False) -> tuple[list[tuple[int, int, str]], tuple[HeldError, ...]]:
    """The ``(start, end, replacement)`` edits that read each error held to a number in ``text`` as the fidelity's
    limit (with ``values``, each value said as an error as the fidelity's too: an answer's), in order, and those
    limits in both wordings; no edit when it holds none."""
    spans = _error_spans(text)
    phrases = [(first, last, said) for first, _, _, last, said in spans]
    edits, held = bound_limits(text, phrases)
    taken = [(s, e) for s, e, _ in edits]
    edits += [v for v in (value_edits(text, phrases) if values else []) if not any(s <= v[0] < e for s, e in taken)]
    if not edits:
        return [], ()
    return sorted(edits + [(start, end, said) for _, start, end, _, said in spans]), held


def turned_limits(text: str) -> tuple[str, tuple[HeldError, ...]]:
    """``text`` with each error held to a number read as the fidelity limit it means ("readout error below 2%":
    "readout fidelity above 98%"), and those limits in both wordings; ``text`` itself when it holds none."""
    edits, held = fidelity_edits(text)
    if not held:
        return text, ()
    out, at = [], 0
    for start, end, said in edits:
        out.append(text[at:start] + said)
        at = end
    return "".join(out) + text[at:], held


def says_error(text: str) -> bool:
    """``text`` asks (or says) a fidelity as its error, and holds it to no number."""
    return bool(_error_spans(text)) and not turned_limits(text)[1]


def as_fidelity(text: str) -> tuple[str, tuple[HeldError, ...]]:
    """``text`` read as the fidelity its error words mean, with the error limits it holds: an error held to a number
    as the fidelity's limit (:func:`turned_limits`), else each end word turned; ``text`` itself when it says no
    error."""
    turned, held = turned_limits(text)
    if held:
        return turned, held
    spans = _error_spans(text)
    if not spans:
        return text, ()
    out, at = [], 0
    for start, end, word in tokens_of(text):
        if any(s <= start < e for _, s, e, _, _ in spans):
            if any(s == start for _, s, _, _, _ in spans):
                out.append(text[at:start] + next(said for _, s, _, _, said in spans if s == start))
            at = end
        elif word in TURNED:
            turned = TURNED[word]
            out.append(text[at:start] + (turned.capitalize() if text[start].isupper() else turned))
            at = end
    return "".join(out) + text[at:], ()


def turned_side(side: str, sentence: str) -> str:
    """A checked sentence's end ("up", "down", "best", "worst") as the fidelity's: "the lowest readout error" is
    the fidelity's "up" end; best and worst stay."""
    if not says_error(sentence):
        return side
    return {"up": "down", "down": "up"}.get(side, side)
