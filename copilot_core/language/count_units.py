"""What a count of failures counts (its unit) and whether it asks a count or a share, read from word rows.

A question about failures counts one of several things, each another number: the failed task results (one a task
run on a qubit or coupling), the runs (executions) that held at least one failed result, the runs whose own status
is failed, or the distinct qubits, couplings or tasks that failed.  "How many runs had a failed task" is no count of
failed results, and "what share of runs" is no count at all: :class:`Counted` carries the unit and the count/share
choice on the parsed question, so the router and the checks read one field instead of re-reading the words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from copilot_core.language.phrases import Phrases, Row, tokens_of

_RUNS = "run/runs/execution/executions/batch/batches/job/jobs"
_HOLD = ("had/has/have/having/with/contain/contains/contained/containing/hold/holds/held/holding/include/includes"
         "/included/including/saw/see/sees/showed/show/shows/logged/log/hit/reported/where/featured")
_RESULTS = "task/tasks/result/results/step/steps/calibration/calibrations/check/checks/experiment/experiments"

COUNT_WORDS: dict[str, Row] = {
    # runs that held at least one failed task result ("runs with a failure", "executions where a task failed")
    "runs with failures": Phrases(f"{_RUNS} ... {_HOLD} ... fail*/error/errors/errored"
                                  f"|{_RUNS} in which ... fail*/error/errors/errored"
                                  f"|{_RUNS} that/which? failed/fail at? least? a/any/one? one? {_RESULTS}"
                                  f"|{_RUNS} were/was affected/touched/hit by ... fail*/error/errors"
                                  f"|in how many {_RUNS} did/was/were ... fail*/error/errors"
                                  f"|{_RUNS} were/was not clean|clean/failure free/error free {_RUNS}"),
    # failed over every one, not a count
    "share words": Phrases("share|percent|percentage|proportion|fraction|ratio|rate|one in how many|how often"
                           "|what part/portion|out of all/every|per cent"),
    # distinct subjects counted ("how many qubits had a failure"), not their failed results
    "counted qubits": Phrases("how many different/distinct/unique/individual? qubits/qbs/qids"
                              "|number/count of different/distinct/unique/individual? qubits/qbs/qids"),
    "counted couplings": Phrases("how many different/distinct/unique/individual? couplings/couplers/pairs/edges"
                                 "|number/count of different/distinct/unique/individual? couplings/couplers/pairs"),
    "counted tasks": Phrases("how many different/distinct/unique kinds/types? of? tasks/task names"
                             "|number/count of different/distinct/unique tasks/task names"),
    "counted runs": Phrases(f"how many calibration? {_RUNS}|number/count of {_RUNS}"
                            f"|in how many {_RUNS}|share/percent/percentage/proportion/fraction of calibration? {_RUNS}"
                            f"|one in how many {_RUNS}|{_RUNS} out of|out of all/every the? calibration? {_RUNS}"),
}

Unit = Literal["task results", "runs with failures", "failed runs", "qubits", "couplings", "tasks"]

_SUBJECTS: tuple[tuple[str, Unit], ...] = (("counted qubits", "qubits"), ("counted couplings", "couplings"),
                                           ("counted tasks", "tasks"))


@dataclass(frozen=True)
class Counted:
    """What a question about failures counts: ``unit`` (failed task results, runs holding a failed result, runs
    whose status is failed, distinct qubits/couplings/tasks) and ``share`` (failed over every one, not a count)."""

    unit: Unit
    share: bool


def counted_unit(found: Mapping[str, str]) -> Counted | None:
    """The unit a question about failures counts in, from its rows (``found``: row -> its first match); None when
    it is about no failure.  Runs named with a holding word ("runs that had a failed task") count runs holding a
    failure; runs counted with "failed" alone count runs whose status is failed; a distinct-subject count its
    subjects; else failed task results."""
    if "fail" not in found and "runs with failures" not in found and "fails most" not in found:
        return None
    share = "share words" in found or "rate words" in found
    if "runs with failures" in found:
        return Counted("runs with failures", share)
    for row, unit in _SUBJECTS:
        if row in found:
            return Counted(unit, share)
    if "counted runs" in found and "tasks" not in found:
        return Counted("failed runs", share)
    return Counted("task results", share)


CountNoun = Literal["runs", "task results", "qubits"]
_RUN_NOUNS = frozenset(_RUNS.split("/"))
_RESULT_NOUNS = frozenset({"task", "tasks", "result", "results"})
# words that may stand between a number and what it counts ("13 failed calibration runs", "4 of the executions")
_BETWEEN = frozenset({"failed", "failing", "erroring", "errored", "of", "the", "calibration", "distinct", "different",
                      "separate", "individual", "such", "more", "other", "finished"})


def noun_counted(after: str) -> CountNoun | None:
    """What a whole number in an answer says it counts, by the noun right after it: ``runs`` ("13 runs", "4 of
    the executions"), ``task results`` ("13 failed tasks"); None for any other noun ("13 failures", "13 qubits")."""
    for _, _, word in tokens_of(after[:60])[:5]:
        if word in _RUN_NOUNS:
            return "runs"
        if word in _RESULT_NOUNS:
            return "task results"
        if word not in _BETWEEN:
            return None
    return None


def count_noun_of(what: object, counted: object = None) -> CountNoun | None:
    """What a ``count_in_window`` result with ``what`` counts: runs (executions) or task results, or qubits when it
    says it ``counted`` the distinct qubits its results fall on; None for measurements and notes."""
    if counted == "qubits":
        return "qubits"
    if what in ("runs", "failed runs", "runs with failures"):
        return "runs"
    return "task results" if what in ("failed tasks", "task results", "excluded tasks", "usable tasks",
                                      "completed tasks") else None
