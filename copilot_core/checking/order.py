"""Comparisons and rankings in an answer held against the order the data gives: who is higher, better, most.

A tool that compares (chips on a metric, two qubits, tasks by failures) returns a ``ranking``: the names highest
value first, each with the values its sentence writes for it.  In each sentence of an answer that names some of
them, two things are checked: the name a comparison word ("higher", "better", "most", "lower", "worse", "fewest")
is said of is the one the data puts at that end, and the values written follow the names in the order written
(a value put on the other side is wrong even though the tool returned it).  A sentence that says two names are the
same or equal is held to their values; one that says they are alike is marked (a negated comparison too,
:mod:`~copilot_core.checking.negation`).  A sentence that passes gets an ``ok``
claim (it is verified, not "not checked"); one that fails a ``wrong`` claim on the name, so the answer is replaced
by the data's or the sentence left out (:mod:`~copilot_core.checking.claims`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from copilot_core.checking.claim_facts import Claim, as_object
from copilot_core.checking.matcher import states, written_decimals, written_value
from copilot_core.checking.negation import negated
from copilot_core.language.error_words import TURNED, says_error
from copilot_core.language.numbers import number_spans
from copilot_core.language.question import mentions, names_blanked
from copilot_core.language.question_words import WORDS, tokens_of
from copilot_core.language.subjects import (BEST, COMPARATIVE_DOWN, COMPARATIVE_UP, SUPERLATIVE_DOWN, SUPERLATIVE_UP,
                                            WORST, rank_word)
from copilot_core.language.subjects import BETTER as BETTER_WORDS
from copilot_core.language.subjects import WORSE as WORSE_WORDS

# The ranking words of :mod:`~copilot_core.language.subjects`, and the ones said only between two named subjects.
UP = SUPERLATIVE_UP | COMPARATIVE_UP | {"above", "exceeds"}
DOWN = SUPERLATIVE_DOWN | COMPARATIVE_DOWN | {"below", "trails"}
BETTER = BEST | BETTER_WORDS | {"wins", "superior", "preferable", "ahead", "edges"}
WORSE = WORST | WORSE_WORDS | {"inferior", "behind"}
# Said of one name against another named in the same sentence ("X is lower than Y"), not of the whole ranking.
PAIRWISE = frozenset({"higher", "more", "larger", "longer", "greater", "above", "exceeds", "lower", "less", "fewer",
                      "smaller", "shorter", "below", "trails", "better", "beats", "outperforms", "worse", "inferior",
                      "superior", "ahead", "behind", "edges"})
_ENDS = (".", "!", "?", ";")
_ROW = WORDS["execution id"]
if not isinstance(_ROW, re.Pattern):
    raise TypeError("the execution id row is a pattern")
_RUN_ID: re.Pattern[str] = _ROW


@dataclass(frozen=True)
class Ranking:
    kind: str  # "chip", "qubit", "task"
    metric: str
    names: tuple[str, ...]  # highest value first
    written: dict[str, tuple[float, ...]]  # each name's values, as its sentence writes them
    higher_is_better: bool
    complete: bool  # every compared name is listed (the low end is known)

    @property
    def best_first(self) -> tuple[str, ...]:
        return self.names if self.higher_is_better else self.names[::-1]

    def value(self, name: str) -> float | None:
        return self.written[name][0] if self.written.get(name) else None


def _numbers(texts: Sequence[object]) -> tuple[float, ...]:
    out = []
    for text in texts:
        for _, _, written, _ in number_spans(str(text)):
            try:
                out.append(written_value(written))
            except ValueError:
                continue
    return tuple(out)


def rankings(results: Iterable[object]) -> list[Ranking]:
    """Every ``ranking`` the turn's tools returned (in their full results)."""
    out = []
    for result in results:
        for part in (getattr(result, "full", None), result if isinstance(result, (dict, str)) else None):
            body = as_object(part)
            found = body.get("ranking") if isinstance(body, dict) else None
            if not isinstance(found, dict) or not isinstance(found.get("names"), list):
                continue
            names = tuple(str(n) for n in found["names"])
            written = found["written"] if isinstance(found.get("written"), dict) else {}
            out.append(Ranking(str(found.get("kind") or ""), str(found.get("metric") or ""), names,
                               {n: _numbers(written.get(n) or []) for n in names},
                               bool(found.get("higher_is_better", True)), bool(found.get("complete", True))))
            break
    return out


def _sentences(text: str) -> list[tuple[int, int]]:
    out, start = [], 0
    for i, ch in enumerate(text):
        end_here = ch == "\n" or (ch in _ENDS and (i + 1 == len(text) or text[i + 1].isspace()))
        if end_here:
            if text[start:i].strip():
                out.append((start, i))
            start = i + 1
    if text[start:].strip():
        out.append((start, len(text)))
    return out


