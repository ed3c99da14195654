"""The dev eval: questions lab staff ask, in 14 shapes, with truths computed here from the raw demo documents.

Nothing here calls the tools or the repository: each truth is a pymongo query on ``task_result_history``,
``qubit``, ``execution_history`` written for this file, with the thresholds written out by hand.  Every question here
is *dev*: all of them have been seen while the copilot was tuned.  The held-out questions are in ``tests/sealed``
(other templates, written later, never read by product code); ``passed`` scores an answer with
``tests/eval_score.py`` (a value counts only in the sentence that claims it).
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass, field

from tests import eval_score
from tests.eval_score import Truth

CHIP = "64Qv3"
OTHER = "144Qv2"
TITLES = {"t1": "T1", "t2_echo": "T2 echo", "x90_gate_fidelity": "X90 gate fidelity",
          "average_readout_fidelity": "readout fidelity", "zx90_gate_fidelity": "ZX90 gate fidelity",
          "bell_state_fidelity": "Bell state fidelity", "qubit_frequency": "qubit frequency"}
SCALE = {"t1": 1.0, "t2_echo": 1.0, "qubit_frequency": 1.0}  # everything else: a fraction shown in %
UNIT_TOL = {"t1": 0.051, "t2_echo": 0.051, "qubit_frequency": 0.00006}  # display rounding; % values: 0.0051
T1_BANDS = ((100.0, "excellent"), (50.0, "good"), (20.0, "fair"))  # written out: t1 >= 100 excellent, ...
WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
TREND_WORDS = {"up": ("up", "increas", "rising", "rose"), "down": ("down", "decreas", "drop", "falling", "fell"),
               "stable": ("stable", "flat", "steady")}


@dataclass(frozen=True)
class Question:
    id: str
    shape: str
    text: str = field(repr=False)  # a sealed question's words never reach a test report
    truth: Truth = field(default_factory=Truth, repr=False)
    fresh: bool = False  # written after the first local-model runs (still seen since: dev)
    split: str = "dev"  # "held-out" only for the sealed questions of ``tests/sealed``


def scale(name: str) -> float:
    return SCALE.get(name, 100.0)


def tol(name: str) -> float:
    return UNIT_TOL.get(name, 0.0051)


def _usable(raw: object) -> bool:
    return isinstance(raw, (int, float)) and math.isfinite(raw) and raw != 0


_LATEST: dict[tuple[int, str, str, str], dict[str, float | None]] = {}


def latest_values(db, chip: str, name: str, kind: str = "qubit") -> dict[str, float | None]:
    """Newest completed, non-excluded result per stored id; None when its value is NaN or QDash's 0."""
    key = (id(db), chip, name, kind)
    if key not in _LATEST:
        _LATEST[key] = _latest_values(db, chip, name, kind)
    return _LATEST[key]


def _latest_values(db, chip: str, name: str, kind: str) -> dict[str, float | None]:
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "status": "completed", "task_type": kind,
                                               "excluded": {"$ne": True}, f"output_parameters.{name}":
                                               {"$exists": True}}):
        if doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]:
            newest[doc["qid"]] = doc
    return {q: (d["output_parameters"][name]["value"] * scale(name)
                if _usable(d["output_parameters"][name]["value"]) else None) for q, d in newest.items()}


def history(db, chip: str, qid: str, name: str) -> list[dict]:
    """Usable completed, non-excluded results of one qubit, newest first."""
    docs = [d for d in db["task_result_history"].find({"chip_id": chip, "qid": qid, "status": "completed",
                                                       "excluded": {"$ne": True},
                                                       f"output_parameters.{name}": {"$exists": True}})
            if _usable(d["output_parameters"][name]["value"])]
    return sorted(docs, key=lambda d: d["start_at"], reverse=True)


def merged(db, chip: str, qid: str, name: str) -> dict | None:
    doc = db["qubit"].find_one({"chip_id": chip, "qid": qid})
    param = ((doc or {}).get("data") or {}).get(name)
    return param if isinstance(param, dict) and _usable(param.get("value")) else None


def size(db, chip: str) -> int:
    return int(db["chip"].find_one({"chip_id": chip})["size"])


