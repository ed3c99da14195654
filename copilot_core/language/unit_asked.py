"""The unit a question asks its answer in, read once into the question: "in MHz", "expressed in ns", "(kHz)",
"as a fraction", "in percent".

The answer writes every value of that unit's family in it (:func:`~copilot_core.domain.display.shown_in`) and the
claim check accepts the converted figure; a unit of another family than the metric's changes nothing.
"""

from __future__ import annotations

from copilot_core.domain.units import canonical, family
from copilot_core.language.phrases import Phrases, Row, tokens_of

# A share asked as a fraction ("0.9512") or as a percentage ("95.12%").
_FRACTION = Phrases("as/in a? fraction/fractions/decimal/decimals|as/in a? fractional/decimal form/value/values")
_PERCENT = Phrases("as/in a? percent/percentage/percentages/pct|in per cent")
_OPEN, _CLOSE = ("(", "["), (")", "]")
_SETS_ASIDE = frozenset({"not", "rather", "instead", "over"})  # "MHz, not GHz": the unit asked, then the one set aside


def asked_unit(text: str, said: str | None) -> str | None:
    """The unit ``text`` asks its values in: ``said`` (the word table's "in MHz" / "expressed in ns"), a share's
    form, or a unit standing alone in brackets ("(MHz)", never a plural's "(s)"); None when none."""
    if said:
        return canonical(said.split()[-1])
    if _FRACTION.find(text):
        return "fraction"
    if _PERCENT.find(text) or "(%)" in text:
        return "%"
    tokens = tokens_of(text)
    words = [w for _, _, w in tokens]
    for i, word in enumerate(words):  # "ns please", "ns, not us", "ns rather than us", "not us but ns"
        value_unit = i > 0 and words[i - 1].replace(".", "", 1).isdigit()  # "5 GHz": a value's unit, none asked
        if len(word) < 2 or value_unit or family(canonical(word)) is None:
            continue
        after, before = words[i + 1:i + 2], words[max(0, i - 3):i]
        other = next((w for w in words[i + 2:i + 4] if family(canonical(w)) == family(canonical(word))), None)
        if after == ["please"] or after and after[0] in _SETS_ASIDE and other or "not" in before and "but" in before:
            return canonical(word)
    for start, end, word in tokens:
        bracketed = start > 0 and text[start - 1] in _OPEN and text[end:end + 1] in _CLOSE
        alone = start < 2 or not text[start - 2].isalnum()
        if bracketed and alone and word != "s" and family(canonical(word)) is not None:
            return canonical(word)
    return None


def bare_percent(text: str) -> bool:
    """A "%" for the word percent, after no number ("what % of qubits"): no token, so no row of the table reads it."""
    return any(c == "%" and not text[:i].rstrip()[-1:].isdigit() for i, c in enumerate(text))


def unit_counted(text: str, counts: Row) -> bool:
    """Every count word of ``text`` (``counts``: the count shape's row) asks a quantity in a unit ("how many ns
    for the gate", "how many microseconds"): a value in that unit, no count of subjects."""
    if not isinstance(counts, Phrases):
        return False
    tokens, said = tokens_of(text), counts.find(text)
    after = [next((word for start, _, word in tokens if start >= end), "") for _, end in said]
    return bool(said) and all(family(canonical(word)) in ("time", "frequency") for word in after)


def form_only(text: str, shares: Row) -> bool:
    """Every share word of ``text`` (``shares``: the percentage shape's row) names the form a value is asked in (a
    fidelity "as a fraction"), so the question asks a value, not a share; a "%" after no number asks one."""
    if not isinstance(shares, Phrases) or bare_percent(text):
        return False
    forms = _FRACTION.find(text) + _PERCENT.find(text)
    said = shares.find(text)
    return bool(forms) and bool(said) and all(any(a <= s < b for a, b in forms) for s, _ in said)
