"""Dev questions, in wordings of my own, that take qubits as a set: a run written by its two ends ("Q10 through Q19",
"qubits 4-12", "from qubit 8 up to 15", "Q0..Q7", "between qubit 5 and qubit 9 inclusive") and qubits left out
("except Q05", "not counting Q3 and Q7", "leaving Q12 aside"), in a spread, a top N, a count past a limit, a share, a
compound filter and a correlation, on both demo chips.

Every truth is read here by hand: the newest completed, non-excluded value per qubit (:func:`tests.dev_compound12
.latest`, hand-written pymongo), restricted to the set written out below as a Python ``range`` or tuple, then the
statistic by :mod:`statistics`.  ``fresh`` marks the wordings written after the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from tests.dev_compound12 import latest
from tests.public_eval import CHIP, OTHER


@dataclass(frozen=True)
class Asked:
    id: str
    text: str
    chip: str
    tool: str  # the call the router makes
    what: str  # "std", "range", "top", "bottom", "count", "share", "both" (two limits), "pearson"
    metric: str
    qubits: tuple[int, ...] | None  # the run written, by hand; None: every qubit of the chip
    left_out: tuple[int, ...] = ()
    n: int = 0  # of a top / bottom N
    above: float | None = None  # the limit of a count or a share (display units), or of ``metric``
    second: tuple[str, float] | None = None  # a second metric and its lower limit ("and T2 echo above 30 us")
    fresh: bool = False


def values_in(db, chip: str, metric: str, asked: Asked) -> dict[int, float]:
    """Qubit -> newest value in display units, over the set asked (the run less the ones left out)."""
    every = latest(db, chip, metric, "qubit")
    keep = set(asked.qubits) if asked.qubits is not None else {int(q) for q in every}
    return {int(q): v for q, v in every.items() if v is not None and int(q) in keep and int(q) not in asked.left_out}


def truth(db, asked: Asked) -> float | list[int]:
    """The number (or the qubits of a top / bottom N) the answer must state, by hand."""
    vals = values_in(db, asked.chip, asked.metric, asked)
    if asked.what == "std":
        return statistics.stdev(vals.values())
    if asked.what == "range":
        return max(vals.values()) - min(vals.values())
    if asked.what in ("top", "bottom"):
        ordered = sorted(vals, key=lambda q: (vals[q], q), reverse=asked.what == "top")
        return ordered[:asked.n]
    if asked.what == "pearson":
        other = values_in(db, asked.chip, asked.second[0], asked) if asked.second else {}
        both = sorted(set(vals) & set(other))
        return statistics.correlation([vals[q] for q in both], [other[q] for q in both])
    assert asked.above is not None
    if asked.what == "both":
        assert asked.second is not None
        other = values_in(db, asked.chip, asked.second[0], asked)
        judged = set(vals) & set(other)
        return float(sum(1 for q in judged if vals[q] > asked.above and other[q] > asked.second[1]))
    hits = sum(1 for v in vals.values() if v > asked.above)
    return float(hits) if asked.what == "count" else 100.0 * hits / len(vals)


def _a(id_: str, text: str, tool: str, what: str, metric: str, qubits: range | tuple[int, ...] | None,
       chip: str = CHIP, **kw) -> Asked:
    return Asked(id_, text, chip, tool, what, metric, tuple(qubits) if qubits is not None else None, **kw)


QUESTIONS: tuple[Asked, ...] = (
    # spread over a run
    _a("s1", "What is the standard deviation of T1 over Q10 through Q19?", "metric_spread", "std", "t1", range(10, 20)),
    _a("s2", "std of T1 for qubits 4-12", "metric_spread", "std", "t1", range(4, 13)),
    _a("s3", "How spread out is T2 echo from qubit 8 up to 15?", "metric_spread", "std", "t2_echo", range(8, 16)),
    _a("s4", "Q0..Q7: what is the range of T1?", "metric_spread", "range", "t1", range(0, 8)),
    _a("s5", "On 144Qv2, the T1 standard deviation of the qubits numbered 20 to 29", "metric_spread", "std", "t1",
       range(20, 30), chip=OTHER),
    _a("s6", "Between qubit 5 and qubit 9 inclusive, how much does T1 vary (std)?", "metric_spread", "std", "t1",
       range(5, 10)),
    # spread with qubits left out
    _a("s7", "T1 standard deviation across the chip except Q05", "metric_spread", "std", "t1", None, left_out=(5,)),
    _a("s8", "What's the std of T1 if we leave Q12 aside?", "metric_spread", "std", "t1", None, left_out=(12,)),
    _a("s9", "std of T2 echo over Q30 to Q39, not counting Q33", "metric_spread", "std", "t2_echo", range(30, 40),
       left_out=(33,)),
    # top / bottom N
    _a("t1", "Top 3 T1 among Q20-Q29", "rank_metric", "top", "t1", range(20, 30), n=3),
    _a("t2", "Which 4 qubits between Q40 and Q55 have the lowest T1?", "rank_metric", "bottom", "t1", range(40, 56),
       n=4),
    _a("t3", "Lowest 5 T1 on 144Qv2 excluding Q3 and Q7", "rank_metric", "bottom", "t1", None, chip=OTHER,
       left_out=(3, 7), n=5),
    _a("t4", "Best 2 T2 echo values in qubits 100 through 120 on 144Qv2", "rank_metric", "top", "t2_echo",
       range(100, 121), chip=OTHER, n=2),
    # counts and shares past a limit
    _a("c1", "How many qubits from Q30 to Q39 have T1 above 50 us?", "filter_metric", "count", "t1", range(30, 40),
       above=50.0),
    _a("c2", "Count the qubits in Q0-Q31 with T2 echo above 40 us", "filter_metric", "count", "t2_echo",
       range(0, 32), above=40.0),
    _a("c3", "How many qubits apart from Q05 have T1 above 60 us?", "filter_metric", "count", "t1", None,
       left_out=(5,), above=60.0),
    _a("p1", "What percentage of qubits 20 to 29 have T1 above 40 us?", "filter_metric", "share", "t1",
       range(20, 30), above=40.0),
    _a("p2", "On 144Qv2, what share of Q50 through Q99 has T1 above 45 us?", "filter_metric", "share", "t1",
       range(50, 100), chip=OTHER, above=45.0),
    _a("p3", "Percentage of qubits with T1 above 50 us, ignoring Q10 through Q19", "filter_metric", "share", "t1",
       None, left_out=tuple(range(10, 20)), above=50.0),
    # compound filter
    _a("f1", "How many qubits in Q10 through Q40 have T1 above 40 us and T2 echo above 30 us?", "filter_metrics",
       "both", "t1", range(10, 41), above=40.0, second=("t2_echo", 30.0)),
    _a("f2", "Number of qubits other than Q3 with T1 above 45 us and T2 echo above 35 us on 144Qv2",
       "filter_metrics", "both", "t1", None, chip=OTHER, left_out=(3,), above=45.0, second=("t2_echo", 35.0)),
    # correlation
    _a("r1", "Correlation between T1 and T2 echo for qubits 0 to 31", "correlate_metrics", "pearson", "t1",
       range(0, 32), second=("t2_echo", 0.0)),
    # written after the fix, to attack it
    _a("x1", "What is the T1 spread (std) for Q16 thru Q23?", "metric_spread", "std", "t1", range(16, 24),
       fresh=True),
    _a("x2", "Give me the T1 std for the qubits 2 until 9", "metric_spread", "std", "t1", range(2, 10), fresh=True),
    _a("x3", "Top 2 T2 echo among qubits 32–47, barring Q40", "rank_metric", "top", "t2_echo", range(32, 48),
       left_out=(40,), n=2, fresh=True),
    _a("x4", "How many of Q48 to Q63 have T1 above 55 us?", "filter_metric", "count", "t1", range(48, 64),
       above=55.0, fresh=True),
    _a("x5", "What fraction of qubits, save for Q00 and Q01, have T1 above 50 us?", "filter_metric", "share", "t1",
       None, left_out=(0, 1), above=50.0, fresh=True),
    _a("x6", "Range of T1 over Q60..Q71 on 144Qv2", "metric_spread", "range", "t1", range(60, 72), chip=OTHER,
       fresh=True),
    _a("x7", "T1 std without Q07, please", "metric_spread", "std", "t1", None, left_out=(7,), fresh=True),
)
