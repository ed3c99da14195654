"""The words of a question about failures: which task, qubit, coupling, run or chip fails most, of which family
of tasks, by count or by rate, within which run.

Rows of :data:`~copilot_core.language.question_words.WORDS` (added there), and :func:`ranks_failures`: a question
that holds a failure word and a ranking word near it ("which task tops the failure list", "the greatest number of
failures", "more failures than any other run") asks which subject fails most, whatever its exact phrase; a ranking
word of recency ("the most recent run", "at most") ranks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_core.language.phrases import Phrases, Row

_TASKS = ("task/tasks/calibration/calibrations/experiment/experiments/measurement/measurements/check/checks"
          "/routine/routines/step/steps")
_RUNS = "run/runs/execution/executions/batch/batches/job/jobs/session/sessions"  # a calibration run, however named
_DISTINCT = "distinct/different/unique/individual/separate qubits/couplings/pairs/tasks/runs/executions"
_NEAR = 6  # tokens between a ranking word and the failure word it ranks

FAILURE_WORDS: dict[str, Row] = {
    "fails most": Phrases("fail*/error*/break*/broke most|most fail*/error*|most often fail*|fail* more often"
                          "|most failures/errors|most failed|most frequently fail*|fail* most frequently"
                          "|most often error*/break*|error*/break* most often"
                          "|fail* the most|highest failure/failures"
                          "|failure/failures ... most/top/highest|most task/tasks fail*"
                          "|highest/largest/biggest number/count of fail*"
                          "|highest/largest/biggest/greatest failure/fail count/tally"
                          "|least reliable|most unreliable|worst/poorest/lowest reliability|break* down most"
                          "|least/lowest/worst/poorest success/pass/completion rate|worst/poorest failure/error rate"
                          "|most troublesome|most problematic|most trouble"
                          "|highest/largest/biggest/greatest/worst percentage/proportion/share/fraction/ratio of fail*"
                          "|worst * for fail*/error/errors|keep/keeps fail*|fail* repeatedly/consistently|by fail*"
                          f"|fail* * most often/frequently|went/go/goes the? worst|worst calibration? {_RUNS}"
                          "|by number/count of fail*|fail*/error/errors per/by qubit/coupling/pair/run/task/execution/step"
                          "|error*/fail*/break* out/up the? most/more|trip*/tripped up the? most"
                          "|keep/keeps breaking/erroring"
                          "|least dependable|most undependable|flakiest|most flaky"
                          "|worst/poorest/weakest/shakiest/spottiest/patchiest/bad/poor track record"),
    "by coupling": Phrases("which/what #/two/three/four/five/six/seven/eight/nine/ten? qubit? coupling/couplings/pair"
                           "/pairs/edge/edges/coupler/couplers"
                           "|which/what two/2? qubit? link/links/pairing/pairings"
                           "|which/what connection/connections|two qubits ... together|fail* together"
                           "|which/what #/two? qubits ... together"
                           "|which/what cz/zx90/cr coupling/couplings/pair/pairs/edge/edges|pair/pairs of qubits"
                           "|qubit pair/pairs fail*|coupling/couplings/edge/edges fail*|per/by coupling/pair/edge"
                           "|which of the/our/these? couplings/pairs/edges|worst/top/rank coupling/couplings/pairs"
                           "|couplings/pairs by|coupling/couplings/pairs/edges that/which/with"
                           "|reliable/unreliable/troublesome/problematic/failing coupling/couplings/pair/pairs"
                           "|which/what single/one/individual/particular coupling/coupler/pair/edge"
                           "|worst/top/single coupler/couplers/pair/pairs/edge/edges"),
    "by qubit": Phrases("which #/two/three/four/five/six/seven/eight/nine/ten? qubit/qubits/qb/qbs"
                        "|which of the/our/these? qubits/qbs|worst/top/rank qubit/qubits|qubits by"
                        "|qubit/qubits fail*|qubit/qubits has/have/had the? most|qubit/qubits that/which/with"
                        "|per/by qubit|reliable/unreliable/troublesome/problematic/failing qubit/qubits"
                        "|qid/qids|which/what single/one/individual/particular qubit|worst/top *? qubit"),
    "by run": Phrases(f"which/what calibration? {_RUNS}|per/by/each run/execution/batch/job"
                      f"|which of the/our/these? calibration? {_RUNS}|worst/top/rank calibration? {_RUNS}"
                      f"|{_RUNS} has/have/had/by/that/which/with"
                      f"|failing {_RUNS}|which/what *? {_RUNS}|of all/every the/our? calibration? {_RUNS}"
                      f"|among all? the/our? calibration? {_RUNS}"
                      "|single/individual/particular/one run/execution/batch/job|run/execution id/ids"),
    "by chip": Phrases("which/what chip/chips/device/devices/processor/processors|which of the/our two? chips/devices"
                       "|per/by chip"),
    # qubits the chip marks inactive (QDash's qubit ``status``), left out of a ranking when the question says so
    "active only": Phrases("skip*/ignor*/exclud*/without/except/omit*/drop*/minus/besides ... inactive/dead/disabled"
                           "/offline|leav* out ... inactive/dead/disabled/offline|not counting ... inactive/dead"
                           "/disabled/offline|only the? active/live/alive/working/enabled/operational qubits?/ones?"
                           "|active/live/alive/working/enabled/operational qubits/ones only|non inactive/dead/disabled"),
    # a family of tasks the ranking is narrowed to (domain/task_families.py): "the coupling tasks", "1Q calibrations"
    "coupling tasks": Phrases(f"coupling/couplings/coupler/couplers/cz/zx90/cr/bell/entangling {_TASKS}"
                              f"|two/2 qubit gate? {_TASKS}|2q gate? {_TASKS}|{_TASKS} on/of/for the? couplings/pairs"
                              "|two/2 qubit ones|coupling ones"),
    "qubit tasks": Phrases(f"single/one/1 qubit gate? {_TASKS}|1q gate? {_TASKS}|single/one/1 qubit ones"
                           f"|{_TASKS} on/of/for single qubits"),
    "readout tasks": Phrases(f"readout/resonator related? {_TASKS}|readout/resonator related? ones"
                             f"|{_TASKS} of/for the? readout/resonator/resonators"),
    # the kind of subject a count of failures is of ("how many coupler calibrations failed"): a coupling's id joins two
    "coupling kind": Phrases("coupling/couplings/coupler/couplers/edge/edges/cz/zx90|two/2 qubit|2q"
                             "|qubit pair/pairs|pair/pairs of qubits"),
    "qubit kind": Phrases("qubit/qubits/qb/qbs|1q"),
    # a failure rate (failed results over finished ones), not a count; and subjects that never failed
    "rate words": Phrases("rate/rates|ratio|relative to|relatively|proportion/share/fraction/percentage/percent"
                          "|per attempt/try|out of ... attempts/tries/runs/results|normali*"
                          "|for how often|given how often|how often it/they/each/one run/runs/ran"
                          "|how often it/they/each/one is/are/was/were/gets/get/got run/tried/attempted"),
    # each one's slice of all failures (its failures over every failure: the count ranking's share), not a rate
    "share of failures": Phrases("share/proportion/fraction/portion/part of the/all/total? failures/fails/errors"
                                 "|share/proportion/fraction/portion/part of the/all failed task? results"
                                 "|percentage/percent of the/all failures/errors"),
    "never fails": Phrases("never fail*|never had a/any? fail*/error/errors|haven/hasn t ever? failed|not failed once"
                           "|not once failed|zero failures|without a/any? failure/failures|always succeed*/pass*/complete*"
                           "|no failure/failures at all"),
    # a count of the distinct subjects that failed, not of the failed results ("how many different qubits failed")
    "distinct count": Phrases(f"how many {_DISTINCT}|number of {_DISTINCT}|count of {_DISTINCT}"
                              "|how many the? qubits/couplings/pairs|number of qubits/couplings/pairs"),
    # one run the ranking is narrowed to, named by its place ("in the latest run"); an id is the parse's own field
    "latest run": Phrases("latest/last/newest/final/current calibration? run/execution/batch/job"
                          "|most? recent calibration? run/execution/batch/job|today/tonight s run/execution/batch/job"
                          "|this morning/afternoon/evening s run/execution/batch/job"
                          "|during/in/within the latest/last/newest calibration"),
    # the run before the newest ("the previous run", "the run before that"): the second newest of the chip
    "previous run": Phrases("previous/prior/preceding/penultimate calibration? run/execution/batch/job"
                            "|second/2nd latest/last/newest run/execution/batch/job"
                            "|second/2nd most recent run/execution/batch/job"
                            "|one/run/execution/batch/job before that/this/it"
                            "|one/run/execution/batch/job before the latest/last/newest/most/current"
                            "|run/execution/batch/job just before"),
    # a run named by its day ("yesterday's run"): the day's window, no subject ranked
    "day run": Phrases("yesterday/yesterdays s? run/execution/batch/job"),
    # the compound reading (:func:`ranks_failures`): a failure word, a ranking word, and what is not a ranking
    "failure words": Phrases("fail*|error/errors|erroring|errored|break/breaks|breaking|broke|broken|trouble"
                             "|troublesome|flaky|flakey|flakier|flakiest|unreliable|undependable|problematic|trip/trips"
                             "|tripped|crash*|blew/blow/blows/blown up|culprit/culprits|offender/offenders"),
    "top words": Phrases("most|top|tops|greatest|highest|largest|biggest|worst|leading|maximum|max|number one"
                         "|chief|main|primary|principal|foremost|hardest|heaviest|ringleader|leader|leads"
                         "|more *? than any/every/all other*|more *? than the others|most common/commonly"
                         "|outnumber/outnumbers/outnumbered|outnumbering|exceed/exceeds any/every/all other*"),
    "not a ranking": Phrases("most/more recent/recently/latest/newest|at most|most of"
                             "|main/chief/primary/principal reason/reasons/cause/causes/why"),
}


def _spans(row: Row, tokens: Sequence[tuple[int, int, str]]) -> list[tuple[int, int]]:
    return row.spans(tokens) if isinstance(row, Phrases) else []


def ranks_failures(tokens: Sequence[tuple[int, int, str]]) -> tuple[int, int] | None:
    """The token span of a ranking word within :data:`_NEAR` tokens of a failure word, a recency ("most recent")
    or a bound ("at most") left out; None when there is none."""
    failing = _spans(FAILURE_WORDS["failure words"], tokens)
    not_ranking = {i for a, b in _spans(FAILURE_WORDS["not a ranking"], tokens) for i in range(a, b)}
    for a, b in _spans(FAILURE_WORDS["top words"], tokens):
        if a in not_ranking:
            continue
        if any(abs(fa - a) <= _NEAR or abs(fb - b) <= _NEAR for fa, fb in failing):
            return a, b
    return None
