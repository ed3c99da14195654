"""Does a qubit review say what is wrong with the qubit, in the report's own words, and nothing more?

A problem of the report (:class:`~copilot_core.review.qubit_facts.Problem`) is named when one sentence of the
review holds all of its subjects (metric titles, the task name), the condition word of its kind ("bad",
"failed", "dropped", "no valid value"/"no data") not negated, and, for a coupling's problem, the qubit at the
other end.  "Problems" without the band, or one metric of two, does not name it.  A clause that gives a metric,
task or coupling a condition the report does not list for it, or any condition at all to a qubit the report
lists none for, invents a problem.
"""

from __future__ import annotations

import re

from copilot_core.language.question import qubits_in
from copilot_core.language.answer_words import closing
from copilot_core.language.question_words import Phrases, Row, tokens_of
from copilot_core.language.sentences import sentences as sentence_spans
from copilot_core.language.sentences import written_alone
from copilot_core.review.qubit_facts import Problem, ProblemKind, problems
from copilot_core.analysis.health import HealthReport
from copilot_core.domain.metrics import CATALOGUE, SCORED_COUPLING_METRICS, metric

_BAD = Phrases("bad")
FAILED = Phrases("fail/failed/fails/failing/failure/failures")
MISSING = Phrases("no valid value|no data|missing")
_CONDITION: dict[ProblemKind, Row] = {
    "bad": _BAD,
    "coupling": _BAD,
    "failed": FAILED,
    "drop": Phrases("drop/dropped/drops/dropping"),
    "missing": Phrases("no valid value*|no data"),
}
_CLAIM: dict[ProblemKind, Row] = {  # wider: what a clause may claim (poor, missing) is checked too
    **_CONDITION,
    "bad": Phrases("bad/poor"),
    "missing": MISSING,
}
_VAGUE = Phrases("problem/problems|issue/issues|wrong with")
_NEGATION = Phrases("not|never|no longer|nothing|none|no")
_NONE = re.compile(r"(?<![a-z])problems? of [^:.]{1,20}:\s*none", re.I)
_JOINS = Phrases("and|but|while|whereas")
_TASK = re.compile(r"(?<![A-Za-z0-9])[A-Z][a-z]+(?:[A-Z0-9][A-Za-z0-9]*)+(?![A-Za-z0-9])")
_TITLES = sorted({e.title for e in CATALOGUE.values()} | {metric(n, kind="coupling").title
                                                         for n in SCORED_COUPLING_METRICS}, key=len, reverse=True)
_COUPLING = re.compile(r"(?<![a-z])coupling|" + "|".join(re.escape(metric(n, kind="coupling").title.split()[0])
                                                        for n in SCORED_COUPLING_METRICS), re.I)


def _title_pattern(title: str) -> re.Pattern[str]:
    """The title as written, "gate" optional ("ZX90 fidelity"), not inside a longer word."""
    body = ""
    words = title.split()
    for i, word in enumerate(words):
        if word.lower() == "gate":
            body += r"(?:gate\s+)?"
        else:
            body += re.escape(word) + (r"\s+" if i < len(words) - 1 else "")
    return re.compile(rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9*])", re.I)


_PATTERNS = {t: _title_pattern(t) for t in _TITLES}


def _titles_in(text: str) -> set[str]:
    """Metric titles the text names, longest first so "T1 (average)" is not also "T1"."""
    found = set()
    for title in _TITLES:
        if _PATTERNS[title].search(text):
            found.add(title)
            text = _PATTERNS[title].sub(" ", text)
    return found


def _says(rule: Row, text: str) -> bool:
    """``rule`` occurs in ``text`` at least once without a negation right before it."""
    starts = [s for s, _ in rule.find(text)] if isinstance(rule, Phrases) else [m.start() for m in rule.finditer(text)]
    return any(not _negated(text[:s]) for s in starts)


def _negated(before: str) -> bool:
    """``before`` ends with a negation and spaces, maybe one more word between ("is not", "isn't really")."""
    tokens = tokens_of(before)
    ends = [before] + ([before[:tokens[-1][0]]]
                              if tokens and before[-1:].isspace() and not before[tokens[-1][1]:].strip() else [])
    return any(end[-1:].isspace() and (closing(_NEGATION, end) is not None or end.rstrip().lower().endswith("n't"))
               for end in ends)


def _names(problem: Problem, sentence: str) -> bool:
    titles = _titles_in(sentence)
    for subject in problem.subjects:
        if subject in _PATTERNS:
            if subject not in titles:
                return False
        elif not written_alone(subject, sentence):
            return False
    if problem.partner is not None and int(problem.partner) not in qubits_in(sentence):
        return False
    return _says(_CONDITION[problem.kind], sentence)


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)]


def unnamed(text: str, report: HealthReport) -> list[Problem]:
    """The report's problems no sentence of ``text`` names (see the module docstring), in the report's order."""
    parts = sentences(text)
    return [p for p in problems(report) if not any(_names(p, s) for s in parts)]


def _clause_claims(clause: str, found: list[Problem]) -> str | None:
    """What this clause claims that ``found`` (the report's problems) does not hold, or None."""
    titles = _titles_in(clause)
    coupling_titles = {metric(n, kind="coupling").title for n in SCORED_COUPLING_METRICS}
    on_coupling = bool(_COUPLING.search(clause))
    for kind, pattern in _CLAIM.items():
        if kind == "coupling" or not _says(pattern, clause):
            continue
        if kind == "bad" and on_coupling:
            partners = qubits_in(clause)
            bad = [p for p in found if p.kind == "coupling"
                   and (not partners or p.partner is not None and int(p.partner) in partners)]
            if not bad:
                return "it called a coupling bad; the report does not"
            continue
        for title in (titles - coupling_titles) if kind != "failed" else ():  # a metric does not fail
            if not any(p.kind == kind and title in p.subjects for p in found):
                return f"it said {title} {_WORD[kind]}; the report does not"
        if kind == "failed":
            tasks = {t for t in _TASK.findall(clause) if t not in _PATTERNS}
            for task in tasks:
                if not any(p.kind == "failed" and task in p.subjects for p in found):
                    return f"it said {task} failed; the report does not"
    return None


_WORD: dict[ProblemKind, str] = {"bad": "is bad", "coupling": "is bad", "failed": "failed", "drop": "dropped",
                                 "missing": "has no valid value"}


def _clauses(sentence: str) -> list[str]:
    """The sentence cut at commas, semicolons and "and", "but", "while", "whereas"."""
    cuts = sorted([*_JOINS.find(sentence), *((i, i + 1) for i, c in enumerate(sentence) if c in ",;")])
    starts = [0, *(end for _, end in cuts)]
    return [sentence[a:b] for a, b in zip(starts, [*(start for start, _ in cuts), len(sentence)], strict=True)]


def invented(line: str, report: HealthReport) -> str | None:
    """Why ``line`` claims a problem the report does not list, or None."""
    found = problems(report)
    if not found and any(_says(p, _NONE.sub(" ", line)) for p in (*_CLAIM.values(), _VAGUE)):
        return f"it named a problem of {report.label}; the report lists none"
    for sentence in sentences(line):
        for clause in _clauses(sentence):
            why = _clause_claims(clause, found)
            if why:
                return why
    return None
