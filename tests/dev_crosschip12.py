"""Dev questions for three classes, in wordings of my own, on both demo chips:

1. two chips compared on a statistic other than the median: each chip's best or worst qubit (coupler) — its
   maximum or minimum by the metric's direction ("best" gate time is the shortest) —, the mean, or the count of
   failed tasks (runs) over a window of days; both chips' figures and the winner;
2. metric names written in shorthand, across chips and for two qubits or couplings: "fid", "assignment fid",
   "echo dephasing", "resonator frequency", "ground (excited) state assignment fidelity";
3. (the page's path, ``tests/agent/test_crosschip12_turns.py``) an answer whose every sentence is left out.

``BEFORE`` rows were written before the fix, ``AFTER`` rows after it, to attack it.  Every truth is a hand-written
pymongo read of the raw demo documents (``public_eval.latest_values``: the newest usable value per qubit or
coupling; failures counted in ``task_result_history`` / ``execution_history``) and arithmetic written out here.
Each question carries the router call it needs.
"""

from __future__ import annotations

from datetime import timedelta

from tests.dev_chips10 import failed, last_day
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, tol

CHIPS = (CHIP, OTHER)
Call = tuple[str, dict]
KIND = {"zx90_gate_fidelity": "coupling", "bell_state_fidelity": "coupling", "zx90_gate_time": "coupling"}
# ``latest_values`` scales every metric it does not know as a fraction (x100): undone for ns and GHz
SCALE = {"zx90_gate_time": 0.01, "readout_frequency": 0.01}
# the statistic of each chip's values, written out
STAT = {"max": max, "min": min, "mean": lambda v: sum(v) / len(v),
        "median": lambda v: (sorted(v)[len(v) // 2] + sorted(v)[(len(v) - 1) // 2]) / 2}

# (id, wording, metric, statistic by hand: "best" of a metric where lower is better is its minimum)
ENDS_BEFORE = [
    ("end-1", "Between 64Qv3 and 144Qv2, whose best qubit has the longer T1?", "t1", "max"),
    ("end-2", "Which chip's weakest coupler has the lower ZX90 gate fidelity, 64Qv3 or 144Qv2?",
     "zx90_gate_fidelity", "min"),
    ("end-3", "Which chip has the better top qubit for readout fidelity, 64Qv3 or 144Qv2?",
     "average_readout_fidelity", "max"),
    ("end-4", "worst qubit T1 on 64Qv3 compared with 144Qv2", "t1", "min"),
    ("end-5", "Compare the strongest qubit's T2 echo on each chip", "t2_echo", "max"),
    ("end-6", "Which device has the poorest qubit for X90 fidelity?", "x90_gate_fidelity", "min"),
    ("end-7", "best coupling for ZX90 gate time: 64Qv3 vs 144Qv2", "zx90_gate_time", "min"),
    ("end-8", "Which chip has the qubit with the highest qubit frequency?", "qubit_frequency", "max"),
    ("mean-1", "average T1 of 64Qv3 against 144Qv2: which is longer?", "t1", "mean"),
    ("mean-2", "mean readout fidelity, 64Qv3 versus 144Qv2", "average_readout_fidelity", "mean"),
    ("med-1", "median T2 echo: is 64Qv3 or 144Qv2 ahead?", "t2_echo", "median"),
]
ENDS_AFTER = [
    ("end-9", "On which device is the top-performing qubit's T1 higher?", "t1", "max"),
    ("end-10", "the weakest qubit's readout fid on each chip", "average_readout_fidelity", "min"),
    ("end-11", "64Qv3 or 144Qv2: where is the best coupler's bell fidelity higher?", "bell_state_fidelity", "max"),
    ("end-12", "compare the worst pair's CZ fidelity across the two chips", "zx90_gate_fidelity", "min"),
    ("end-13", "Which chip has the qubit with the shortest T1?", "t1", "min"),
    ("end-14", "worst coupler for gate time, chip by chip", "zx90_gate_time", "max"),
    ("end-15", "lowest T2 echo of any single qubit: 64Qv3 or 144Qv2?", "t2_echo", "min"),
    ("mean-3", "mean x90 fid on each chip", "x90_gate_fidelity", "mean"),
]
# (id, wording, what, days in the window, ending on the newest run's day of either chip)
FAILS_BEFORE = [
    ("fail-1", "Failed tasks over the last two weeks, 64Qv3 vs 144Qv2: which had more?", "failed tasks", 14),
    ("fail-2", "which chip racked up more failed tasks in the past 7 days?", "failed tasks", 7),
    ("fail-3", "failed runs in the last 10 days on 64Qv3 and 144Qv2, which had more?", "failed runs", 10),
]
FAILS_AFTER = [
    ("fail-4", "fewest failed tasks over the past fortnight: 64Qv3 or 144Qv2?", "failed tasks", 14),
    ("fail-5", "Over the last 5 days, did 64Qv3 or 144Qv2 fail more tasks?", "failed tasks", 5),
]
# (id, wording, metric): shorthand across chips, the median of each
SHORT_BEFORE = [
    ("short-1", "compare bell fid between 64Qv3 and 144Qv2", "bell_state_fidelity"),
    ("short-2", "which chip has the higher median zx90 fid, 64Qv3 or 144Qv2", "zx90_gate_fidelity"),
    ("short-3", "assignment fid on 64Qv3 vs 144Qv2", "average_readout_fidelity"),
    ("short-4", "readout assignment fidelity: which is better, 64Qv3 or 144Qv2?", "average_readout_fidelity"),
    ("short-5", "echo dephasing on 64Qv3 vs 144Qv2, which is longer?", "t2_echo"),
    ("short-6", "median resonator frequency of 64Qv3 and 144Qv2", "readout_frequency"),
    ("short-7", "ground state assignment fidelity 64Qv3 versus 144Qv2", "readout_fidelity_0"),
]
SHORT_AFTER = [
    ("short-8", "excited state readout fidelity, 64Qv3 vs 144Qv2", "readout_fidelity_1"),
    ("short-9", "which chip has the better readout resonator freq, 64Qv3 or 144Qv2", "readout_frequency"),
    ("short-10", "measurement fid: 64Qv3 against 144Qv2", "average_readout_fidelity"),
    ("short-11", "compare 2q gate fid on 64Qv3 and 144Qv2", "zx90_gate_fidelity"),
]
# (id, wording, metric, the two qubits or couplings): shorthand for two subjects on 64Qv3
PAIRS = [
    ("pair-1", "compare bell fid of coupling 0-1 and 4-1", "bell_state_fidelity", ("0-1", "4-1")),
    ("pair-2", "zx90 fid of 0-1 vs 0-2", "zx90_gate_fidelity", ("0-1", "0-2")),
    ("pair-3", "assignment fid of Q4 vs Q6", "average_readout_fidelity", ("4", "6")),
    ("pair-4", "resonator frequency, Q2 or Q5: which is higher?", "readout_frequency", ("2", "5")),
    ("pair-5", "ground state assignment fidelity of Q2 and Q5", "readout_fidelity_0", ("2", "5")),
    ("pair-6", "echo dephasing of Q10 against Q12", "t2_echo", ("10", "12")),  # written after the fix
]


def values(db, chip: str, name: str) -> list[float]:
    factor = SCALE.get(name, 1.0)
    return [v * factor for v in latest_values(db, chip, name, KIND.get(name, "qubit")).values() if v is not None]


def _sided(figures: dict[str, float], tolerance: float) -> Truth:
    """Both figures, and the higher one put above the other (the scorer's ``winner`` is the higher side); a tie
    is said as the same figure on both."""
    if figures[CHIP] == figures[OTHER]:
        return Truth(((figures[CHIP], tolerance),), patterns=(r"(?i)\bsame\b",))
    high, low = sorted(figures, key=lambda c: -figures[c])
    return Truth(tuple((figures[c], tolerance) for c in CHIPS), winner=high, loser=low)


def _close(name: str) -> float:
    return 0.51 if name == "zx90_gate_time" else 0.00051 if name == "readout_frequency" else tol(name)


def stat_cases(db, rows) -> list[tuple[Question, Call]]:
    out = []
    for qid, text, name, how in rows:
        figures = {c: STAT[how](values(db, c, name)) for c in CHIPS}
        args = {"metric_name": name, "statistic": how}
        out.append((Question(f"cc12-{qid}", "per chip", text, _sided(figures, _close(name))), ("compare_chips", args)))
    return out


def fail_cases(db, rows) -> list[tuple[Question, Call]]:
    out = []
    end = last_day(db)
    for qid, text, what, days in rows:
        figures = {c: float(failed(db, c, what, end - timedelta(days=days - 1))) for c in CHIPS}
        out.append((Question(f"cc12-{qid}", "per chip", text, _sided(figures, 0)),
                    ("count_in_window", {"what": what, "chip_ids": sorted(CHIPS, key=str.lower), "days": days})))
    return out


def short_cases(db, rows) -> list[tuple[Question, Call]]:
    return stat_cases(db, [(qid, text, name, "median") for qid, text, name in rows])


def pair_cases(db) -> list[tuple[Question, Call]]:
    out = []
    for qid, text, name, (a, b) in PAIRS:
        raw = latest_values(db, CHIP, name, KIND.get(name, "qubit"))
        assert raw[a] is not None and raw[b] is not None and raw[a] != raw[b], (name, a, b)
        x, y = (raw[k] * SCALE.get(name, 1.0) for k in (a, b))
        coupling = "-" in a
        call = ("get_coupling_params", {"chip_id": CHIP, "coupling_ids": [a, b], "param_names": [name]}) if coupling \
            else ("compare_qubits", {"chip_id": CHIP, "qids": sorted((a, b), key=int), "param_names": [name]})
        out.append((Question(f"cc12-{qid}", "two subjects", text,
                             Truth(((x, _close(name)), (y, _close(name))))), call))
    return out


def before(db) -> list[tuple[Question, Call]]:
    return [*stat_cases(db, ENDS_BEFORE), *fail_cases(db, FAILS_BEFORE), *short_cases(db, SHORT_BEFORE)]


def after(db) -> list[tuple[Question, Call]]:
    return [*stat_cases(db, ENDS_AFTER), *fail_cases(db, FAILS_AFTER), *short_cases(db, SHORT_AFTER)]


def cases(db) -> list[tuple[Question, Call]]:
    """Each question with the call its class needs."""
    return [*before(db), *after(db), *pair_cases(db)]


def build(db) -> list[Question]:
    return [q for q, _ in cases(db)]
