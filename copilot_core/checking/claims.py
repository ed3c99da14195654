"""Whether each number in an answer says what the tool results say: the value, its role and its qubit.

:mod:`~copilot_core.checking.grounding` asks "does this number appear in some tool result?"; a small model passes that
while quoting the median as the lowest value, a count of qubits *with* data as the count *below* a threshold, or a
value next to a qubit that does not hold it.  Here every numeric field of the tool results becomes a :class:`Fact`
(its value in display units, its role: min, max, median, mean, latest, count, total, threshold or a qubit's value,
the metric and the qubit or coupling it belongs to), and every number in the answer a :class:`Claim` read from the
words of its clause (lowest, highest, median, average, latest, how many, below/above, a band word, the qubit or
coupling named next to it).  A claim is *wrong* when no fact has its value in the role, metric and subject the
words give it, or when a band word or a below/above comparison disagrees with the value.

The facts are :mod:`~copilot_core.checking.claim_facts`', the reading of the answer
:mod:`~copilot_core.checking.claim_reading`', the verdict on each number :mod:`~copilot_core.checking.claim_judge`'s.

Public entry points (also used by the qubit-analysis mode):

- :func:`check_claims` ``(answer_text, tool_results, *, question="") -> ClaimReport``;
- :func:`repair_answer` ``(answer_text, report, fallback) -> Repair``: the answer with wrong numbers corrected from
  the data, or replaced by ``fallback`` (the deterministic answer) when a claim cannot be corrected in place, and
  the note that tells the person which happened.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from copilot_core.checking.absence import absence_claims, read_subjects
from copilot_core.checking.claim_facts import SHAPE_ROLES, Claim, Fact, as_object, canonical_subject, chip_size, tool_facts
from copilot_core.checking.claim_judge import judge
from copilot_core.checking.claim_reading import Reading, read_numbers, subject_for
from copilot_core.checking.error_reading import ErrorRead, error_read
from copilot_core.checking.extremes import extreme_claims
from copilot_core.checking.grounding import source_values
from copilot_core.checking.matcher import written_value
from copilot_core.checking.order import order_claims
from copilot_core.checking.none_counts import none_claims, share_claims
from copilot_core.checking.relation import relation_claims
from copilot_core.language.question import parse
from copilot_core.language.sentences import sentences


@dataclass(frozen=True)
class ClaimReport:
    """Every checked number of an answer (in order) and the verdicts."""

    claims: tuple[Claim, ...] = ()

    @property
    def wrong(self) -> list[Claim]:
        return [c for c in self.claims if c.verdict == "wrong"]

    @property
    def unbacked(self) -> list[Claim]:
        return [c for c in self.claims if c.verdict == "unbacked"]

    @property
    def ok(self) -> bool:
        """True when no claim is wrong and every number is backed."""
        return not self.wrong and not self.unbacked


# What a correction note vouches for, so it never reads as endorsing the sentences around the corrected number.
CHECK_SCOPE = ("The check verifies only numbers, rankings and counts; other sentences are the model's words, not "
               "checked.")


@dataclass(frozen=True)
class Repair:
    """What the person is shown: ``text``, and ``action`` with its ``note`` (empty when the answer was kept)."""

    text: str
    action: Literal["kept", "corrected", "replaced"]
    note: str = ""
    report: ClaimReport = field(default_factory=ClaimReport)


# The note under an answer the check replaced by the tools' own sentences, whatever check replaced it.
REPLACED = "The model's answer was replaced by one computed from the tool results, because {why}."


def _answer_sentence(result: object) -> str:
    """A tool's own ``answer`` sentence (its numbers back a claim the check has no role for)."""
    for part in (getattr(result, "model_text", None), getattr(result, "full", None)):
        body = as_object(part)
        if isinstance(body, dict) and isinstance(body.get("answer"), str):
            return body["answer"]
    return ""


def check_claims(answer_text: str, tool_results: Iterable[object], *, question: str = "") -> ClaimReport:
    """Judge every number of ``answer_text`` against ``tool_results`` (result dicts, their JSON text, or
    ``ToolOutcome`` objects).  Numbers the ``question`` itself states are accepted as thresholds or counts."""
    results = list(tool_results)
    facts = tool_facts(results)
    asked = parse(question)
    user_values = [written_value(w) for w in asked.values]
    loose = source_values([getattr(r, "summary", None) or "" for r in results] + [_answer_sentence(r) for r in results]
                          + [r for r in results if isinstance(r, str)])
    read = error_read(answer_text or "")  # "error below 4%": the fidelity above 96% the tools filtered on
    readings, mentions = read_numbers(read.text)
    if bare := bare_pairs(read.text, facts, mentions):  # "4-6 has 97.8%" in a turn about couplings
        mentions = sorted([*mentions, *bare])
        readings = [r for r in readings if not any(s <= r.start < e for s, e, _ in bare)]
    stated = asked.stated_counts
    paired = respective_subjects(read.text, readings, mentions)
    claims = [_placed(judge(r, paired.get(r.start) or subject_for(r, mentions, read.text), facts, user_values, loose,
                            stated), read) for r in readings]
    quoted = quoted_spans(answer_text or "", [_answer_sentence(r) for r in results])
    claims = [_as_quoted(c) if c.verdict != "ok" and any(a <= c.start and c.end <= b for a, b in quoted) else c
              for c in claims]
    ordered = order_claims(answer_text or "", results)
    return ClaimReport(tuple(claims) + tuple(ordered)
                       + tuple(extreme_claims(answer_text or "", results, claims, ordered, quoted, facts,
                                                asked.qubits))
                       + tuple(relation_claims(answer_text or "", facts, quoted))
                       + tuple(none_claims(answer_text or "", facts, quoted))
                       + tuple(share_claims(answer_text or "", facts, quoted))
                       + tuple(absence_claims(answer_text or "", facts, quoted, (*asked.qubits, *asked.couplings),
                                                    read_subjects(results))))


