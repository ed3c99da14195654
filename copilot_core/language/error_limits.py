"""An error held to a number, read as the fidelity it bounds: "readout error below 2%" is the readout fidelity above
98%, "CZ error of at most 0.015" a CZ fidelity of 98.5% or more, "1 − fidelity under 2e-2" the fidelity above 98%.

The catalogue holds fidelities (in %), so a limit on their error (1 − fidelity) turns both its side and its value:
below N% error is above 100 − N% fidelity, "at most" is "at least", "exceeding" is "below".  A value written with
"%", "percent" or "pct" is a percentage; a value of at most 1 written without one is a fraction (0.02 is 2%); a larger
one is a percentage.  "better than" and "worse than" keep their side (a lower error is a better fidelity).

The limit an error phrase holds is the one written right after it (its own clause: no other metric, no "and"/","
between) or, failing that, right before it ("under 2% readout error").  :func:`turned_limits` rewrites the text so the
one parse reads the fidelity everywhere (filters, shares, window counts, yes/no verdicts), and names each turned
limit in the person's words and the fidelity's, for the answer to say both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from copilot_core.domain.vocabulary import metric_spans
from copilot_core.language.comparisons import comparison
from copilot_core.language.numbers import number_spans, signed_value
from copilot_core.language.question_words import WORDS
from copilot_core.language.phrases import Phrases, tokens_of
from copilot_core.language.stated_numbers import COUNT_NOUNS

_PERCENT_WORDS = frozenset({"%", "percent", "pct", "per cent"})
_SIGN_TURNED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "≤": "≥", "≥": "≤"}
# The words a limit's own clause may hold between an error phrase and its limit ("readout error that is at most").
_GAP = frozenset({"rate", "rates", "is", "are", "was", "were", "be", "being", "been", "of", "that", "which", "stays",
                  "stay", "remains", "remain", "sits", "sit", "lies", "lie", "kept", "held", "still", "value", "values",
                  "currently", "now", "s", "its", "their", "the", "a", "an", "to", "in", "with", "by", "measured",
                  "probability", "level"})
_BEFORE_GAP = frozenset({"of", "the", "a", "an", "in"})  # "under 2% of readout error"


@dataclass(frozen=True)
class HeldError:
    """One error limit as the person wrote it and as the fidelity limit it was read as."""

    said: str  # "readout error below 2%"
    fidelity: str  # "fidelity above 98%"


def _number_end(text: str, end: int) -> tuple[float, int] | None:
    """An exponent right after a number that ends at ``end`` ("2e-2"): its power and where it ends."""
    rest = text[end:end + 5]
    if rest[:1] not in ("e", "E"):
        return None
    digits = rest[1:].replace("−", "-")
    sign = -1 if digits[:1] == "-" else 1
    digits = digits[1:] if digits[:1] in "-+" else digits
    power = "".join(c for c in digits[:2] if c.isdigit()) if digits[:1].isdigit() else ""
    if not power:
        return None
    return sign * float(power), end + 1 + (len(rest[1:]) - len(rest[1:].lstrip("-+−"))) + len(power)


def _unit_after(text: str, end: int) -> tuple[bool, int]:
    """Whether a percent word follows ``end`` (spaces allowed), and where it ends."""
    rest = text[end:]
    stripped = rest.lstrip()
    for word in sorted(_PERCENT_WORDS, key=len, reverse=True):
        if stripped.lower().startswith(word) and not stripped[len(word):len(word) + 1].isalpha():
            return True, end + len(rest) - len(stripped) + len(word)
    return False, end


def _fidelity_value(value: float, percent: bool) -> float:
    """The fidelity (%) whose error is ``value`` (a percentage, else a fraction when at most 1)."""
    error = value if percent or value > 1 else value * 100
    return round(100 - error, 9)


@dataclass(frozen=True)
class _Limit:
    start: int
    end: int
    replacement: str
    said: str


def _limits(text: str) -> list[_Limit]:
    """Every limit written with a comparison word or sign, with its turned wording."""
    rule = WORDS["threshold"]
    out: list[_Limit] = []
    if isinstance(rule, Phrases):
        raise TypeError("the threshold row is a pattern")
    for m in rule.finditer(text):
        value = signed_value(m.group(3))
        end = m.end(3)
        exponent = _number_end(text, end)
        if exponent is not None:
            value, end = value * 10 ** exponent[0], exponent[1]
        percent, end = _unit_after(text, end)
        after = tokens_of(text[end:])[:1]
        if after and after[0][2].rstrip("s") in COUNT_NOUNS:
            continue  # "fewer than 3 qubits": a count
        fidelity = f"{_fidelity_value(value, percent):g}%"
        if m.group(1):
            way, inclusive = comparison(m.group(1)) or ("above", False)
            word = {("below", False): "above", ("below", True): "at least", ("above", False): "below",
                    ("above", True): "at most"}.get((way, inclusive), m.group(1))
        else:
            word = _SIGN_TURNED.get(m.group(2), m.group(2))
        out.append(_Limit(m.start(), end, f"{word} {fidelity}", text[m.start():end].strip()))
    return out


_RANGE_JOINS = frozenset({"and", "to", "-", "–", "—"})


def _ranges(text: str) -> list[_Limit]:
    """Every range written as a word and two numbers ("between 2% and 4%", "outside 1-3 %"), its ends turned."""
    numbers = number_spans(text)
    out = []
    for row in ("inside range", "outside range"):
        rule = WORDS[row]
        for start, end in rule.find(text) if isinstance(rule, Phrases) else []:
            after = [n for n in numbers if n[0] >= end][:2]
            if len(after) < 2 or text[end:after[0][0]].strip():
                continue
            (first, stop, low, _), (second, last, high, _) = after
            percent, stop = _unit_after(text, stop)
            shown, last = _unit_after(text, last)
            try:
                ends = sorted(_fidelity_value(float(v), percent or shown) for v in (low, high))
            except ValueError:
                continue
            if text[stop:second].strip().lower() in _RANGE_JOINS:
                out.append(_Limit(start, last, f"{text[start:end]} {ends[0]:g}% and {ends[1]:g}%",
                                  text[start:last]))
    return out


def bound_limits(text: str, spans: Sequence[tuple[int, int, str]]) -> tuple[list[tuple[int, int, str]],
                                                                            tuple[HeldError, ...]]:
    """The replacements that turn each limit an error phrase (``spans``: ``(start, end, _)`` from its fidelity's
    first word to its error's last) holds, and each limit as the person said it and as read."""
    ranges = _ranges(text)
    limits = sorted(ranges + [lim for lim in _limits(text) if not any(r.start <= lim.start < r.end for r in ranges)],
                    key=lambda lim: lim.start)
    others = [(s, e) for s, e, _ in metric_spans(text) if text[s:e].lower().rstrip("s") not in _NAMING]
    edits: list[tuple[int, int, str]] = []
    held: list[HeldError] = []
    taken: set[int] = set()
    for first, end, _ in spans:
        own = [lim for lim in limits if lim.start >= end and lim.start not in taken and _clear(
            text[end:lim.start], end, lim.start, others, spans, _GAP)]
        own = own[:1] or [lim for lim in limits if lim.end <= first and lim.start not in taken and _clear(
            text[lim.end:first], lim.end, first, others, spans, _BEFORE_GAP)][-1:]
        for lim in own:
            taken.add(lim.start)
            edits.append((lim.start, lim.end, lim.replacement))
            held.append(HeldError(" ".join(text[min(first, lim.start):max(end, lim.end)].split()),
                                  f"fidelity {lim.replacement}"))
    return edits, tuple(held)


def _clear(gap: str, start: int, end: int, others: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int, str]],
           allowed: frozenset[str]) -> bool:
    """Nothing but the limit's own clause words between an error phrase and a limit."""
    words = [w for _, _, w in tokens_of(gap)]
    if any(not (w in allowed or w in ("not", "no", "never") or allowed is _GAP and _labels(words, i))
           for i, w in enumerate(words)) or "," in gap or ";" in gap:
        return False
    return not any(start <= s < end for s, _ in others) and not any(start <= s < end for s, _, _ in spans)