def label(qid: str, chip_size: int) -> str:
    return rf"Q0*{int(qid)}(?!\d)"


def latest_execution(db, chip: str) -> dict:
    return list(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(1))[0]


def recent_executions(db, chip: str, n: int = 2) -> list[dict]:
    return list(db["execution_history"].find({"chip_id": chip}).sort([("start_at", -1)]).limit(n))


def run_values(db, chip: str, execution_id: str, name: str) -> dict[str, float]:
    """Each qubit's newest usable completed, non-excluded value of ``name`` in one execution (display units)."""
    newest: dict[str, dict] = {}
    for doc in db["task_result_history"].find({"chip_id": chip, "execution_id": execution_id, "status": "completed",
                                               "task_type": "qubit", "excluded": {"$ne": True},
                                               f"output_parameters.{name}": {"$exists": True}}):
        if _usable(doc["output_parameters"][name]["value"]) and (
                doc["qid"] not in newest or doc["start_at"] > newest[doc["qid"]]["start_at"]):
            newest[doc["qid"]] = doc
    return {q: d["output_parameters"][name]["value"] * scale(name) for q, d in newest.items()}


def two_runs(db, chip: str, name: str) -> tuple[dict[str, float], dict[str, float]]:
    """The values in the chip's previous and latest executions."""
    latest, previous = recent_executions(db, chip)
    return run_values(db, chip, previous["execution_id"], name), run_values(db, chip, latest["execution_id"], name)


