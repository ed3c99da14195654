"""Dev questions, in wordings of my own, for filters whose conditions were lost before a tool was called: values
written in words ("between forty and sixty microseconds", "above forty-five", "ninety five percent", "three hundred
nanoseconds"); comparison words "beyond", "exceeds", "sits above", "lies below", "longer than", "shorter than",
"at least", "no more than", "≥", "≤"; a percent limit beside an abbreviated metric ("assignment fid > 96 percent",
"bell fid exceeds ninety-five percent", "CZ fid"); "ground-state readout fidelity" (readout_fidelity_0), "echo
dephasing" (t2_echo), "Ramsey dephasing" (t2_star); "qbs" / "qb" for qubits; and shares asked over one side of a limit
("what share of qubits have T1 above 50 us", of couplings too).

Truths are the hand-written pymongo reads of :mod:`tests.dev_compound8` (newest completed, non-excluded value per
subject, 0 or NaN missing); every limit below is written out by hand.  ``share`` marks a question that asks for a
share: the answer states the percentage of those with a value.  ``AFTER`` holds the wordings written after the fix,
to attack it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.dev_compound8 import FRACTIONS, GT, MISSING, RO, T1, T2, T2S, X90, ZX, Test, _c, _f, subjects
from tests.dev_compound8 import Case as _Case
from tests.public_eval import CHIP, OTHER

RO0, BELL = "readout_fidelity_0", "bell_state_fidelity"
SHOWN_IN_PERCENT = FRACTIONS | {RO0, BELL}  # stored 0-1, shown in %


def latest(db, chip: str, name: str, kind: str) -> dict[str, float | None]:
    """Subject id (a coupling as "a-b", a < b) -> its newest completed, non-excluded value in display units; None
    when that value is 0 or NaN (written here again for the two fidelities :mod:`tests.dev_compound8` does not
    scale)."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "task_type": kind, "status": "completed",
                                               "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        key = "-".join(sorted(doc["qid"].split("-"), key=int)) if kind == "coupling" else doc["qid"]
        if key not in newest or doc["start_at"] > newest[key]["start_at"]:
            newest[key] = doc
    out: dict[str, float | None] = {}
    for key, doc in newest.items():
        raw = doc["output_parameters"][name]["value"]
        usable = isinstance(raw, (int, float)) and not isinstance(raw, bool) and math.isfinite(raw) and raw != 0
        out[key] = raw * (100.0 if name in SHOWN_IN_PERCENT else 1.0) if usable else None
    return out


def truth(db, case: _Case) -> set[str]:
    """The subjects meeting every condition of ``case`` (each judged where the subject has a value)."""
    values = {name: latest(db, case.chip, name, case.kind) for name, _ in case.tests}
    out = set()
    for s in subjects(db, case.chip, case.kind):
        verdicts = [(values[n].get(s) is None) if t == MISSING else None if values[n].get(s) is None
                    else bool(t(values[n][s])) for n, t in case.tests]  # type: ignore[operator]
        if None not in verdicts and all(verdicts):
            out.add(s)
    return out


def judged(db, case: _Case) -> int:
    """How many subjects have a value of every metric of ``case`` (a share's denominator)."""
    values = [latest(db, case.chip, n, case.kind) for n, _ in case.tests]
    return sum(1 for s in subjects(db, case.chip, case.kind) if all(v.get(s) is not None for v in values))


@dataclass(frozen=True)
class Case(_Case):
    count: bool = False  # the question asks how many
    share: bool = False  # the question asks what share


def _one(metric: str, **sides) -> tuple[str, dict]:
    return "filter_metric", {"metric_name": metric, **sides}


def _q(cid: str, text: str, tests: tuple[tuple[str, Test], ...], call: tuple[str, dict], *, chip: str = CHIP,
       kind: str = "qubit", join: str = "and", count: bool = False, share: bool = False) -> Case:
    return Case(cid, text, chip, kind, join, tests, call, count, share)


