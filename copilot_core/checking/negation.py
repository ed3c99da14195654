"""Whether a ranking or comparison word is negated where it stands ("Q06 is not better than Q14", "isn't the
highest"): the order checks read the word as said, so a negated one would be verified the wrong way round.

The check does not turn "not better" into "worse" (a tie, or "not the best" of many, says less); a negated ranking
is left unverified, so its sentence carries the visible "not checked" mark (fail closed).
"""

from __future__ import annotations

from copilot_core.language.question_words import tokens_of

# "t" is what "isn't", "doesn't", "can't" leave after the apostrophe.
_NEGATORS = frozenset({"not", "never", "no", "neither", "nor", "t", "cannot", "hardly", "barely"})
_CLAUSE_ENDS = ",;:()"


def negated(sentence: str, at: int) -> bool:
    """True when a negation stands before ``sentence[at:]``'s word in the same clause ("Q06 is not at all the one
    that fails most"; in "No, Q14 is better" the "No" answers the question and is not said of "better")."""
    head = sentence[:at]
    cut = max(head.rfind(c) for c in _CLAUSE_ENDS)
    words = [w for _, _, w in tokens_of(head[cut + 1:])]
    return any(w in _NEGATORS for w in words)
