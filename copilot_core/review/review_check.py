"""Check a model's qubit review against the qubit's health report before it is shown.

The report is the ground truth.  A review that names a qubit the report does not (not the qubit itself, a
neighbour or a coupling partner), another chip, or talks about the chip as a whole is not about the qubit: it
is replaced by the report's summary line.  In a review about the qubit, a line is dropped when it writes a
number or a date the report's facts do not hold (allowing for rounding), gives a metric a band the report
does not give it, says a task failed when none did, or names a problem the report does not list
(:mod:`~copilot_core.review.review_problems`).  What survives is shown; if nothing does, the summary line stands
in.  When the check cannot tell, the line goes: a review may say less, never something false.  Then every
problem the report lists that the shown text does not name in the report's words (left out, or named vaguely) is
added in the report's own sentence, and the review says the check added it.
"""

from __future__ import annotations

from dataclasses import replace

from copilot_core.agent.contracts import ReviewCheck
from copilot_core.checking.matcher import states_written
from copilot_core.review.qubit_facts import problem_lines
from copilot_core.language.question import blank, names_blanked, qubits_in
from copilot_core.language.question_words import CHIP_ID, Phrases
from copilot_core.language.sentences import written_alone
from copilot_core.language.dates import DATES
from copilot_core.language.forms import Found, found
from copilot_core.language.numbers import PLAIN_NUMBERS
from copilot_core.review.review_problems import FAILED, MISSING, invented, unnamed
from copilot_core.analysis.health import HealthReport
from copilot_core.domain.metrics import CATALOGUE, SCORED_COUPLING_METRICS, metric

_COUPLING_TITLES = tuple(metric(n, kind="coupling").title for n in SCORED_COUPLING_METRICS)

_CHIP_TALK = Phrases("chip wide|whole chip|entire chip|across the chip|the/this? chip/chips s? median/mean/average"
                     "/summary/overall/health|all the? qubits|every qubit|other qubits|most qubits|many qubits")
_BANDS = {"bad": "bad", "poor": "bad", "fair": "fair", "good": "good", "excellent": "excellent"}
_BAND_WORD = Phrases("/".join(_BANDS))
_HEALTHY = Phrases("healthy|nothing stands out|no problem/problems|nothing is wrong")
_NOT_HEALTHY = Phrases("not healthy|unhealthy|un healthy")
_GATE_NAMES = Phrases("t1|t2|x90|x180|zx90|cz")  # names, their digits are no value




def _metric_names(report: HealthReport) -> dict[str, str]:
    """Lower-case titles (longest first, so "t2 echo" wins over "t2") -> parameter name of the report's metrics."""
    titles = {CATALOGUE[m.name].title.lower(): m.name for m in report.metrics if m.name in CATALOGUE}
    return dict(sorted(titles.items(), key=lambda item: -len(item[0])))


def _allowed_qubits(report: HealthReport) -> set[int]:
    ends = {int(report.qid), *(int(n) for n in report.neighbours)}
    ends |= {int(c.partner) for c in report.couplings if c.partner.isdigit()}
    ends |= {int(e) for f in report.failures for e in f.target.split("-") if e.isdigit()}
    return ends


def _off_topic(text: str, report: HealthReport) -> str | None:
    """Why the review is not about this qubit, or None."""
    others = sorted(qubits_in(text) - _allowed_qubits(report))
    if others:
        return f"it named another qubit, not {report.label}"
    chips = {c for c in CHIP_ID.findall(text) if "-" not in c and c.lower() != report.chip_id.lower()}
    if chips:
        return "it named another chip"
    if _CHIP_TALK.search(text):
        return f"it talked about the chip, not {report.label}"
    return None


def _plain_numbers(text: str) -> list[str]:
    return [m.text for m in found(PLAIN_NUMBERS, text, "plain")]


def without_dates(line: str, dates: list[Found]) -> str:
    """``line`` with each date replaced by one space."""
    parts, at = [], 0
    for date in dates:
        parts += [line[at:date.start], " "]
        at = date.end
    return "".join([*parts, line[at:]])


def _backed(written: str, facts: list[str]) -> bool:
    """``written`` states some number of the facts (:mod:`~copilot_core.checking.matcher`)."""
    return any(states_written(written, float(f)) for f in facts)


def _line_problem(line: str, report: HealthReport, facts_text: str, fact_numbers: list[str]) -> str | None:
    """Why this line of the review cannot be shown, or None."""
    dates = found(DATES, line, "iso_minute")
    for date in dates:
        if date.text not in facts_text:
            return f"the date {date.text} is not in the report"
    bare = names_blanked(without_dates(line, dates))
    bare = blank(bare, _GATE_NAMES.find(bare))
    for number in _plain_numbers(bare):
        if not _backed(number, fact_numbers):
            return f"the number {number} is not in the report"
    lower = line.lower()
    named = [name for title, name in _metric_names(report).items()
             if written_alone(title, lower)]
    if "coupling" in lower or any(t.lower() in lower for t in _COUPLING_TITLES):
        named = []  # a coupling's band is not the qubit metric's band
    bands = {_BANDS[line[s:e].lower()] for s, e in _BAND_WORD.find(line)}
    if len(named) == 1 and len(bands) == 1:
        check = next(m for m in report.metrics if m.name == named[0])
        band = next(iter(bands))
        if check.band is not None and band != check.band:
            return f"it called {check.title} {band}; the report says {check.band}"
    if _HEALTHY.search(line) and not _NOT_HEALTHY.search(line) and (
            report.verdict == "bad" or problem_lines(report)):
        return f"it called {report.label} healthy; the report lists problems"
    if FAILED.search(line) and not report.failures and not MISSING.search(line) \
            and not any(m.missing for m in report.metrics):
        return "it reported a failure; the report has none"
    return invented(line, report)


def _completed(check: ReviewCheck, report: HealthReport) -> ReviewCheck:
    """``check`` plus the report's line for every problem its text does not name, and a reason that says so."""
    added = tuple(p.line for p in unnamed(check.text or "", report))
    if not added:
        return check
    note = f"the check added {len(added)} problem(s) from the report that the review did not name"
    return replace(check, added=added, reason=f"{check.reason.rstrip('.')}; {note}" if check.reason else note)


def check_review(text: str | None, report: HealthReport, facts_text: str, summary: str) -> ReviewCheck:
    """The review as it may be shown (see the module docstring); ``summary`` replaces an unusable one."""
    if text is None or not text.strip():
        return ReviewCheck(None, "missing", "the model wrote nothing")
    return _completed(_checked(text, report, facts_text, summary), report)


def _checked(text: str, report: HealthReport, facts_text: str, summary: str) -> ReviewCheck:
    problem = _off_topic(text, report)
    if problem:
        return ReviewCheck(summary, "replaced", f"the model's review was replaced by the report's summary: {problem}")
    fact_numbers = _plain_numbers(facts_text)
    kept, dropped = [], []
    for line in text.strip().splitlines():
        why = _line_problem(line, report, facts_text, fact_numbers) if line.strip() else None
        if why:
            dropped.append(why)
        else:
            kept.append(line)
    if not dropped:
        return ReviewCheck(text.strip(), "checked")
    if not any(line.strip() for line in kept):
        return ReviewCheck(summary, "replaced", "the model's review was replaced by the report's summary: the "
                           "report does not back it", tuple(dropped))
    return ReviewCheck("\n".join(kept).strip(), "trimmed",
                       f"{len(dropped)} line(s) of the review were left out: the report does not back them",
                       tuple(dropped))