def build(db) -> list[Question]:
    """Every question with its truth (92 in 14 shapes, then the fresh ones of :func:`fresh` and :func:`unrehearsed`)."""
    qs: list[Question] = []
    n64 = size(db, CHIP)
    live = sorted((q for q, v in latest_values(db, CHIP, "t1").items() if v is not None), key=int)
    picks = [live[i] for i in (1, 7, 15, 22, 30, 41)]

    for i, (name, q) in enumerate([("t1", picks[0]), ("t2_echo", picks[1]), ("x90_gate_fidelity", picks[2]),
                                   ("average_readout_fidelity", picks[3]), ("t1", picks[4]), ("t2_echo", picks[5]),
                                   ("qubit_frequency", picks[0]), ("x90_gate_fidelity", picks[4]),
                                   ("average_readout_fidelity", picks[1]), ("t1", picks[2])]):
        param = merged(db, CHIP, q, name)
        if param is None:
            continue
        qs.append(Question(f"lookup-{i}", "lookup", f"What is the {TITLES[name]} of Q{int(q):02d}?",
                           Truth(((param["value"] * scale(name), tol(name)),))))

    for name in ("t1", "t2_echo", "x90_gate_fidelity", "average_readout_fidelity"):
        values = {q: v for q, v in latest_values(db, CHIP, name).items() if v is not None}
        for order, pick in (("lowest", min), ("highest", max)):
            q = pick(values, key=lambda k: values[k])
            qs.append(Question(f"extreme-{name}-{order}", "extreme qubit",
                               f"Which qubit has the {order} {TITLES[name]}?",
                               Truth(((values[q], tol(name)),), (label(q, n64),))))

    topology_pairs = latest_values(db, CHIP, "zx90_gate_fidelity", "coupling")
    for name in ("zx90_gate_fidelity", "bell_state_fidelity"):
        values = {q: v for q, v in latest_values(db, CHIP, name, "coupling").items() if v is not None
                  and q in topology_pairs}
        for order, pick in (("lowest", min), ("highest", max)):
            pair = pick(values, key=lambda k: values[k])
            a, b = pair.split("-")
            qs.append(Question(f"coupling-{name}-{order}", "extreme coupling",
                               f"Which coupling has the {order} {TITLES[name]}?",
                               Truth(((values[pair], tol(name)),), (label(a, n64), label(b, n64)))))

    for i, (chip, name, word, limit) in enumerate([(CHIP, "t1", "below", 50), (CHIP, "t1", "above", 100),
                                                   (CHIP, "t2_echo", "below", 80), (CHIP, "x90_gate_fidelity",
                                                                                    "above", 99.9),
                                                   (OTHER, "t1", "below", 40), (OTHER, "t2_echo", "above", 150),
                                                   (CHIP, "average_readout_fidelity", "below", 95),
                                                   (OTHER, "x90_gate_fidelity", "below", 99.5)]):
        values = [v for v in latest_values(db, chip, name).values() if v is not None]
        count = sum(1 for v in values if (v < limit if word == "below" else v > limit))
        unit = "%" if scale(name) == 100.0 else " μs"
        where = "" if chip == CHIP else f" on {chip}"
        qs.append(Question(f"threshold-{i}", "threshold", f"How many qubits{where} have {TITLES[name]} {word} "
                                                          f"{limit:g}{unit}?", Truth(((count, 0),))))

    for chip in (CHIP, OTHER):
        total = size(db, chip)
        for name in ("t1", "t2_echo", "x90_gate_fidelity"):
            values = latest_values(db, chip, name)
            missing = sum(1 for q in range(total) if values.get(str(q)) is None)
            where = "" if chip == CHIP else f" on {chip}"
            qs.append(Question(f"missing-{chip}-{name}", "missing", f"How many qubits{where} have no valid "
                                                                    f"{TITLES[name]}?", Truth(((missing, 0),))))

    for chip in (CHIP, OTHER):
        run = latest_execution(db, chip)
        failed = list(db["task_result_history"].find({"chip_id": chip, "execution_id": run["execution_id"],
                                                      "status": "failed"}))
        where = "" if chip == CHIP else f" on {chip}"
        qs.append(Question(f"failures-count-{chip}", "run failures",
                           f"How many tasks failed in the most recent run{where}?", Truth(((len(failed), 0),))))
        task = sorted(d["name"] for d in failed)[0]
        qs.append(Question(f"failures-which-{chip}", "run failures",
                           f"Which tasks failed in the latest execution{where}?",
                           Truth(((len(failed), 0),), (re.escape(task),))))

    for i, (q, name, n) in enumerate([(picks[0], "t1", 2), (picks[1], "t1", 3), (picks[2], "t2_echo", 2),
                                      (picks[3], "x90_gate_fidelity", 2), (picks[4], "t1", 3),
                                      (picks[5], "average_readout_fidelity", 2), (picks[1], "t2_echo", 3),
                                      (picks[3], "t1", 2)]):
        docs = history(db, CHIP, q, name)[:n]
        numbers = tuple((d["output_parameters"][name]["value"] * scale(name), tol(name)) for d in docs)
        dates = tuple(f"{d['output_parameters'][name]['calibrated_at']:%Y-%m-%d}" for d in docs)
        qs.append(Question(f"last-{i}", "last N values", f"What were Q{int(q):02d}'s {WORDS[n]} most recent "
                                                         f"{TITLES[name]} values?", Truth(numbers, dates)))

    for i, (q, name) in enumerate([(picks[0], "t1"), (picks[2], "t1"), (picks[4], "t2_echo"), (picks[1], "t2_echo"),
                                   (picks[5], "t1"), (picks[3], "x90_gate_fidelity")]):
        docs = history(db, CHIP, q, name)[:10]
        first, last = (docs[-1]["output_parameters"][name]["value"], docs[0]["output_parameters"][name]["value"])
        change = (last - first) / abs(first)
        direction = "up" if change > 0.01 else "down" if change < -0.01 else "stable"
        qs.append(Question(f"trend-{i}", "trend", f"What is the {TITLES[name]} trend of qubit {int(q)}?",
                           Truth(((last * scale(name), tol(name)),), (), TREND_WORDS[direction])))

    for chip, text in ((CHIP, "When was the chip last calibrated?"), (OTHER, f"When was {OTHER} last calibrated?"),
                       (CHIP, f"When was {CHIP} last calibrated?"), (OTHER, f"When did {OTHER} last run a "
                                                                            "calibration?")):
        run = latest_execution(db, chip)
        qs.append(Question(f"when-{len(qs)}", "when last calibrated", text,
                           Truth((), (f"{run['start_at']:%Y-%m-%d}",))))

    for i, (q, name, verb) in enumerate([(picks[0], "t1", "Plot"), (picks[1], "t2_echo", "Show"),
                                         (picks[2], "t1", "Graph"), (picks[3], "x90_gate_fidelity", "Chart"),
                                         (picks[4], "t1", "Show"), (picks[5], "t2_echo", "Plot")]):
        qs.append(Question(f"plot-{i}", "plot", f"{verb} the {TITLES[name]} history of qubit {int(q)}.",
                           Truth(chart=True)))

    for i, q in enumerate(picks):
        param = merged(db, CHIP, q, "t1")
        if param is None:
            continue
        band = next((b for limit, b in T1_BANDS if param["value"] >= limit), "bad")
        qs.append(Question(f"health-{i}", "health of one qubit", f"How healthy is Q{int(q):02d}?",
                           Truth(((param["value"], 0.051),), (rf"(?i)\b{band}\b",))))

    for i, (q, name, words) in enumerate([(picks[0], "t1", "between the last two runs"),
                                          (picks[1], "t2_echo", "between the two most recent runs"),
                                          (picks[2], "x90_gate_fidelity", "since the previous run"),
                                          (picks[3], "average_readout_fidelity", "between the last two executions"),
                                          (picks[4], "t1", "between the two latest runs"),
                                          (picks[5], "t2_echo", "since the previous execution")]):
        before, after = two_runs(db, CHIP, name)
        if q not in before or q not in after:
            continue
        qs.append(Question(f"compare-qubit-{i}", "compare two runs", f"How did Q{int(q):02d}'s {TITLES[name]} "
                                                                      f"change {words}?",
                           Truth(((before[q], tol(name)), (after[q], tol(name))))))
    for i, (chip, name, way, text) in enumerate([
            (CHIP, "x90_gate_fidelity", "fell", "Which qubits' X90 gate fidelity dropped between the two most recent "
                                                "executions?"),
            (CHIP, "t1", "fell", "How many qubits' T1 dropped between the last two runs?"),
            (OTHER, "t2_echo", "rose", f"Which qubits on {OTHER} had their T2 echo rise between the last two runs?"),
            (OTHER, "t1", "fell", f"How many qubits' T1 fell since the previous run on {OTHER}?")]):
        before, after = two_runs(db, chip, name)
        moved = {q: after[q] - before[q] for q in before if q in after and after[q] != before[q]}
        chosen = [q for q, d in moved.items() if (d < 0 if way == "fell" else d > 0)]
        extreme = (min if way == "fell" else max)(chosen, key=lambda k: moved[k])
        qs.append(Question(f"compare-chip-{i}", "compare two runs", text,
                           Truth(((len(chosen), 0),), (label(extreme, size(db, chip)),) if text.startswith("Which")
                                 else ())))

    for i, (chip, name) in enumerate([(CHIP, "t1"), (CHIP, "t2_echo"), (CHIP, "x90_gate_fidelity"),
                                      (OTHER, "t1"), (OTHER, "average_readout_fidelity"), (OTHER, "t2_echo")]):
        values = [merged(db, chip, str(q), name) for q in range(size(db, chip))]
        median = statistics.median(p["value"] * scale(name) for p in values if p is not None)
        where = "the chip" if chip == CHIP else chip
        qs.append(Question(f"median-{i}", "chip statistic", f"What is the median {TITLES[name]} on {where}?",
                           Truth(((median, tol(name)),))))

    for i, (q, name) in enumerate([(picks[0], "t1"), (picks[2], "t2_echo"), (picks[4], "x90_gate_fidelity"),
                                   (picks[5], "average_readout_fidelity"), (picks[1], "t1"), (picks[3], "t2_echo"),
                                   (picks[5], "t1")]):
        param = merged(db, CHIP, q, name)
        if param is None:
            continue
        qs.append(Question(f"provenance-{i}", "provenance", f"Where does the {TITLES[name]} of Q{int(q):02d} "
                                                            "come from?",
                           Truth((), (re.escape(str(param["execution_id"])),))))
    from tests import (  # they read its helpers
        dev_asks, dev_chipname, dev_cover_a, dev_cover_b, dev_crosschip7, dev_errdates, dev_limits, dev_marks,
        dev_ranking, dev_restate, dev_restate2, dev_routes, dev_scope, dev_shapes_a, dev_shapes_b,
    )

    return (qs + fresh(db, live) + unrehearsed(db, live) + dev_shapes_a.build(db) + dev_shapes_b.build(db)
            + dev_asks.build(db) + dev_scope.build(db) + dev_marks.build(db) + dev_limits.build(db)
            + dev_routes.build(db) + dev_restate.build(db) + dev_errdates.build(db) + dev_ranking.build(db)
            + dev_restate2.build(db) + dev_chipname.build(db) + dev_cover_a.build(db) + dev_cover_b.build(db)
            + dev_crosschip7.build(db))


