"""A count said in words as none ("none of the 40 couplings is below 96%", "no tasks failed", "not a single
qubit", "nothing failed"), or as all of something succeeding ("every run succeeded", "all of them were successful":
none failed), held against the counts the turn's tools returned.

The number check reads digits, so "none of the 40 couplings …" passed on its verified 40 (a total) while it
claims a count of zero.  A sentence that says none of something and what it counts (below or above a limit, failed,
missing, or matching the question's conditions) is:

- ``ok`` when a tool counted those items and one such count is 0;
- ``wrong`` when the tools counted them and no such count is 0;
- ``unchecked`` when no tool counted them: the sentence carries the visible "not checked" mark.

Most or all of a counted noun ("most qubits", "the majority of", "all couplings") is held the same way to the
turn's shares (:func:`share_claims`): over half, or 100%.

A sentence that says "no" of something else ("no qubit 200", "No, Q14 is better") states no count; a tool's own
sentence, quoted, is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.checking.claim_facts import Claim, Fact
from copilot_core.checking.claim_reading import count_qualifier
from copilot_core.language.question_words import tokens_of
from copilot_core.language.stated_numbers import COUNT_NOUNS
from copilot_core.language.sentences import own_sentences

_NOUNS = frozenset(COUNT_NOUNS) | {f"{n}s" for n in COUNT_NOUNS} | {"one"}
_QUALIFIED = ("below", "above", "failed", "missing")


def _none_at(sentence: str) -> tuple[int, int] | None:
    """Where the sentence says none of a counted noun: "none of", "no qubits", "not a single task", "zero runs"."""
    tokens = tokens_of(sentence)
    for i, (start, end, word) in enumerate(tokens):
        rest = [w for _, _, w in tokens[i + 1:i + 4]]
        following = sentence[end:end + 2]
        if word == "none" and not following.startswith(","):
            return start, end
        if word in ("no", "zero") and rest and rest[0] in _NOUNS and not following.startswith(","):
            after = tokens[i + 1]
            if not sentence[after[1]:].lstrip()[:1].isdigit():  # "no qubit 200" names a qubit
                return start, end
        if word == "not" and rest[:2] in (["a", "single"], ["one", "of"]) or word == "not" and rest[:1] == ["one"]:
            return start, end
        if word in _NONE_OF_FAILURES and any(w.startswith(_FAILURE_STEMS) for w in rest) \
                and not following.startswith(","):
            return start, end  # "nothing failed", "never failed", "without any errors", "no errors"
    return None


_NONE_OF_FAILURES = frozenset({"nothing", "never", "without", "no", "zero"})
_FAILURE_STEMS = ("fail", "error")
_SUCCESS_STEMS = ("succe", "pass", "complet")  # succeeded, successful, successfully, passed, completed


def _succeeded_at(sentence: str) -> tuple[int, int, bool] | None:
    """Where the sentence says all of something succeeded ("all of them were successful", "every run succeeded",
    "each task passed"), and whether it says so negated ("not all tasks completed": some failed)."""
    if count_qualifier(sentence) in ("below", "above"):
        return None  # "all qubits passed: above 20 μs" is a count against a limit
    tokens = tokens_of(sentence)
    for i, (start, end, word) in enumerate(tokens):
        if word in _ALL | {"each", "everything", "both"} and any(
                w.startswith(_SUCCESS_STEMS) for _, _, w in tokens[i + 1:i + 8]):
            negated = i > 0 and tokens[i - 1][2] in ("not", "never")
            return start, end, negated
    return None


# "most qubits", "the majority of", "all qubits", "every coupling": a share over half, or all of them.
_MOST = frozenset({"most", "majority"})
_ALL = frozenset({"all", "every"})
_OVER = frozenset({"of", "across", "over", "among", "for", "in", "on", "from", "between", "at", "to", "with"})


def _share_at(sentence: str) -> tuple[int, int, str] | None:
    """Where the sentence says most or all of a counted noun, and which ("most" or "all")."""
    tokens = tokens_of(sentence)
    for i, (start, end, word) in enumerate(tokens):
        rest = [w for _, _, w in tokens[i + 1:i + 3]]
        before = tokens[i - 1][2] if i else ""
        if before == "the" and word == "most":
            continue  # "the most failures": a ranking (checking/extremes.py), not a share
        if before in _OVER and word in _ALL:
            continue  # "30.2% of all tasks", "across all qubits": what a number is of, not a claim about all
        if word in _MOST | _ALL and rest and (rest[0] in _NOUNS or word == "majority" and rest[0] == "of"):
            return start, end, "most" if word in _MOST else "all"
    return None


def share_claims(text: str, facts: Sequence[Fact], quoted: Sequence[tuple[int, int]] = ()) -> list[Claim]:
    """One claim per sentence of ``text`` that says most or all of a counted kind of item, held to the turn's
    shares: ``ok`` when one is over half (most) or 100% (all), ``wrong`` when none is, ``unchecked`` when the tools
    computed no share."""
    out = []
    for s, e in own_sentences(text, quoted):
        sentence = text[s:e]
        found = _share_at(sentence)
        if found is None or _succeeded_at(sentence) is not None:  # "every run succeeded": none failed, not a share
            continue
        start, end, which = found
        shares = [f for f in facts if f.role == "percent"]
        fits = [f for f in shares if (f.value > 50 if which == "most" else f.value == 100)]
        verdict, reason = ("unchecked", "no tool computed the share this sentence states") if not shares else \
            ("ok", "the share the tools give") if fits else \
            ("wrong", f"{shares[0].describe()} is {shares[0].value:.1f}%, not {'over half' if which == 'most' else 'all'}")
        out.append(Claim(sentence[start:end], sentence, None, None, None, None, None, verdict,  # type: ignore[arg-type]
                         reason, None, s + start, s + end))
    return out


def none_claims(text: str, facts: Sequence[Fact], quoted: Sequence[tuple[int, int]] = ()) -> list[Claim]:
    """One claim per sentence of ``text`` that says none of a counted kind of item."""
    out = []
    for s, e in own_sentences(text, quoted):
        sentence = text[s:e]
        at: tuple[int, int] | None = _none_at(sentence)
        which = count_qualifier(sentence)
        some = False  # "not all tasks completed" claims some failed
        if at is None and (succeeded := _succeeded_at(sentence)) is not None:
            at, which, some = succeeded[:2], "failed", succeeded[2]
        if at is None:
            continue
        kinds = (which, "matching") if which in ("below", "above") else (which,) if which else (*_QUALIFIED,
                                                                                                 "matching")
        counts = [f for f in facts if f.role == "count" and f.qualifier in kinds]
        if not counts and which is None:
            continue  # says "no" of nothing the question counts
        if not counts:
            verdict, reason = "unchecked", "no tool counted what this sentence says there is none of"
        elif some:
            verdict, reason = ("ok", "a count of failures the tools give") if any(f.value for f in counts) else \
                ("wrong", f"{counts[0].describe()} is 0: none failed")
        elif any(f.value == 0 for f in counts):
            verdict, reason = "ok", "a count of zero the tools give"
        else:
            verdict, reason = "wrong", f"{counts[0].describe()} is {counts[0].value:g}, not none"
        word = sentence[at[0]:at[1]]
        # a verified none states the count asked for; a wrong one, like a wrong ranking, has no number to correct
        # in place, so the tools' sentences replace the answer (checking/verify.ranked_answer)
        out.append(Claim(word, sentence, "count" if verdict == "ok" else None, None, None, which, None, verdict, reason,  # type: ignore[arg-type]
                         None, s + at[0], s + at[1]))
    return out
