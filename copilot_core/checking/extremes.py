"""Sentences that name a subject as the extreme or compare it, held against what the turn's tools ranked.

A sentence such as "CheckRabi fails most often", "run 20261030-001 had the most failures", "Q04-Q05 is the worst
coupling" or "Q05 beats every other qubit" claims a ranking about a named subject (:mod:`~copilot_core.language.
subjects` reads the subject, of any kind, and the ranking word).  A number in it that the data backs ("12 failed")
does not back the ranking.  The claim is:

- ``ok`` when a tool ranked that kind and puts the subject at the end the word names, or a number of the sentence
  is verified as that subject's lowest or highest value;
- ``wrong`` when a tool ranked that kind and puts another subject there (the answer is then replaced by the tool's
  sentence, with the note, :mod:`~copilot_core.checking.claims`);
- ``unchecked`` otherwise: no tool ranked it, so the sentence carries the visible "not checked" mark
  (:mod:`~copilot_core.checking.marks`).

Sentences the order check (:mod:`~copilot_core.checking.order`) already judged and the tools' own quoted sentences
are left to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from copilot_core.checking.claim_facts import Claim, Fact, Verdict
from copilot_core.checking.matcher import states_written
from copilot_core.checking.order import Ranking, rankings
from copilot_core.language.sentences import sentences
from copilot_core.language.subjects import RankWord, Subject, rank_word, side, subject_key, subjects

NO_RANKING = "no tool ranked what this sentence ranks"


def _kind(ranking: Ranking, name: str) -> str:
    return subject_key(name)[0] or ranking.kind


def _ranked_subject(sentence: str, word: RankWord, known: Sequence[tuple[str, str]]) -> Subject | None:
    """The subject the ranking word is said of: the nearest one before it, else the first after it; a chip only
    when the sentence names nothing else ("on 64Qv3" is where, not what, when a task or qubit is named)."""
    named = subjects(sentence, known)
    if any(n.kind != "chip" for n in named):
        named = [n for n in named if n.kind != "chip"]
    before = [n for n in named if n.end <= word.start]
    after = [n for n in named if n.start >= word.start]
    return before[-1] if before else after[0] if after else None


def _end(word: str, ranking: Ranking) -> str | None:
    """The name the data puts at the end ``word`` points at; None when that end is not known (a list cut short)."""
    order = {"up": ranking.names, "down": ranking.names[::-1], "best": ranking.best_first,
             "worst": ranking.best_first[::-1]}[side(word)]
    if not order:
        return None
    return order[0] if order[0] == ranking.names[0] or ranking.complete else None


def judge_ranking(subject: Subject, word: RankWord, found: Sequence[Ranking]) -> tuple[Verdict, str]:
    """The verdict on "``subject`` is at the end ``word`` names" from the tools' rankings of the subject's kind."""
    if not word.against_all:
        return "unchecked", NO_RANKING  # said against one other subject the order check did not find ranked
    for ranking in found:
        if not any(_kind(ranking, n) == subject.kind for n in ranking.names):
            continue
        expected = _end(word.word, ranking)
        if expected is None:
            continue
        if subject_key(expected)[1] == subject.key:
            return "ok", "the order the data gives"
        same = [n for n in ranking.names if subject_key(n)[1] == subject.key]
        if same and ranking.value(same[0]) is not None and ranking.value(same[0]) == ranking.value(expected):
            return "ok", "tied at that end in the data"
        return "wrong", f"the data puts {expected} at that end ({word.word} {ranking.metric})"
    return "unchecked", NO_RANKING


def _bound(claim: Claim, subject: Subject, facts: Sequence[Fact]) -> bool:
    """A verified lowest or highest value in the sentence is the subject's: a tool gave that value in that role to
    this subject, or only as a statistic of one series (a qubit's lowest T1 over time), never to another subject."""
    if claim.verdict != "ok" or claim.role not in ("min", "max"):
        return False
    held = [f for f in facts if f.role == claim.role and states_written(claim.written, f.value)]
    owners = {f.subject for f in held}
    return subject.key in owners or (bool(held) and owners == {None})


def extreme_claims(text: str, results: Iterable[object], claims: Sequence[Claim], ordered: Sequence[Claim] = (),
                   quoted: Sequence[tuple[int, int]] = (), facts: Sequence[Fact] = ()) -> list[Claim]:
    """One claim per sentence of ``text`` that ranks a named subject and that neither the order check (``ordered``)
    nor a tool's quoted sentence (``quoted``) covers; ``claims``: the verdicts on the answer's numbers, ``facts``: the
    turn's facts (:func:`~copilot_core.checking.claim_facts.tool_facts`)."""
    found = rankings(results)
    known = [(r.kind, n) for r in found for n in r.names]
    out = []
    for s, e in sentences(text):
        if any(a <= s and e <= b for a, b in quoted):
            continue
        if any(s <= c.start < e for c in ordered):
            continue
        inside = [c for c in claims if s <= c.start < e]
        sentence = text[s:e]
        word = rank_word(sentence)
        subject = _ranked_subject(sentence, word, known) if word is not None else None
        if word is None or subject is None:
            continue
        if any(_bound(c, subject, facts) or c.role in ("min", "max") and c.verdict in ("wrong", "unbacked")
               for c in inside):  # verified as the subject's own extreme value, or judged wrong as a value already
            continue
        verdict, reason = judge_ranking(subject, word, found)
        out.append(Claim(sentence[subject.start:subject.end], sentence, None, None, None, None, None, verdict,
                         reason, None, s + subject.start, s + subject.end))
    return out