BEFORE: tuple[Case, ...] = (
    _q("c12-words-range", "Which qubits have T1 between forty and sixty microseconds and T2 echo above thirty "
       "microseconds?", ((T1, lambda v: 40 < v < 60), (T2, lambda v: v > 30)),
       _f("and", _c(T1, above=40), _c(T1, below=60), _c(T2, above=30))),
    _q("c12-hyphen", "how many qubits have T1 above forty-five us and readout fidelity above ninety percent",
       ((T1, lambda v: v > 45), (RO, lambda v: v > 90)), _f("and", _c(T1, above=45), _c(RO, above=90)), count=True),
    _q("c12-bare-words", "qubits with T1 above forty, T2 echo above thirty and X90 fidelity above 99.5%",
       ((T1, lambda v: v > 40), (T2, lambda v: v > 30), (X90, lambda v: v > 99.5)),
       _f("and", _c(T1, above=40), _c(T2, above=30), _c(X90, above=99.5))),
    _q("c12-beyond", "Which qubits have T1 beyond 50 us and T2 echo beyond 30 us?",
       ((T1, lambda v: v > 50), (T2, lambda v: v > 30)), _f("and", _c(T1, above=50), _c(T2, above=30))),
    _q("c12-exceeds-sits", "Which qubits' T1 exceeds 45 us while T2 echo sits above 30 us?",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 30)), _f("and", _c(T1, above=45), _c(T2, above=30))),
    _q("c12-lies", "Which qubits have a T2 echo that lies below 30 us and T1 above 40 us?",
       ((T2, lambda v: v < 30), (T1, lambda v: v > 40)), _f("and", _c(T2, below=30), _c(T1, above=40))),
    _q("c12-longer-shorter", "Which qubits have T1 longer than 50 us and T2 echo shorter than 40 us?",
       ((T1, lambda v: v > 50), (T2, lambda v: v < 40)), _f("and", _c(T1, above=50), _c(T2, below=40))),
    _q("c12-atleast-nomore", "Which qubits have T1 of at least 45 us and readout fidelity no more than 93%?",
       ((T1, lambda v: v >= 45), (RO, lambda v: v <= 93)),
       _f("and", _c(T1, above=45, including=["above"]), _c(RO, below=93, including=["below"]))),
    _q("c12-signs", "qubits with T1 ≥ 50 us and T2 echo ≤ 40 us",
       ((T1, lambda v: v >= 50), (T2, lambda v: v <= 40)),
       _f("and", _c(T1, above=50, including=["above"]), _c(T2, below=40, including=["below"]))),
    _q("c12-assign-fid", "which qubits have assignment fid > 96 percent and T1 above 40 us",
       ((RO, lambda v: v > 96), (T1, lambda v: v > 40)), _f("and", _c(RO, above=96), _c(T1, above=40))),
    _q("c12-ground", "Which qubits have ground-state readout fidelity above 97% and T1 above 40 us?",
       ((RO0, lambda v: v > 97), (T1, lambda v: v > 40)), _f("and", _c(RO0, above=97), _c(T1, above=40))),
    _q("c12-echo-deph", "Which qubits have echo dephasing above 35 us and T1 above 45 us?",
       ((T2, lambda v: v > 35), (T1, lambda v: v > 45)), _f("and", _c(T2, above=35), _c(T1, above=45))),
    _q("c12-ramsey-deph", "Which qubits have Ramsey dephasing above twenty us and T1 above 40 us",
       ((T2S, lambda v: v > 20), (T1, lambda v: v > 40)), _f("and", _c(T2S, above=20), _c(T1, above=40))),
    _q("c12-qbs", "which qbs have T1 above 50 us and T2 echo above 40 us",
       ((T1, lambda v: v > 50), (T2, lambda v: v > 40)), _f("and", _c(T1, above=50), _c(T2, above=40))),
    _q("c12-qb-count", "how many qb have T1 above fifty us and T2 echo above forty us",
       ((T1, lambda v: v > 50), (T2, lambda v: v > 40)), _f("and", _c(T1, above=50), _c(T2, above=40)), count=True),
    _q("c12-cz-words", "couplings whose CZ fidelity exceeds ninety-five percent and gate time lies below 300 ns",
       ((ZX, lambda v: v > 95), (GT, lambda v: v < 300)), _f("and", _c(ZX, above=95), _c(GT, below=300)),
       kind="coupling"),
    _q("c12-share-above", "What share of qubits have T1 above 50 us?", ((T1, lambda v: v > 50),),
       _one(T1, above=50), share=True),
    _q("c12-share-words", "what percentage of qubits have T2 echo beyond forty microseconds",
       ((T2, lambda v: v > 40),), _one(T2, above=40), share=True),
    _q("c12-share-cz", "What fraction of couplings have CZ fidelity above 96%?", ((ZX, lambda v: v > 96),),
       _one(ZX, above=96), kind="coupling", share=True),
    _q("c12-other-words", "On 144Qv2, which qubits have T1 between thirty and fifty us but readout fidelity above "
       "ninety-two percent?", ((T1, lambda v: 30 < v < 50), (RO, lambda v: v > 92)),
       _f("and", _c(T1, above=30), _c(T1, below=50), _c(RO, above=92)), chip=OTHER),
)