def _named(sentence: str, ranking: Ranking) -> list[tuple[int, int, str]]:
    """``(start, end, name)`` of each ranked name the sentence writes, in order (a qubit by its label or number)."""
    if ranking.kind == "run":  # execution ids, those the ranking does not hold too (a run with no failures)
        return [(m.start(), m.end(), m.group(0)) for m in _RUN_ID.finditer(sentence)]
    if ranking.kind == "coupling":  # by its two qubits, in either direction ("Q04→Q05", "coupling 5-4")
        by_pair = {frozenset(m.subject.split("-")): n for n in ranking.names for m in mentions(n)[:1]}
        return [(m.start, m.end, by_pair[pair]) for m in mentions(sentence)
                if (pair := frozenset(m.subject.split("-"))) in by_pair]
    if ranking.kind == "qubit":
        by_number = {str(int(n.lstrip("Qq"))): n for n in ranking.names if n.lstrip("Qq").isdigit()}
        return [(m.start, m.end, by_number[m.subject]) for m in mentions(sentence) if m.subject in by_number]
    lower = {n.lower(): n for n in ranking.names}
    return [(a, b, lower[w]) for a, b, w in tokens_of(sentence) if w in lower]


def _said_of(sentence: str, named: list[tuple[int, int, str]]) -> tuple[str, str] | None:
    """The comparison word and the name it is said of: the nearest name before it, else the first after it."""
    at = _comparison_at(sentence)
    if at is None:
        return None
    a, word = at
    before = [n for n in named if n[1] <= a]
    after = [n for n in named if n[0] >= a]
    subject = before[-1] if before else after[0] if after else None
    return (word, subject[2]) if subject else None


def _comparison_at(sentence: str) -> tuple[int, str] | None:
    """Where the sentence's first comparison word starts, and the word."""
    return next(((a, word) for a, _, word in tokens_of(sentence) if word in UP | DOWN | BETTER | WORSE), None)


def _right_side(word: str, subject: str, named: list[tuple[int, int, str]], ranking: Ranking,
                against_all: bool = False) -> str | None:
    """The name the data puts at the side ``word`` says ``subject`` is on (None: ``subject`` is right).
    ``against_all``: said against every other ("more than any other task", or "the higher" of two), so it names
    an end."""
    others = [n[2] for n in named if n[2] != subject]
    if word in PAIRWISE and not others and not against_all:  # "higher than the median": against no ranked name
        return None
    if word in PAIRWISE and others:
        order = ranking.names if word in UP | DOWN else ranking.best_first
        rank = {n: i for i, n in enumerate(order)}
        ahead = word in UP or word in BETTER
        mine = rank.get(subject, len(order))  # a name the ranking does not hold is below every one it does
        wrong = [o for o in others if o in rank and (rank[o] < mine if ahead else rank[o] > mine)]
        return wrong[0] if wrong else None
    expected = _expected(word, ranking)
    return expected if expected is not None and expected != subject else None


def _tied(word: str, subject: str, named: list[tuple[int, int, str]], ranking: Ranking, of_two: bool) -> str | None:
    """The name a strict comparison ("more", "better") sets ``subject`` against whose value the data gives as equal
    to ``subject``'s (None: none): a winner said of a tie is wrong, whichever of the two is named."""
    mine = ranking.value(subject)
    if mine is None or not (word in PAIRWISE or of_two):
        return None
    against = [n[2] for n in named if n[2] != subject] or ([n for n in ranking.names if n != subject] if of_two else [])
    return next((o for o in against if ranking.value(o) == mine), None)


def _expected(word: str, ranking: Ranking) -> str | None:
    if word in UP:
        return ranking.names[0]
    if word in BETTER:
        return ranking.best_first[0]
    if not ranking.complete:
        return None
    return ranking.names[-1] if word in DOWN else ranking.best_first[-1]


def _value_order(sentence: str, named: list[tuple[int, int, str]], ranking: Ranking) -> bool:
    """The values written follow the names in the order the sentence writes them."""
    order = list(dict.fromkeys(n[2] for n in named))
    seen: list[str] = []
    for _, _, written, _ in number_spans(names_blanked(sentence)):
        size, places = written_value(written), written_decimals(written)
        owners = [n for n in order if any(states(size, places, v) for v in ranking.written.get(n, ()))]
        if len(owners) != 1:
            continue
        if not seen or seen[-1] != owners[0]:
            seen.append(owners[0])
    return len(seen) == len(set(seen)) and seen == [n for n in order if n in seen]


# Kinds with few names, each value its own: a number said of one of them that is another's value is misattributed.
_FEW = frozenset({"run", "chip", "task"})


