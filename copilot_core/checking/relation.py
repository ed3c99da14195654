"""Words that say how two metrics relate ("strongly correlated", "no correlation", "a weak negative relation"),
held against the coefficient the turn's tools computed.

The number check verifies "r = 0.82" but not the words around it, so "only a weak correlation (r = 0.82)" or
"strongly correlated" over r = 0.02 passed as verified.  Here a sentence that names a relation and says its
strength, its sign or that there is none is:

- ``ok`` when a coefficient of the turn (the one the sentence names, Pearson or Spearman, else any) is in the
  band the words say (the bands the correlation tool words its own sentence with) and of that sign;
- ``wrong`` when every such coefficient is in another band or of the other sign;
- ``unchecked`` when no tool computed a coefficient: the sentence carries the visible "not checked" mark.

A tool's own sentence, quoted, is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.checking.claim_facts import Claim, Fact
from copilot_core.checking.negation import negated
from copilot_core.language.question_words import tokens_of
from copilot_core.language.sentences import own_sentences
from copilot_core.tools.distribution import relation_strength

_RELATION_STEMS = ("correlat", "relat", "anticorrelat", "linked", "track")
_NONE_WORDS = frozenset({"uncorrelated", "unrelated", "independent", "unlinked"})
_STRENGTHS = {"strong": "strong", "strongly": "strong", "highly": "strong", "closely": "strong",
              "tightly": "strong", "moderate": "moderate", "moderately": "moderate", "weak": "weak",
              "weakly": "weak", "slight": "weak", "slightly": "weak", "loosely": "weak"}
_SIGNS = {"positive": 1, "positively": 1, "direct": 1, "negative": -1, "negatively": -1, "inverse": -1,
          "inversely": -1, "anticorrelated": -1}
_NONE = "no clear"


def _relation_word(sentence: str) -> int | None:
    """Where the sentence's first word naming a relation starts."""
    return next((a for a, _, w in tokens_of(sentence)
                 if w in _NONE_WORDS or w.startswith(_RELATION_STEMS)), None)


def _said(sentence: str, at: int) -> tuple[str | None, bool, int]:
    """What the sentence says of the relation: a strength band (``"no clear"`` for none), whether that band is
    negated ("not strongly"), and a sign (0: none said)."""
    words = [(a, w) for a, _, w in tokens_of(sentence)]
    band = next((_STRENGTHS[w] for _, w in words if w in _STRENGTHS), None)
    sign = next((_SIGNS[w] for _, w in words if w in _SIGNS), 0)
    if any(w in _NONE_WORDS for _, w in words):
        return _NONE, False, sign
    strength_at = next((a for a, w in words if w in _STRENGTHS), None)
    if band is not None and strength_at is not None and negated(sentence, strength_at):
        return band, True, sign  # "not strongly correlated"
    if negated(sentence, at):
        return (band, True, sign) if band is not None else (_NONE, False, sign)
    return band, False, sign


def _coefficients(sentence: str, facts: Sequence[Fact]) -> list[Fact]:
    """The turn's coefficients the sentence can be about: the one it names (Pearson, Spearman), else all."""
    found = [f for f in facts if f.role == "r"]
    words = {w for _, _, w in tokens_of(sentence)}
    named = "spearman" if words & {"spearman", "rho"} else "pearson" if "pearson" in words else None
    if named is not None and any(f.qualifier == named for f in found):
        found = [f for f in found if f.qualifier == named]
    return found


def _fits(fact: Fact, band: str | None, negated_band: bool, sign: int) -> bool:
    data_band = relation_strength(fact.value)
    if band is not None and (data_band == band) == negated_band:
        return False
    if sign and data_band != _NONE and (-1 if fact.negative else 1) != sign:
        return False
    return not (sign and band is None and data_band == _NONE)  # "a positive relation" where there is none


def relation_claims(text: str, facts: Sequence[Fact], quoted: Sequence[tuple[int, int]] = ()) -> list[Claim]:
    """One claim per sentence of ``text`` that says how strong a relation is, its sign, or that there is none."""
    out = []
    for s, e in own_sentences(text, quoted):
        sentence = text[s:e]
        at = _relation_word(sentence)
        if at is None:
            continue
        band, negated_band, sign = _said(sentence, at)
        if band is None and not sign:
            continue  # names a relation, says nothing of it ("the correlation coefficient is 0.82")
        found = _coefficients(sentence, facts)
        word = tokens_of(sentence[at:])[0][2]
        if not found:
            verdict, reason = "unchecked", "no tool computed the relation this sentence describes"
        elif any(_fits(f, band, negated_band, sign) for f in found):
            verdict, reason = "ok", "the relation the coefficient gives"
        else:
            f = found[0]
            strength = relation_strength(f.value)
            data = "no clear relation" if strength == _NONE else \
                f"a {strength} {'negative' if f.negative else 'positive'} relation"
            verdict, reason = "wrong", f"{f.describe()} is {'-' if f.negative else ''}{f.value:.2f}: {data}"
        out.append(Claim(word, sentence, None, None, None, None, None, verdict, reason, None,  # type: ignore[arg-type]
                         s + at, s + at + len(word)))
    return out