AFTER: tuple[Case, ...] = (  # written after the fix, to attack it
    _q("c12a-ninety-five", "Which qubits have readout fidelity exceeding ninety five percent and T1 longer than "
       "thirty-five microseconds?", ((RO, lambda v: v > 95), (T1, lambda v: v > 35)),
       _f("and", _c(RO, above=95), _c(T1, above=35))),
    _q("c12a-hundreds", "which couplings have a gate time shorter than two hundred seventy nanoseconds and CZ fid "
       "beyond ninety-six percent", ((GT, lambda v: v < 270), (ZX, lambda v: v > 96)),
       _f("and", _c(GT, below=270), _c(ZX, above=96)), kind="coupling"),
    _q("c12a-point", "qubits whose X90 fid is at least ninety-nine point five percent and whose T1 exceeds forty us",
       ((X90, lambda v: v >= 99.5), (T1, lambda v: v > 40)),
       _f("and", _c(X90, above=99.5, including=["above"]), _c(T1, above=40))),
    _q("c12a-count-beyond", "Count the qbs whose T2 echo lies beyond 35 us and whose T1 sits below sixty us.",
       ((T2, lambda v: v > 35), (T1, lambda v: v < 60)), _f("and", _c(T2, above=35), _c(T1, below=60)), count=True),
    _q("c12a-ground-words", "how many qubits have a ground state readout fid above ninety-six percent while T2 echo "
       "is no more than forty us", ((RO0, lambda v: v > 96), (T2, lambda v: v <= 40)),
       _f("and", _c(RO0, above=96), _c(T2, below=40, including=["below"])), count=True),
    _q("c12a-echo-ramsey", "Which qubits have echo dephasing longer than forty us and Ramsey dephasing shorter than "
       "thirty us?", ((T2, lambda v: v > 40), (T2S, lambda v: v < 30)),
       _f("and", _c(T2, above=40), _c(T2S, below=30))),
    _q("c12a-geq-words", "qubits with T1 ≥ forty-five us plus readout fidelity ≤ ninety-four percent",
       ((T1, lambda v: v >= 45), (RO, lambda v: v <= 94)),
       _f("and", _c(T1, above=45, including=["above"]), _c(RO, below=94, including=["below"]))),
    _q("c12a-share-hyphen", "What percent of qubits have a T1 that exceeds fifty-five microseconds?",
       ((T1, lambda v: v > 55),), _one(T1, above=55), share=True),
    _q("c12a-share-below", "what share of the qubits sit below twenty-five us in T2 echo?",
       ((T2, lambda v: v < 25),), _one(T2, below=25), share=True),
    _q("c12a-share-bell", "What proportion of couplings have a bell fid exceeding ninety-three percent?",
       ((BELL, lambda v: v > 93),), _one(BELL, above=93), kind="coupling", share=True),
    _q("c12a-other-count", "On 144Qv2 how many qubits have T1 beyond forty-five us and T2 echo beyond thirty-five us?",
       ((T1, lambda v: v > 45), (T2, lambda v: v > 35)), _f("and", _c(T1, above=45), _c(T2, above=35)),
       chip=OTHER, count=True),
    _q("c12a-other-share", "On 144Qv2, what share of qubits have T1 above sixty us?", ((T1, lambda v: v > 60),),
       _one(T1, above=60), chip=OTHER, share=True),
)

CASES: tuple[Case, ...] = BEFORE + AFTER