_PAIR_EDGES = ".,;:!?()[]*_`'\"%"


def bare_pairs(answer_text: str, facts: Sequence[Fact], mentions: Sequence[tuple[int, int, str]]
               ) -> list[tuple[int, int, str]]:
    """Couplings written as bare pairs ("4-6", "12→13") in a turn whose tools returned couplings: names, so their
    digits are no value, and the subject of the values next to them (a date or an id is never two ends on a chip)."""
    size = chip_size(facts)
    if size is None or not any(f.subject and "-" in f.subject for f in facts):
        return []
    out: list[tuple[int, int, str]] = []
    at = 0
    for word in answer_text.split():
        start = answer_text.index(word, at)
        at = start + len(word)
        core = word.strip(_PAIR_EDGES)
        begin = start + word.index(core) if core else start
        subject = canonical_subject(core) if core[:1].isdigit() else None
        if subject is None or "-" not in subject or any(m[0] < begin + len(core) and begin < m[1] for m in mentions):
            continue
        if all(int(end) < size for end in subject.split("-")):
            out.append((begin, begin + len(core), subject))
    return out


_IN_TURN = ("respectively", "in that order", "in the same order")


def respective_subjects(answer_text: str, readings: Sequence[Reading], mentions: Sequence[tuple[int, int, str]]
                        ) -> dict[int, str]:
    """Where a sentence names its subjects, then their values "respectively" ("Q59, Q49 and Q27, with 21.7, 25.5
    and 26.7 μs respectively"): each value's subject, by place (keyed by where the value starts)."""
    out: dict[int, str] = {}
    for start, end in sentences(answer_text):
        if not any(words in answer_text[start:end].lower() for words in _IN_TURN):
            continue
        named = [m[2] for m in mentions if start <= m[0] < end]
        values = [r for r in readings if start <= r.start < end and not r.derived]
        if len(named) > 1 and len(named) == len(values) and all(m[1] <= values[0].start for m in mentions
                                                                if start <= m[0] < end):
            out.update({r.start: subject for r, subject in zip(values, named)})
    return out


def quoted_spans(answer_text: str, sentences: Iterable[str]) -> list[tuple[int, int]]:
    """Where ``answer_text`` quotes a tool's own answer sentence word for word: the whole sentence, or one of its
    parts between ". " and "; " (a part with a number and a word of its own).  The tool computed every number of it
    from the data with the words around it, so the check never strikes or "corrects" it."""
    spans: list[tuple[int, int]] = []
    for sentence in sentences:
        parts = {sentence.strip(), *(q.strip() for p in sentence.split("; ") for q in p.split(". "))}
        for part in parts:
            if len(part) < 12 or not any(c.isdigit() for c in part) or not any(c.isalpha() for c in part):
                continue
            at = answer_text.find(part)
            while at >= 0:
                spans.append((at, at + len(part)))
                at = answer_text.find(part, at + 1)
    return spans



def _placed(claim: Claim, read: ErrorRead) -> Claim:
    """A claim read on the fidelity's wording, placed where it stands in the answer."""
    if not read.moved:
        return claim
    start, end = read.place(claim.start, claim.end)
    return replace(claim, start=start, end=end)


def _as_quoted(claim: Claim) -> Claim:
    return replace(claim, verdict="ok", reason="the tool's own sentence, quoted", correction=None)


def _note_claim(claim: Claim) -> str:
    """A wrong claim for the visible note: the check's own reason (numbers and metric names), never the model's
    words, so a note cannot be steered into quoting or endorsing a planted sentence."""
    return claim.reason


def repair_answer(answer_text: str, report: ClaimReport, fallback: str | None) -> Repair:
    """The answer to show: unchanged when no claim is wrong; wrong numbers replaced in place when the data gives
    each one its right value; otherwise ``fallback`` (the deterministic answer).  The note says which."""
    wrong = report.wrong
    if not wrong:
        return Repair(answer_text, "kept", report=report)
    if all(c.correction is not None and c.role in ("min", "max", "median", "mean", "latest", "count", "change",
                                                   *SHAPE_ROLES) for c in wrong):
        text = answer_text
        for c in sorted(wrong, key=lambda c: c.start, reverse=True):
            text = text[:c.start] + str(c.correction) + text[c.end:]
        fixes = "; ".join(f"{c.written} → {c.correction} ({c.reason})" for c in wrong)
        return Repair(text, "corrected", f"Corrected from the data: {fixes}. {CHECK_SCOPE}", report)
    reasons = "; ".join(_note_claim(c) for c in wrong[:3])
    if fallback:
        return Repair(fallback, "replaced", REPLACED.format(why=f"the data does not support it: {reasons}"), report)
    # no answer to replace it with: the unsupported sentences are left out where they stand (checking/marks.py)
    return Repair(answer_text, "kept", "", report)