_NAMING = frozenset({"qubit", "coupling", "pair", "q", "for", "on"})


def _labels(words: Sequence[str], i: int) -> bool:
    """The subject an error is said of, between it and its limit ("the readout error of Q12 below 0.08", "of
    coupling Q00-Q01 at most 2%")."""
    word = words[i]
    label = word[1:] if word[:1] == "q" else word
    return word in _NAMING or label.isdigit() and (word != label or i > 0 and (
        words[i - 1] in _NAMING | {"q"} or (words[i - 1][1:] or "x").isdigit()))


def value_edits(text: str, spans: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A value said as an error with no comparison ("Q05's readout error is 1.5 %", "an infidelity of 0.02"): the
    fidelity it is the complement of, written to the same decimals ("98.5%"), so a checked answer's error is held to
    the fidelity the tools give and a fidelity called an error is not."""
    out = []
    numbers = number_spans(text)
    for _, end, _ in spans:
        after = next(((s, e, w) for s, e, w, _ in numbers if s >= end), None)
        if after is None or not _clear(text[end:after[0]], end, after[0], [], spans, _GAP | {"about", "around"}):
            continue
        start, stop, written = after
        try:
            value = float(written.replace(",", ""))
        except ValueError:
            continue
        percent, stop = _unit_after(text, stop)
        decimals = len(written.split(".")[1]) if "." in written else 0
        decimals = decimals if percent or value > 1 else max(decimals - 2, 0)
        out.append((start, stop, f"{_fidelity_value(value, percent):.{decimals}f}%"))
    return out
