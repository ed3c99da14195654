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

from dataclasses import dataclass

from copilot_core.checking.claim_facts import Claim, Fact, Verdict, as_object
from copilot_core.checking.matcher import states_written
from copilot_core.checking.negation import negated
from copilot_core.checking.order import Ranking, rankings
from copilot_core.language.error_words import as_fidelity, turned_side
from copilot_core.language.sentences import own_sentences
from copilot_core.domain.metrics import CATALOGUE, metric
from copilot_core.domain.vocabulary import metrics_named
from copilot_core.language.subjects import RankWord, Subject, rank_word, side, subject_key, subjects

NO_RANKING = "no tool ranked what this sentence ranks"


@dataclass(frozen=True)
class End:
    """A subject the data puts at one end of a ranking: "up" (most, highest), "down", "best" or "worst"."""

    side: str
    kind: str
    key: str
    name: str  # as the tool wrote it
    metric: str


def _end(names: Sequence[str], side_: str, kind: str, metric_: str) -> End | None:
    """The first of ``names``, ordered from the ``side_`` end, as that end."""
    if not names:
        return None
    found_kind, key = subject_key(names[0])
    return End(side_, found_kind or kind, key, names[0], metric_)


def _ranking_ends(ranking: Ranking) -> list[End]:
    """A tool's ``ranking`` (highest first): its top end always, its bottom end when every name is listed."""
    ends = [(ranking.names, "up"), (ranking.best_first, "best")]
    if ranking.complete:
        ends += [(ranking.names[::-1], "down"), (ranking.best_first[::-1], "worst")]
    elif not ranking.higher_is_better:  # the most is the worst (failures): that end is listed
        ends.append((ranking.names, "worst"))
    return [e for names, side_ in ends if (e := _end(names, side_, ranking.kind, ranking.metric))]


def _list_ends(body: dict) -> list[End]:
    """A ``lowest`` or ``highest`` list of a metric (``rank_metric``): its first item is that end."""
    name = body.get("metric") or body.get("metric_name")
    if not isinstance(name, str) or name not in CATALOGUE:
        return []
    higher = metric(name).higher_is_better
    out = []
    for key, side_ in (("highest", "up"), ("lowest", "down")):
        rows = body.get(key)
        if isinstance(rows, list) and rows and isinstance(rows[0], dict) and rows[0].get("label") is not None:
            label = str(rows[0]["label"])
            good = "best" if (side_ == "up") == higher else "worst"
            out += [e for s in (side_, good) if (e := _end([label], s, "", name))]
    return out


def data_ends(results: Iterable[object]) -> list[End]:
    """Every end a tool of the turn ranked: its ``ranking`` and its lowest/highest lists."""
    results = list(results)
    out = [e for r in rankings(results) for e in _ranking_ends(r)]
    for result in results:
        body = as_object(getattr(result, "full", None)) if not isinstance(result, (dict, str)) else as_object(result)
        if isinstance(body, dict):
            out += _list_ends(body)
    return out


def _ranked_subject(sentence: str, word: RankWord, known: Sequence[tuple[str, str]]) -> Subject | None:
    """The subject the ranking word is said of: the nearest one before it, else the first after it; a chip only
    when the sentence names nothing else ("on 64Qv3" is where, not what, when a task or qubit is named)."""
    named = subjects(sentence, known)
    if any(n.kind != "chip" for n in named):
        named = [n for n in named if n.kind != "chip"]
    before = [n for n in named if n.end <= word.start]
    after = [n for n in named if n.start >= word.start]
    return before[-1] if before else after[0] if after else None


def judge_ranking(subject: Subject, word: RankWord, sentence: str, ends: Sequence[End],
                  scope: Sequence[str] = ()) -> tuple[Verdict, str]:
    """The verdict on "``subject`` is at the end ``word`` names" from the ends the tools ranked of its kind (of the
    metric the sentence names, when it names one).  ``scope``: the qubits the question names; an end that does not
    involve them ranks more than was asked about, so it cannot make the claim wrong."""
    if not word.against_all:
        return "unchecked", NO_RANKING  # said against one other subject the order check did not find ranked
    found = [e for e in ends if e.kind == subject.kind and e.side == turned_side(side(word.word), sentence)]
    named = {m for m in metrics_named(as_fidelity(sentence)[0]) if m is not None}  # "the lowest CZ error": its fidelity
    if named:
        found = [e for e in found if e.metric in named]
    if not found or (not named and len({e.metric for e in found}) > 1):
        return "unchecked", NO_RANKING
    if any(e.key == subject.key for e in found):
        return "ok", "the order the data gives"
    if scope and not all(set(scope) & set(e.key.split("-")) for e in found):
        return "unchecked", NO_RANKING  # asked about one qubit's couplings: a chip-wide end is not that end
    return "wrong", f"the data puts {found[0].name} at that end ({word.word} {found[0].metric})"


def _owners(claim: Claim, facts: Sequence[Fact]) -> set[str | None] | None:
    """Whose lowest or highest value a verified number of the sentence is (None in the set: a statistic of one
    series, such as a qubit's lowest T1 over time); None when it is no verified lowest or highest value."""
    if claim.verdict != "ok" or claim.role not in ("min", "max"):
        return None
    return {f.subject for f in facts if f.role == claim.role and states_written(claim.written, f.value)} or None


def extreme_claims(text: str, results: Iterable[object], claims: Sequence[Claim], ordered: Sequence[Claim] = (),
                   quoted: Sequence[tuple[int, int]] = (), facts: Sequence[Fact] = (),
                   scope: Sequence[str] = ()) -> list[Claim]:
    """One claim per sentence of ``text`` that ranks a named subject and that neither the order check (``ordered``)
    nor a tool's quoted sentence (``quoted``) covers; ``claims``: the verdicts on the answer's numbers, ``facts``: the
    turn's facts (:func:`~copilot_core.checking.claim_facts.tool_facts`); ``scope``: the qubits the question names."""
    results = list(results)
    found = rankings(results)
    ends = data_ends(results)
    known = [(r.kind, n) for r in found for n in r.names]
    out = []
    for s, e in own_sentences(text, quoted):
        if any(s <= c.start < e for c in ordered):
            continue
        inside = [c for c in claims if s <= c.start < e]
        sentence = text[s:e]
        word = rank_word(sentence)
        subject = _ranked_subject(sentence, word, known) if word is not None else None
        if word is None or subject is None:
            continue
        owners = [o for c in inside if (o := _owners(c, facts)) is not None]
        if {None} in owners or any(c.role in ("min", "max") and c.verdict in ("wrong", "unbacked") for c in inside):
            continue  # the extreme of one series (not a ranking of subjects), or a value already judged wrong
        negation = negated(sentence, word.start)
        unchecked: tuple[Verdict, str] = ("unchecked", f"a negated ranking ({word.word}) is not verified")
        verdict, reason = unchecked if negation else judge_ranking(subject, word, sentence, ends, scope)
        if verdict == "unchecked" and not negation and any(subject.key in o for o in owners):
            continue  # no tool ranked it, but the number is the subject's own lowest or highest value
        out.append(Claim(sentence[subject.start:subject.end], sentence, None, None, None, None, None, verdict,
                         reason, None, s + subject.start, s + subject.end))
    return out