def _last_values(db, chip: str, q: str, name: str, n: int, text: str, qid: str) -> Question:
    docs = history(db, chip, q, name)[:n]
    numbers = tuple((d["output_parameters"][name]["value"] * scale(name), tol(name)) for d in docs)
    dates = tuple(f"{d['output_parameters'][name]['calibrated_at']:%Y-%m-%d}" for d in docs)
    return Question(qid, "last N values", text, Truth(numbers, dates), fresh=True)


def fresh(db, live: list[str]) -> list[Question]:
    """Questions added after the held-out set had been seen by the local model: new qubits, metrics, N and wording
    for "the last N values" on both chips, and one more for each shape with fewer than three held-out questions."""
    qs: list[Question] = []
    other = sorted((q for q, v in latest_values(db, OTHER, "t1").items() if v is not None), key=int)
    for i, (chip, q, name, n, form) in enumerate([
            (CHIP, live[4], "t1", 4, "What were Q{q:02d}'s {w} most recent {t} values{on}?"),
            (CHIP, live[12], "x90_gate_fidelity", 3, "What were Q{q:02d}'s {w} most recent {t} values{on}?"),
            (CHIP, live[27], "average_readout_fidelity", 2, "List the last {n} {t} values of qubit {q}{on}."),
            (CHIP, live[48], "t2_echo", 5, "What were the {w} latest {t} values of qubit {q}{on}?"),
            (OTHER, other[6], "t1", 2, "What were Q{q:02d}'s {w} most recent {t} values{on}?"),
            (OTHER, other[59], "t2_echo", 3, "List the last {n} {t} values of qubit {q}{on}."),
            (OTHER, other[100], "x90_gate_fidelity", 4, "What were the {w} latest {t} values of Q{q:02d}{on}?"),
            (CHIP, live[35], "t1", 3, "List the last {n} {t} values of qubit {q}{on}."),
            (OTHER, other[20], "average_readout_fidelity", 2, "What were the {w} latest {t} values of qubit {q}{on}?"),
            (OTHER, other[120], "t1", 5, "What were Q{q:02d}'s {w} most recent {t} values{on}?")]):
        text = form.format(q=int(q), w=WORDS[n], n=n, t=TITLES[name], on="" if chip == CHIP else f" on {chip}")
        qs.append(_last_values(db, chip, q, name, n, text, f"last-fresh-{i}"))

    values = latest_values(db, CHIP, "average_readout_fidelity")
    missing = sum(1 for q in range(size(db, CHIP)) if values.get(str(q)) is None)
    qs.append(Question("missing-fresh-0", "missing", "How many qubits have no valid readout fidelity?",
                       Truth(((missing, 0),)), fresh=True))

    run = latest_execution(db, CHIP)
    failed = db["task_result_history"].count_documents({"chip_id": CHIP, "execution_id": run["execution_id"],
                                                        "status": "failed"})
    qs.append(Question("failures-fresh-0", "run failures", "How many failed tasks were in the last execution?",
                       Truth(((failed, 0),)), fresh=True))

    docs = history(db, CHIP, live[18], "t1")[:10]
    first, last = docs[-1]["output_parameters"]["t1"]["value"], docs[0]["output_parameters"]["t1"]["value"]
    change = (last - first) / abs(first)
    direction = "up" if change > 0.01 else "down" if change < -0.01 else "stable"
    qs.append(Question("trend-fresh-0", "trend", f"What is the T1 trend of qubit {int(live[18])}?",
                       Truth(((last, 0.051),), (), TREND_WORDS[direction]), fresh=True))

    pairs = {k: v for k, v in latest_values(db, OTHER, "zx90_gate_fidelity", "coupling").items() if v is not None}
    pair = min(pairs, key=lambda k: pairs[k])
    a, b = pair.split("-")
    qs.append(Question("coupling-fresh-0", "extreme coupling",
                       f"Which coupling on {OTHER} has the lowest ZX90 gate fidelity?",
                       Truth(((pairs[pair], tol("zx90_gate_fidelity")),), (label(a, 0), label(b, 0))), fresh=True))

    t2 = [v for v in latest_values(db, CHIP, "t2_echo").values() if v is not None]
    qs.append(Question("threshold-fresh-0", "threshold", "How many qubits have T2 echo above 100 μs?",
                       Truth(((sum(1 for v in t2 if v > 100), 0),)), fresh=True))

    run = latest_execution(db, OTHER)
    qs.append(Question("when-fresh-0", "when last calibrated", f"When was the last calibration run on {OTHER}?",
                       Truth((), (f"{run['start_at']:%Y-%m-%d}",)), fresh=True))
    return qs


