"""Held-out questions: shapes and wordings written after the copilot was built, in templates no dev question uses.

Sealed: product code never imports or reads this file, no 4-word sequence of a question here may appear in product
code, prompts, skills or tool descriptions (``tests/agent/test_sealed_eval.py``), and it is measured once at the start
of a piece of work and once at its end, never between.  Every truth is a pymongo query written here on the raw demo
documents, with thresholds and windows written out by hand.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from datetime import datetime, timedelta

from tests.eval_score import Expect, Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, merged, scale, size

_COUNT_NOUNS = ("qubit", "task", "run", "execution", "failure", "time", "calibration")


def _q(shape: str, i: int, text: str, truth: Truth) -> Question:
    return Question(f"sealed-{shape.replace(' ', '-')}-{i}", shape, text, truth, split="held-out")


def _values(db, chip: str, name: str) -> dict[str, float]:
    return {q: v for q, v in latest_values(db, chip, name).items() if v is not None}


def _qlabel(qid: str) -> str:
    return rf"(?:Q0*{int(qid)}|qubit\s*0*{int(qid)})(?!\d)"


def _failed_docs(db, chip: str, since: datetime | None = None) -> list[dict]:
    query: dict = {"chip_id": chip, "status": "failed"}
    if since is not None:
        query["start_at"] = {"$gte": since}
    return list(db["task_result_history"].find(query))


def compound(db) -> list[Question]:
    """Counts of qubits meeting two conditions at once (newest values)."""
    out = []
    for i, (chip, a, alim, b, blim, text) in enumerate([
            (CHIP, "t1", 50.0, "t2_echo", 60.0,
             "Count qubits on {chip} whose T1 exceeds 50 μs while their T2 echo also exceeds 60 μs."),
            (OTHER, "t1", 40.0, "x90_gate_fidelity", 99.5,
             "On {chip}, how many qubits combine T1 over 40 μs with X90 fidelity over 99.5%?"),
            (CHIP, "t2_echo", 100.0, "average_readout_fidelity", 95.0,
             "Number of {chip} qubits having T2 echo greater than 100 μs and readout fidelity greater than 95%?"),
            (OTHER, "t2_echo", 80.0, "t1", 60.0,
             "For {chip}, tell me how many qubits pass both T2 echo > 80 μs and T1 > 60 μs.")]):
        va, vb = _values(db, chip, a), _values(db, chip, b)
        n = sum(1 for q in va if q in vb and va[q] > alim and vb[q] > blim)
        out.append(_q("compound filter", i, text.format(chip=chip), Truth((Expect(n, kind="count"),))))
    return out


def percentage(db) -> list[Question]:
    """A share of qubits as a percentage (of the qubits that have a value; of all qubits is accepted too)."""
    out = []
    for i, (chip, name, limit, above, text) in enumerate([
            (CHIP, "t1", 50.0, True, "What fraction of {chip}'s qubits, in percent, has T1 beyond 50 μs?"),
            (OTHER, "x90_gate_fidelity", 99.5, False, "Which percentage of qubits on {chip} sit under 99.5% X90 "
                                                      "fidelity?"),
            (CHIP, "t2_echo", 80.0, True, "Give the percent of {chip} qubits whose T2 echo is larger than 80 μs."),
            (OTHER, "t1", 40.0, False, "What proportion of the {chip} qubits have T1 less than 40 μs, as a "
                                       "percentage?")]):
        values = _values(db, chip, name)
        n = sum(1 for v in values.values() if (v > limit if above else v < limit))
        shares = (100.0 * n / len(values), 100.0 * n / size(db, chip))
        out.append(_q("percentage", i, text.format(chip=chip),
                      Truth((Expect(shares[0], 0.51, unit="%", alternatives=(shares[1],)),))))
    return out


def top_n(db) -> list[Question]:
    """The N best or worst qubits by one metric: every one named, each with its value in the same sentence/row."""
    out = []
    for i, (chip, name, n, best, text) in enumerate([
            (CHIP, "t1", 3, True, "Name the 3 qubits on {chip} with the longest T1."),
            (OTHER, "t2_echo", 4, False, "Which 4 qubits of {chip} have the shortest T2 echo times?"),
            (CHIP, "x90_gate_fidelity", 3, False, "Give me the bottom three qubits of {chip} ranked by X90 gate fidelity."),
            (OTHER, "average_readout_fidelity", 3, True, "Top 3 qubits for readout fidelity on {chip}, please.")]):
        values = _values(db, chip, name)
        ranked = sorted(values, key=lambda q: values[q], reverse=best)[:n]
        tol = 0.051 if scale(name) == 1.0 else 0.0051
        expects = tuple(Expect(values[q], tol, near=(_qlabel(q),)) for q in ranked)
        out.append(_q("top N", i, text.format(chip=chip), Truth(expects)))
    return out


def _median(db, chip: str, name: str) -> float:
    docs = [merged(db, chip, str(q), name) for q in range(size(db, chip))]
    return statistics.median(p["value"] * scale(name) for p in docs if p is not None)


def cross_chip(db) -> list[Question]:
    """Which of the two chips is higher on a median: the winner named with a comparison word, both medians given."""
    out = []
    for i, (name, text) in enumerate([
            ("t2_echo", "Between {a} and {b}, which chip has the higher median T2 echo?"),
            ("t1", "Does {a} or {b} show a better median T1?"),
            ("x90_gate_fidelity", "Compare median X90 gate fidelity of {a} against {b}: which one wins?"),
            ("average_readout_fidelity", "Is median readout fidelity greater on {b} than on {a}?")]):
        ma, mb = _median(db, CHIP, name), _median(db, OTHER, name)
        winner = CHIP if ma > mb else OTHER
        tol = 0.051 if scale(name) == 1.0 else 0.0051
        out.append(_q("cross-chip", i, text.format(a=CHIP, b=OTHER),
                      Truth((Expect(ma, tol), Expect(mb, tol)), winner=winner, loser=OTHER if winner == CHIP
                            else CHIP)))
    return out


def spread(db) -> list[Question]:
    """The spread of one metric over a chip: standard deviation (sample or population) or max − min."""
    out = []
    for i, (chip, name, how, text) in enumerate([
            (CHIP, "t1", "std", "How widely does T1 vary across {chip}? Give the standard deviation."),
            (OTHER, "t2_echo", "range", "What is the gap between the largest and smallest T2 echo on {chip}?"),
            (OTHER, "t1", "std", "Standard deviation of T1 over all {chip} qubits?"),
            (CHIP, "qubit_frequency", "range", "By how many GHz do qubit frequencies on {chip} differ from lowest "
                                               "to highest?")]):
        values = list(_values(db, chip, name).values())
        tol = 0.051 if name != "qubit_frequency" else 0.0011
        if how == "std":
            expect = Expect(statistics.stdev(values), max(tol, 0.01 * statistics.stdev(values)),
                            alternatives=(statistics.pstdev(values),))
        else:
            expect = Expect(max(values) - min(values), max(tol, 0.01 * (max(values) - min(values))))
        out.append(_q("spread", i, text.format(chip=chip), Truth((expect,))))
    return out


def _pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return sxy / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def correlation(db) -> list[Question]:
    """Pearson correlation of two metrics over the qubits that have both (r to two decimals)."""
    out = []
    for i, (chip, a, b, text) in enumerate([
            (CHIP, "t1", "t2_echo", "How strongly does T2 echo track T1 over the qubits of {chip}?"),
            (OTHER, "t1", "x90_gate_fidelity", "Pearson r of X90 gate fidelity versus T1, {chip}?"),
            (CHIP, "t2_echo", "average_readout_fidelity", "Do T2 echo and readout fidelity move together on "
                                                          "{chip}? Give the correlation coefficient."),
            (OTHER, "t1", "t2_echo", "Compute the correlation of T1 with T2 echo for {chip}.")]):
        va, vb = _values(db, chip, a), _values(db, chip, b)
        both = sorted(set(va) & set(vb), key=int)
        r = _pearson([va[q] for q in both], [vb[q] for q in both])
        out.append(_q("correlation", i, text.format(chip=chip), Truth((Expect(r, 0.02, signed=True),))))
    return out


_NOT_THERE = ("no such", "does not exist", "doesn't exist", "not exist", "no qubit", "no chip", "not found",
              "only has", "has only", "out of range", "unknown", "isn't a", "is not a", "there is no", "no data",
              "not a valid", "invalid")


def missing_thing(db) -> list[Question]:
    """Questions about a qubit or chip that is not in the database: a plain "no such ..." and no value."""
    n64, n144 = size(db, CHIP), size(db, OTHER)
    chips = set(db["chip"].distinct("chip_id"))
    assert "99Qv9" not in chips and "12Qv1" not in chips
    assert db["qubit"].count_documents({"chip_id": CHIP, "qid": str(n64 + 136)}) == 0
    assert db["qubit"].count_documents({"chip_id": OTHER, "qid": str(n144 + 356)}) == 0
    texts = [f"Report T1 for qubit {n64 + 136} on {CHIP}.",
             f"What readout fidelity does Q{n144 + 356} of {OTHER} reach?",
             "Tell me chip 99Qv9's median T1.",
             "When did chip 12Qv1 get its most recent calibration?"]
    return [_q("missing thing", i, text, Truth(any_words=_NOT_THERE, no_values=True)) for i, text in enumerate(texts)]


def window_counts(db, now: datetime) -> list[Question]:
    """Counts over a time window in days, ending now."""
    out = []
    for i, (chip, days, what, text) in enumerate([
            (CHIP, 7, "failed", "Over the past 7 days, how many tasks failed on {chip}?"),
            (OTHER, 3, "failed", "Failed task count on {chip} for the previous 3 days?"),
            (OTHER, 14, "runs", "How many calibration executions did {chip} go through in the past 14 days?"),
            (CHIP, 5, "failed", "In the last five days, how many task failures has {chip} had?")]):
        since = now - timedelta(days=days)
        if what == "failed":
            n = len(_failed_docs(db, chip, since))
        else:
            n = db["execution_history"].count_documents({"chip_id": chip, "start_at": {"$gte": since}})
        out.append(_q("window count", i, text.format(chip=chip), Truth((Expect(n, kind="count"),))))
    return out


def fails_most(db) -> list[Question]:
    """The task that failed most often (all stored results of the chip, or its latest run): named, with its count."""
    out = []
    latest = {c: list(db["execution_history"].find({"chip_id": c}).sort([("start_at", -1)]).limit(1))[0]
              for c in (CHIP, OTHER)}
    for i, (chip, scope, text) in enumerate([
            (OTHER, "all", "Which task fails most often on {chip}?"),
            (CHIP, "all", "What calibration task has the most failures on {chip} overall?"),
            (CHIP, "latest", "In {chip}'s newest execution, which task had the largest number of failures?"),
            (OTHER, "all", "Across all stored results for {chip}, name the task with the highest failure count.")]):
        docs = _failed_docs(db, chip) if scope == "all" else list(db["task_result_history"].find(
            {"chip_id": chip, "status": "failed", "execution_id": latest[chip]["execution_id"]}))
        counts = Counter(d["name"] for d in docs).most_common()
        top, n = counts[0]
        assert len(counts) == 1 or counts[1][1] < n, "a tie would make the truth ambiguous"
        out.append(_q("fails most", i, text.format(chip=chip),
                      Truth((Expect(n, kind="count", near=(rf"\b{top}\b",)),))))
    return out


def qubit_pairs(db) -> list[Question]:
    """Two named qubits compared on one metric (newest values): the higher one named first with a comparison."""
    out = []
    live = sorted(_values(db, CHIP, "t1"), key=int)
    other = sorted(_values(db, OTHER, "t2_echo"), key=int)
    for i, (chip, name, a, b, text) in enumerate([
            (CHIP, "t1", live[3], live[44], "Of Q{a:02d} and Q{b:02d}, whose T1 is longer?"),
            (OTHER, "t2_echo", other[17], other[102], "Does qubit {a} or qubit {b} on {chip} have more T2 echo?"),
            (CHIP, "x90_gate_fidelity", live[9], live[26], "Which is better for X90 fidelity, Q{a:02d} or Q{b:02d}?"),
            (CHIP, "t2_echo", live[50], live[13], "Put Q{a:02d} and Q{b:02d} side by side on T2 echo: which leads?")]):
        values = _values(db, chip, name)
        if a not in values or b not in values:
            continue
        tol = 0.051 if scale(name) == 1.0 else 0.0051
        winner, loser = (a, b) if values[a] > values[b] else (b, a)
        out.append(_q("qubit pair", i, text.format(a=int(a), b=int(b), chip=chip),
                      Truth((Expect(values[a], tol, near=(_qlabel(a),)), Expect(values[b], tol, near=(_qlabel(b),))),
                            winner=_qlabel(winner), loser=_qlabel(loser))))
    return out


def build_heldout(db, now: datetime) -> list[Question]:
    """Every held-out question with its truth (``now``: the end of the demo's time windows)."""
    return (compound(db) + percentage(db) + top_n(db) + cross_chip(db) + spread(db) + correlation(db)
            + missing_thing(db) + window_counts(db, now) + fails_most(db) + qubit_pairs(db))
