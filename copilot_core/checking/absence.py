"""A value said not to exist ("Q05 has no T1 data", "T2 echo is not available for Q05", "Q05's T1 has not been
measured"), held against the values the turn's tools returned.

The number check reads digits, so a sentence that says a value is missing states no number and passed unmarked
while the tools held that very value.  A sentence that names one metric, a qubit or coupling (or the question's only
one) and says its value is absent is:

- ``wrong`` when a tool returned that metric's value for that subject: the tools' sentences replace it;
- ``ok`` when a tool read that subject's values and none of them is of that metric;
- ``unchecked`` when no tool read that subject: the sentence carries the visible "not checked" mark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from copilot_core.checking.claim_facts import Claim, Fact, Verdict, canonical_subject, tool_facts
from copilot_core.domain.vocabulary import NUMBER_WORDS, metrics_named
from copilot_core.language.question import mentions
from copilot_core.language.question_words import tokens_of
from copilot_core.language.sentences import own_sentences
from copilot_core.domain.display import unit_suffix

# Words that say a value is absent on their own, and the words that do after a negation ("not", "no", "never").
_ABSENT = frozenset({"unavailable", "missing", "absent", "lacks", "lacking"})
_NEGATED = ("availab", "measur", "record", "found", "calibrat", "data", "value", "result", "reading", "stored",
            "report", "exist", "present", "known", "entr", "number")
_NEGATIONS = frozenset({"not", "no", "never", "without", "nothing", "none"})
# A value's own roles: a stated value of the subject is no absence.
_VALUE_ROLES = frozenset({"value", "latest", "min", "max", "median", "mean"})


def _absent_at(sentence: str) -> tuple[int, int] | None:
    """Where the sentence says a value is absent: "missing", "unavailable", "not available", "no … data"."""
    tokens = tokens_of(sentence)
    for i, (start, end, word) in enumerate(tokens):
        if word in _ABSENT:
            return start, end
        if word in _NEGATIONS or word == "t" and sentence[start - 1:start] in "'’":  # "couldn't", "isn’t"
            rest = [w for _, _, w in tokens[i + 1:i + 6]]
            if any(w.startswith(_NEGATED) for w in rest):
                return start, end
    return None


def says_absent(sentence: str) -> bool:
    """Whether the sentence says a value or subject is absent ("there is no coupling 3-9", "Q70 is missing")."""
    return _absent_at(sentence) is not None


def read_subjects(results: Sequence[object]) -> dict[str, frozenset[str] | None]:
    """The qubits and couplings each successful call of the turn read, with the metrics it was limited to (None:
    every metric it has); a call that read a subject and returned no value of a metric found none."""
    out: dict[str, frozenset[str] | None] = {}
    for result in results:
        args = getattr(result, "args", None)
        if not getattr(result, "ok", False) or not isinstance(args, dict):
            continue
        names = args.get("param_names")
        limited = frozenset(str(n) for n in names) if isinstance(names, list) and names else None
        for key in ("qid", "coupling_id"):
            if isinstance(args.get(key), (str, int)) and (subject := canonical_subject(args[key])) is not None:
                before = out.get(subject, frozenset())
                out[subject] = None if limited is None or before is None else before | limited
    return out


def _chip_wide(sentence: str, at: tuple[int, int], named: Sequence[str], facts: Sequence[Fact]) -> Claim | None:
    """A sentence naming no qubit or coupling that says the data is absent ("there is no data for that", "no
    couplings have Bell state fidelity data") while the tools returned values of its metric (of any metric when it
    names none) over the chip: wrong.  One that counts the missing ("3 qubits have no T1 value") is a count's, and
    none is judged when the tools themselves counted some missing."""
    if len(set(named)) > 1 or any(w.isdigit() or w in NUMBER_WORDS for _, _, w in tokens_of(sentence)) or \
            any(f.qualifier == "missing" and f.value for f in facts):
        return None
    held = [f for f in facts if f.metric is not None and (not named or f.metric == named[0])]
    if not held:
        return None
    reason = f"the tools returned values of {held[0].metric} over the chip: they are in the data"
    return Claim(sentence[at[0]:at[1]], sentence, None, held[0].metric, None, "missing", None, "wrong", reason, None,
                 at[0], at[1])


def absence_claims(text: str, facts: Sequence[Fact], quoted: Sequence[tuple[int, int]] = (),
                   asked: Sequence[str] = (), read: Mapping[str, frozenset[str] | None] | None = None) -> list[Claim]:
    """One claim per sentence of ``text`` that says one metric's value of one subject is absent.  ``asked``: the
    qubits and couplings the question names (the subject of a sentence that names none); ``read``: what the turn's
    calls read (:func:`read_subjects`)."""
    out = []
    reads = read or {}
    for s, e in own_sentences(text, quoted):
        sentence = text[s:e]
        at = _absent_at(sentence)
        named = [m for m in metrics_named(sentence) if m is not None]
        if at is None:
            continue
        subjects = list(dict.fromkeys(m.subject for m in mentions(sentence))) or list(asked)
        if not subjects and (chip_wide := _chip_wide(sentence, at, named, facts)) is not None:
            out.append(replace(chip_wide, start=s + at[0], end=s + at[1]))
        if len(set(named)) != 1 or len(subjects) != 1:
            continue
        name, subject = named[0], subjects[0]
        held = [f for f in facts if f.subject == subject and f.metric == name and f.role in _VALUE_ROLES]
        verdict: Verdict
        if held:
            said = f"{held[0].value:.4g}{unit_suffix(held[0].unit or '')}"
            verdict, reason = "wrong", f"{held[0].describe()} is {said}: it is in the data"
        elif subject in reads and (reads[subject] is None or name in (reads[subject] or ())):
            verdict, reason = "ok", f"the tools read {subject} and hold no {name} for it"
        else:
            verdict, reason = "unchecked", f"no tool read {name} of {subject}"
        out.append(Claim(sentence[at[0]:at[1]], sentence, None, name, subject, "missing", None,
                         verdict, reason, None, s + at[0], s + at[1]))
    return out


def unread_absences(text: str, results: Sequence[object], asked: Sequence[str] = (),
                    facts: Sequence[Fact] | None = None) -> list[str]:
    """The subjects ``text`` says a value of is absent that no call of the turn read: what to read before judging
    (``facts``: those of ``results``, when the caller already built them)."""
    held = tool_facts(list(results)) if facts is None else facts
    claims = absence_claims(text, held, (), asked, read_subjects(results))
    return list(dict.fromkeys(c.subject for c in claims if c.verdict == "unchecked" and c.subject))