def _band(t1: float) -> str:
    return next((b for limit, b in T1_BANDS if t1 >= limit), "bad")


def _trend(db, chip: str, q: str, name: str) -> tuple[float, str]:
    """The newest value and the direction over the last ten usable points (a change beyond 1%)."""
    docs = history(db, chip, q, name)[:10]
    first, last = docs[-1]["output_parameters"][name]["value"], docs[0]["output_parameters"][name]["value"]
    change = (last - first) / abs(first)
    return last * scale(name), "up" if change > 0.01 else "down" if change < -0.01 else "stable"


def unrehearsed(db, live: list[str]) -> list[Question]:
    """Questions written after the whole held-out set had run once: "health of one qubit" in lab phrasings on both
    chips (the merged T1 and its band word, as for ``health-*``), and two more for each shape that had fewer than
    four held-out questions (extreme coupling, threshold, missing, run failures, trend, when last calibrated,
    chip statistic), on qubits, metrics and wordings no earlier question uses."""
    qs: list[Question] = []
    other = sorted((q for q, v in latest_values(db, OTHER, "t1").items() if v is not None), key=int)
    for i, (chip, q, form) in enumerate([
            (CHIP, live[10], "Is qubit {q} in good shape?"),
            (CHIP, live[38], "Give me a health check of Q{q:02d}."),
            (CHIP, live[53], "Anything wrong with Q{q:02d}?"),
            (CHIP, live[60], "How does qubit {q} look?"),
            (OTHER, other[33], "How is qubit {q} on {chip} doing?"),
            (OTHER, other[77], "Is Q{q:02d} on {chip} healthy?"),
            (OTHER, other[90], "Check the health of qubit {q} on {chip}."),
            (OTHER, other[131], "What condition is Q{q:02d} on {chip} in?")]):
        param = merged(db, chip, q, "t1")
        if param is None:
            continue
        qs.append(Question(f"health-fresh-{i}", "health of one qubit", form.format(q=int(q), chip=chip),
                           Truth(((param["value"], 0.051),), (rf"(?i)\b{_band(param['value'])}\b",)), fresh=True))

    for i, (chip, name, order, text) in enumerate([
            (CHIP, "zx90_gate_fidelity", "highest", "Which pair of qubits has the best ZX90 gate fidelity on {chip}?"),
            (OTHER, "bell_state_fidelity", "lowest", "Which coupling on {chip} has the worst Bell state fidelity?")]):
        values = {k: v for k, v in latest_values(db, chip, name, "coupling").items() if v is not None}
        if chip == CHIP:
            topology = latest_values(db, CHIP, "zx90_gate_fidelity", "coupling")
            values = {k: v for k, v in values.items() if k in topology}
        pair = (min if order == "lowest" else max)(values, key=lambda k: values[k])
        a, b = pair.split("-")
        qs.append(Question(f"coupling-fresh-{i + 1}", "extreme coupling", text.format(chip=chip),
                           Truth(((values[pair], tol(name)),), (label(a, 0), label(b, 0))), fresh=True))

    for i, (chip, name, word, limit, text) in enumerate([
            (OTHER, "average_readout_fidelity", "below", 96, "How many qubits on {chip} have readout fidelity below "
                                                             "96%?"),
            (CHIP, "t1", "below", 30, "Count the qubits with T1 under 30 μs.")]):
        values = [v for v in latest_values(db, chip, name).values() if v is not None]
        count = sum(1 for v in values if (v < limit if word == "below" else v > limit))
        qs.append(Question(f"threshold-fresh-{i + 1}", "threshold", text.format(chip=chip), Truth(((count, 0),)),
                           fresh=True))

    for i, (chip, name, text) in enumerate([
            (OTHER, "average_readout_fidelity", "How many qubits on {chip} have no valid readout fidelity?"),
            (CHIP, "t2_echo", "How many qubits are missing a valid T2 echo?")]):
        values = latest_values(db, chip, name)
        missing = sum(1 for q in range(size(db, chip)) if values.get(str(q)) is None)
        qs.append(Question(f"missing-fresh-{i + 1}", "missing", text.format(chip=chip), Truth(((missing, 0),)),
                           fresh=True))

    for i, (chip, text) in enumerate([(OTHER, "How many tasks failed during the latest calibration run on {chip}?"),
                                      (CHIP, "What failed in the last execution?")]):
        run = latest_execution(db, chip)
        failed = sorted(d["name"] for d in db["task_result_history"].find(
            {"chip_id": chip, "execution_id": run["execution_id"], "status": "failed"}))
        patterns = (re.escape(failed[0]),) if text.startswith("What") else ()
        qs.append(Question(f"failures-fresh-{i + 1}", "run failures", text.format(chip=chip),
                           Truth(((len(failed), 0),), patterns), fresh=True))

    for i, (chip, q, name, text) in enumerate([
            (CHIP, live[45], "t2_echo", "How has the T2 echo of Q{q:02d} trended recently?"),
            (OTHER, other[12], "t1", "What is the recent T1 trend for qubit {q} on {chip}?")]):
        last, direction = _trend(db, chip, q, name)
        qs.append(Question(f"trend-fresh-{i + 1}", "trend", text.format(q=int(q), chip=chip),
                           Truth(((last, tol(name)),), (), TREND_WORDS[direction]), fresh=True))

    for i, (chip, text) in enumerate([(CHIP, "What date was {chip} last calibrated on?"),
                                      (OTHER, "When did the most recent execution on {chip} start?")]):
        run = latest_execution(db, chip)
        qs.append(Question(f"when-fresh-{i + 1}", "when last calibrated", text.format(chip=chip),
                           Truth((), (f"{run['start_at']:%Y-%m-%d}",)), fresh=True))

    for i, (chip, name, how, text) in enumerate([
            (OTHER, "x90_gate_fidelity", statistics.median, "What's the median X90 gate fidelity across {chip}?"),
            (CHIP, "t2_echo", statistics.mean, "What is the average T2 echo on {chip}?")]):
        values = [merged(db, chip, str(q), name) for q in range(size(db, chip))]
        value = how(p["value"] * scale(name) for p in values if p is not None)
        qs.append(Question(f"median-fresh-{i}", "chip statistic", text.format(chip=chip),
                           Truth(((value, tol(name)),)), fresh=True))
    return qs


def template(question: Question) -> tuple[str, str]:
    """The question's shape and its wording with chips, numbers, metrics and order words taken out: questions that
    share one are one template, and a template is dev or held-out as a whole."""
    text = question.text
    for title in sorted(TITLES.values(), key=len, reverse=True):
        text = text.replace(title, "{metric}")
    text = re.sub(r"\b\d+Qv\d+\b", "{chip}", text)
    text = re.sub(r"\d+(?:\.\d+)?", "{n}", text)
    text = re.sub(r"\b(two|three|four|five)\b", "{w}", text)
    text = re.sub(r"\b(lowest|highest)\b", "{order}", text)
    text = re.sub(r"\b(below|above)\b", "{cmp}", text)
    text = re.sub(r"^(Plot|Show|Graph|Chart)\b", "{verb}", text)
    return question.shape, text


def passed(question: Question, answer: str, charts: int) -> bool:
    """Every truth value stated in the sentence that claims it, every pattern found, a chart when asked."""
    return eval_score.passed(question.truth, answer, charts)