def _others_value(sentence: str, named: list[tuple[int, int, str]], ranking: Ranking) -> str | None:
    """A sentence naming one run, chip or task with a value (a count of failures, a chip's median) only another
    ranked name has: that other name, else None."""
    subjects = {n[2] for n in named}
    if ranking.kind not in _FEW or len(subjects) != 1:
        return None
    (subject,) = subjects
    own = ranking.written.get(subject, ())
    for _, end, written, _ in number_spans(names_blanked(sentence)):
        size, places = written_value(written), written_decimals(written)
        # a task's share of the failures, not its count (unless the ranking is by that share: a failure rate)
        share = sentence[end:].lstrip()[:1] == "%" and not ranking.metric.endswith("rate")
        if (places and ranking.kind == "run") or share or any(states(size, places, v) for v in own):
            continue
        owner = next((n for n in ranking.names if n != subject and states(size, places, ranking.value(n) or -1.0)),
                     None)
        if owner is not None:
            return owner
    return None


# Said of two or more names as one: "the same", "equal", "identical" claim their values are equal; "similar",
# "comparable", "close" are a judgement the data cannot settle.
_EQUAL = frozenset({"same", "equal", "equally", "identical", "identically", "tied", "tie"})
_ALIKE = frozenset({"similar", "similarly", "comparable", "alike", "par", "close"})


def _equality(sentence: str, named: list[tuple[int, int, str]], ranking: Ranking) -> tuple[str, str] | None:
    """The verdict on a sentence saying two or more ranked names are equal or alike (None: it says neither): ``ok``
    when their values in the ranking are equal, ``wrong`` when not, ``unchecked`` for "similar"."""
    names = list(dict.fromkeys(n[2] for n in named))
    words = {w for _, _, w in tokens_of(sentence)}
    if len(names) < 2 or not words & (_EQUAL | _ALIKE):
        return None
    if not words & _EQUAL:
        return "unchecked", "how alike two values are is not verified"
    values = {ranking.value(n) for n in names}
    if len(values) == 1 and None not in values:
        return "ok", "the values the data gives are equal"
    return "wrong", (f"the data gives {ranking.metric} different values: "
                     + ", ".join(f"{n} {ranking.value(n):g}" for n in names if ranking.value(n) is not None))


def _claim(text: str, start: int, end: int, sentence: str, verdict: str, reason: str) -> Claim:
    return Claim(text[start:end], sentence, None, None, None, None, None, verdict,  # type: ignore[arg-type]
                 reason, None, start, end)


def order_claims(text: str, results: Iterable[object]) -> list[Claim]:
    """One claim per sentence of ``text`` that names ranked items: ``ok`` or ``wrong`` (with the data's order)."""
    found = rankings(results)
    if not found:
        return []
    out = []
    for s, e in _sentences(text):
        sentence = text[s:e]
        scored = [(len({n[2] for n in named}), ranking, named) for ranking in found
                  if (named := _named(sentence, ranking))]
        if not scored:
            continue
        _, ranking, named = max(scored, key=lambda t: t[0])
        first = named[0]
        at = (s + first[0], s + first[1])
        said = _said_of(sentence, named)
        if said and says_error(sentence) and TURNED.get(said[0]) in UP | DOWN:  # a lower error: a higher fidelity
            said = (TURNED[said[0]], said[1])
        if said is None and (equal := _equality(sentence, named, ranking)) is not None:
            out.append(_claim(text, *at, sentence, *equal))
            continue
        if said and negated(sentence, _comparison_at(sentence)[0]):  # type: ignore[index]
            out.append(_claim(text, *at, sentence, "unchecked", f"a negated comparison ({said[0]}) is not verified"))
            continue
        ranked = rank_word(sentence)
        of_two = len(ranking.names) == 2 and "than" not in {w for _, _, w in tokens_of(sentence)}  # "the higher"
        right = _right_side(said[0], said[1], named, ranking, ranked is not None and ranked.against_all or of_two) \
            if said else None
        if said and right and ranking.value(said[1]) != ranking.value(right):
            out.append(_claim(text, *at, sentence, "wrong",
                              f"by {ranking.metric} the data says {said[0]} of {right}, not of {said[1]}"))
        elif said and (even := _tied(said[0], said[1], named, ranking, of_two)) is not None:
            out.append(_claim(text, *at, sentence, "wrong", f"the data gives {said[1]} and {even} the same "
                                                            f"{ranking.metric} ({ranking.value(even):g})"))
        elif (other := _others_value(sentence, named, ranking)) is not None:
            out.append(_claim(text, *at, sentence, "wrong", f"that value of {ranking.metric} is {other}'s, not "
                                                            f"{first[2]}'s"))
        elif not _value_order(sentence, named, ranking):
            out.append(_claim(text, *at, sentence, "wrong",
                              f"values of {ranking.metric} are put on the wrong names (the data: "
                              + ", ".join(f"{n} {ranking.value(n):g}" for n in ranking.names[:3]
                                          if ranking.value(n) is not None) + ")"))
        elif said or len({n[2] for n in named}) > 1:
            out.append(_claim(text, *at, sentence, "ok", "the order the data gives"))
    return out
