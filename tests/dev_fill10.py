"""Forty dev questions over the ten eval shapes, four each, in wordings of my own (chatty, terse, odd word order),
written before the word tables or the router were read: the measurement set of the constrained model fill
(``docs/benchmarks-fill.md``).  The word tables are not tuned on them.

Each question carries the router call it needs (tool and the arguments that settle it), written by hand.  Every
truth is a hand-written pymongo read over the raw demo collections: ``qubit`` / ``coupling`` documents'
``data.<metric>.value`` (``dev_shapes9.values``: 0 or NaN is no value, fractions shown in %), the newest completed
result per id (``public_eval.latest_values``) for chip statistics and pairs, ``task_result_history`` failures
(``dev_fails9.failures``) and ``execution_history`` runs (``dev_cover_b``), windows being whole days ending on the
chip's newest run's day.  Nothing here calls the tools.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from datetime import timedelta

import numpy as np

from tests.dev_cover_b import NO_SUCH, _failed, _newest, _runs
from tests.dev_fails7 import label as fail_label
from tests.dev_fails9 import failures, top
from tests.dev_shapes9 import values
from tests.eval_score import Truth
from tests.public_eval import CHIP, OTHER, Question, latest_values, size, tol

Call = tuple[str, dict]
Test = Callable[[float], bool]
T1, T2, RO, X90 = "t1", "t2_echo", "average_readout_fidelity", "x90_gate_fidelity"
ZX, BELL, FREQ = "zx90_gate_fidelity", "bell_state_fidelity", "qubit_frequency"


def _cond(metric: str, side: str, value: float) -> dict:
    return {"metric_name": metric, side: value}


def _passing(db, chip: str, kind: str, tests: list[tuple[str, Test]]) -> tuple[int, int]:
    """Subjects passing every test, and subjects with a value of every metric."""
    got = {m: values(db, chip, m, kind) for m, _ in tests}
    every = set.intersection(*(set(v) for v in got.values()))
    return sum(all(t(got[m][s]) for m, t in tests) for s in every), len(every)


def _compound(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-cf-1", "hey, quick one: how many qubits have both T1 above 45 us and T2 echo above 35 us?", CHIP,
         "qubit", [(T1, "above", 45.0), (T2, "above", 35.0)]),
        ("fill-cf-2", "qubits w/ readout fid < 93% AND x90 fid < 99.6%, 144Qv2", OTHER, "qubit",
         [(RO, "below", 93.0), (X90, "below", 99.6)]),
        ("fill-cf-3", "Above 55 us for T1 but below 96% on readout fidelity: how many qubits fit that?", CHIP,
         "qubit", [(T1, "above", 55.0), (RO, "below", 96.0)]),
        ("fill-cf-4", "On 144Qv2 which couplings sit under 96% ZX90 fidelity while their Bell state fidelity is "
         "under 92%?", OTHER, "coupling", [(ZX, "below", 96.0), (BELL, "below", 92.0)]),
    ]
    out = []
    for qid, text, chip, kind, conds in rows:
        tests = [(m, (lambda v, x=x: v > x) if side == "above" else (lambda v, x=x: v < x)) for m, side, x in conds]
        n, _ = _passing(db, chip, kind, tests)
        out.append((Question(qid, "compound filter", text, Truth(((n, 0),))),
                    ("filter_metrics", {"chip_id": chip, "conditions": [_cond(*c) for c in conds]})))
    return out


def _percentage(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-pc-1", "Roughly what percent of the qubits have a T1 under 30 us?", CHIP, "qubit", T1, "below", 30.0),
        ("fill-pc-2", "share of 144Qv2 qubits w/ readout fidelity over 95%", OTHER, "qubit", RO, "above", 95.0),
        ("fill-pc-3", "Of all the couplers, how many percent manage a Bell state fidelity above 88%?", CHIP,
         "coupling", BELL, "above", 88.0),
        ("fill-pc-4", "X90 fidelity above 99.8%: what portion of qubits on 144Qv2 get there?", OTHER, "qubit", X90,
         "above", 99.8),
    ]
    out = []
    for qid, text, chip, kind, metric, side, x in rows:
        test: Test = (lambda v, x=x: v > x) if side == "above" else (lambda v, x=x: v < x)
        n, every = _passing(db, chip, kind, [(metric, test)])
        out.append((Question(qid, "percentage", text, Truth(((100.0 * n / every, 0.051),))),
                    ("filter_metric", {"chip_id": chip, "metric_name": metric, side: x})))
    return out


def _top_n(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-tn-1", "Could you pull up the 6 qubits with the longest T2 echo?", CHIP, "qubit", T2, "highest", 6),
        ("fill-tn-2", "lowest 3 readout fidelities, 144Qv2", OTHER, "qubit", RO, "lowest", 3),
        ("fill-tn-3", "By T1, who are the eight worst qubits here?", CHIP, "qubit", T1, "lowest", 8),
        ("fill-tn-4", "I'd like the top five couplings ranked by ZX90 gate fidelity on 144Qv2", OTHER, "coupling",
         ZX, "highest", 5),
    ]
    out = []
    for qid, text, chip, kind, metric, order, n in rows:
        ranked = sorted(values(db, chip, metric, kind).values(), reverse=order == "highest")[:n]
        out.append((Question(qid, "top N", text, Truth(tuple((v, tol(metric)) for v in ranked))),
                    ("rank_metric", {"chip_id": chip, "metric_name": metric, "order": order, "n": n})))
    return out


def _stat(db, chip: str, metric: str, how: str) -> float:
    got = [v for v in latest_values(db, chip, metric).values() if v is not None]
    return statistics.mean(got) if how == "mean" else statistics.median(got)


def _cross(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-cc-1", "Between our two chips, which one has the higher median readout fidelity?", RO, "median"),
        ("fill-cc-2", "mean X90 gate fidelity: 64Qv3 vs 144Qv2?", X90, "mean"),
        ("fill-cc-3", "Is T2 echo typically longer on 144Qv2 than on 64Qv3, median-wise?", T2, "median"),
        ("fill-cc-4", "Which chip comes out ahead on average T1, the 64-qubit or the 144-qubit one?", T1, "mean"),
    ]
    out = []
    for qid, text, metric, how in rows:
        a, b = _stat(db, CHIP, metric, how), _stat(db, OTHER, metric, how)
        win, lose = (CHIP, OTHER) if a > b else (OTHER, CHIP)
        out.append((Question(qid, "cross-chip", text, Truth(((a, tol(metric)), (b, tol(metric))), winner=win,
                                                             loser=lose)),
                    ("compare_chips", {"metric_name": metric, "statistic": how})))
    return out


def _spread(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-sp-1", "How spread out are the T1 values on 144Qv2 (standard deviation)?", OTHER, T1, "std", 1.0),
        ("fill-sp-2", "qubit frequency range in MHz", CHIP, FREQ, "range", 1e3),
        ("fill-sp-3", "Tell me how much the T2 echo scatters across qubits on this chip.", CHIP, T2, "std", 1.0),
        ("fill-sp-4", "Biggest minus smallest readout fidelity on 144Qv2?", OTHER, RO, "range", 1.0),
    ]
    out = []
    for qid, text, chip, metric, lead, factor in rows:
        got = np.asarray(list(values(db, chip, metric, "coupling" if metric in (ZX, BELL) else "qubit").values()),
                         dtype=float)
        value = float(got.max() - got.min()) if lead == "range" else float(got.std(ddof=1))
        call_args = {"chip_id": chip, "metric_name": metric, "lead": lead, **({"unit": "MHz"} if factor > 1 else {})}
        out.append((Question(qid, "spread", text, Truth(((value * factor, 0.051),))), ("metric_spread", call_args)))
    return out


def _correlation(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    rows = extra or [
        ("fill-co-1", "Do qubits with long T1 tend to also have long T2 echo?", CHIP, "qubit", T1, T2),
        ("fill-co-2", "correlation between readout fidelity and X90 gate fidelity on 144Qv2", OTHER, "qubit", RO, X90),
        ("fill-co-3", "Is there any link between a qubit's frequency and its T1?", CHIP, "qubit", FREQ, T1),
        ("fill-co-4", "ZX90 gate fidelity vs Bell state fidelity across couplings: how strongly do they move "
         "together?", CHIP, "coupling", ZX, BELL),
    ]
    out = []
    for qid, text, chip, kind, a, b in rows:
        va, vb = values(db, chip, a, kind), values(db, chip, b, kind)
        both = sorted(set(va) & set(vb))
        r = float(np.corrcoef([va[s] for s in both], [vb[s] for s in both])[0, 1])
        out.append((Question(qid, "correlation", text, Truth(((r, 0.0051),))),
                    ("correlate_metrics", {"chip_id": chip, "metric_a": a, "metric_b": b})))
    return out


def _missing(db) -> list[tuple[Question, Call]]:
    n64, n144 = size(db, CHIP), size(db, OTHER)
    assert not db["chip"].find_one({"chip_id": "20Qv1"})
    rows = [
        ("fill-ms-1", f"what's the T2 echo of Q{n64 + 3}?", {"chip_id": CHIP, "qid": str(n64 + 3)}),
        ("fill-ms-2", f"Readout fidelity for qubit {n144 + 20} on 144Qv2, please", {"chip_id": OTHER,
                                                                                    "qid": str(n144 + 20)}),
        ("fill-ms-3", "Give me the median T1 of the 20Qv1 chip.", {"chip_id": "20Qv1"}),
        ("fill-ms-4", f"Is qubit {n64 + 40} healthy?", {"chip_id": CHIP, "qid": str(n64 + 40)}),
    ]
    return [(Question(qid, "missing thing", text, Truth(patterns=(NO_SUCH,), no_values=True)), ("check_target", args))
            for qid, text, args in rows]


def _window(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    end, other_end = _newest(db, CHIP), _newest(db, OTHER)
    rows = extra or [
        ("fill-wc-1", "How many tasks failed over the last 4 days?", CHIP, "failed tasks", 4),
        ("fill-wc-2", "runs on 144Qv2 in the past 10 days: how many?", OTHER, "runs", 10),
        ("fill-wc-3", "Failed task total for the past fortnight?", CHIP, "failed tasks", 14),
        ("fill-wc-4", "In the last 6 days, how many calibration runs did 64Qv3 get?", CHIP, "runs", 6),
    ]
    out = []
    for qid, text, chip, what, days in rows:
        last = end if chip == CHIP else other_end
        first = last - timedelta(days=days - 1)
        n = len(_failed(db, chip, first, None)) if what == "failed tasks" else _runs(db, chip, first, None)
        out.append((Question(qid, "window count", text, Truth(((n, 0),))),
                    ("count_in_window", {"chip_id": chip, "what": what, "days": days})))
    return out


def _fails(db, extra: list | None = None) -> list[tuple[Question, Call]]:
    end = _newest(db, CHIP)
    rows = extra or [
        ("fill-fm-1", "Which qubit keeps failing the most?", CHIP, "qubit", failures(db, CHIP, "qubit"), {}),
        ("fill-fm-2", "On 144Qv2, what task fails more often than the others?", OTHER, "task",
         failures(db, OTHER, "task"), {}),
        ("fill-fm-3", "which coupling had the most failed results over the last 7 days", CHIP, "coupling",
         failures(db, CHIP, "coupling", end - timedelta(days=6)), {"days": 7}),
        ("fill-fm-4", "Out of all the runs on 144Qv2, which one racked up the most failures?", OTHER, "run",
         failures(db, OTHER, "run"), {}),
    ]
    out = []
    for qid, text, chip, by, counts, extra in rows:
        names, n = top(counts)
        out.append((Question(qid, "fails most", text, Truth(((n, 0),), patterns=tuple(fail_label(k) for k in names))),
                    ("failure_ranking", {"chip_id": chip, "by": by, **extra})))
    return out


def _pairs(db) -> list[tuple[Question, Call]]:
    rows = [
        ("fill-qp-1", "Who has the better T1, Q4 or Q8?", T1, "4", "8"),
        ("fill-qp-2", "q15 and q16 readout fidelity side by side", RO, "15", "16"),
        ("fill-qp-3", "Between qubit 2 and qubit 30, which one has the longer T2 echo?", T2, "2", "30"),
        ("fill-qp-4", "X90 fidelity: Q20 against Q21, which wins?", X90, "20", "21"),
    ]
    out = []
    for qid, text, metric, a, b in rows:
        got = latest_values(db, CHIP, metric)
        va, vb = got[a], got[b]
        assert va is not None and vb is not None and va != vb, (metric, a, b)
        win, lose = (a, b) if va > vb else (b, a)
        out.append((Question(qid, "qubit pair", text, Truth(((va, tol(metric)), (vb, tol(metric))),
                                                             winner=rf"Q0*{win}(?!\d)", loser=rf"Q0*{lose}(?!\d)")),
                    ("compare_qubits", {"chip_id": CHIP, "qids": [a, b], "param_names": [metric]})))
    return out


def planned(db) -> list[tuple[Question, Call]]:
    """Every dev question with the router call it needs, four per shape."""
    return [*_compound(db), *_percentage(db), *_top_n(db), *_cross(db), *_spread(db), *_correlation(db),
            *_missing(db), *_window(db), *_fails(db), *_pairs(db)]


def after(db) -> list[tuple[Question, Call]]:
    """Seventeen more, written after the fill was built (and after the router was read), each one a wording the
    parse leaves unrouted when written: the pool the fill's accuracy on unrouted questions is measured on.  Not
    part of the forty."""
    return [
        *_spread(db, [("fill-a-sp-1", "Tell me how uneven readout fidelity is on 144Qv2.", OTHER, RO, "std", 1.0),
                      ("fill-a-sp-2", "how lopsided is the ZX90 gate fidelity across couplings", CHIP, ZX, "std", 1.0),
                      ("fill-a-sp-3", "How much does T1 wander between qubits on 144Qv2?", OTHER, T1, "std", 1.0),
                      ("fill-a-sp-4", "T2 echo: how bunched together are the qubits?", CHIP, T2, "std", 1.0),
                      ("fill-a-sp-5", "how jumpy is the qubit frequency across 144Qv2", OTHER, FREQ, "std", 1.0)]),
        *_correlation(db, [("fill-a-co-1", "Does T2 echo rise and fall along with T1?", CHIP, "qubit", T2, T1),
                           ("fill-a-co-2", "does readout fidelity follow qubit frequency", CHIP, "qubit", RO, FREQ),
                           ("fill-a-co-3", "is a longer T1 paired with better X90 gate fidelity", CHIP, "qubit", T1,
                            X90),
                           ("fill-a-co-4", "When Bell state fidelity goes up, does ZX90 gate fidelity go up too?",
                            CHIP, "coupling", BELL, ZX),
                           ("fill-a-co-5", "do X90 gate fidelity and readout fidelity hang together on 144Qv2", OTHER,
                            "qubit", X90, RO)]),
        *_top_n(db, [("fill-a-tn-1", "give the 7 qubits with the poorest readout fidelity", CHIP, "qubit", RO,
                      "lowest", 7),
                     ("fill-a-tn-2", "Which 5 qubits have the shabbiest T1?", CHIP, "qubit", T1, "lowest", 5),
                     ("fill-a-tn-3", "list 4 couplings with the finest Bell state fidelity on 144Qv2", OTHER,
                      "coupling", BELL, "highest", 4),
                     ("fill-a-tn-4", "the half-dozen feeblest T2 echo qubits", CHIP, "qubit", T2, "lowest", 6)]),
        *_fails(db, [("fill-a-fm-1", "which coupling misbehaves most on 144Qv2?", OTHER, "coupling",
                      failures(db, OTHER, "coupling"), {})]),
        *_window(db, [("fill-a-wc-1", "how many times did we calibrate 144Qv2 in the last 12 days?", OTHER, "runs",
                       12)]),
        *_compound(db, [("fill-a-cf-1", "qubits with T1 beyond 40 us as well as T2 echo beyond 30 us", CHIP, "qubit",
                         [(T1, "above", 40.0), (T2, "above", 30.0)])]),
    ]


def build(db) -> list[Question]:
    return [q for q, _ in planned(db)]
