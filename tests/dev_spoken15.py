"""Dev questions of the fifteenth stop's spoken and form-like class, in wordings of my own, on both demo chips:
dictated questions (no punctuation, numbers and metric names spoken: "t one", "tee two echo", "T 2 star", "zed x
ninety", "readout fidelity for state one", "ket zero", a chip id with its letters apart) and form-like ones (markdown
bullets, ``key: value`` lines, a pasted log or stack-trace line before the ask), each asking a top N, a spread, a
cross-chip statistic, a share, a compound filter or a correlation.

Every truth is a hand-written pymongo read of the raw demo documents (``tests.dev_ranks14.values``: the newest
completed, non-excluded value per qubit or coupling, 0 and NaN left out, fractions in %) and arithmetic written out
here with ``statistics``.  Rows marked ``fresh`` were written after the fix, to attack it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from tests.dev_ranks14 import STAT
from tests.dev_ranks14 import values as _stored
from tests.public_eval import CHIP, OTHER

CHIPS = (CHIP, OTHER)
# fidelities ``tests.dev_ranks14.values`` leaves as stored fractions (0-1): shown in %, by hand
_PERCENT = frozenset({"readout_fidelity_0", "readout_fidelity_1", "x180_gate_fidelity", "average_gate_fidelity"})


def values(db, chip: str, metric: str) -> dict[str, float]:
    """Subject -> newest value as the answer shows it (fractions in %)."""
    found = _stored(db, chip, metric)
    return {k: v * 100.0 for k, v in found.items()} if metric in _PERCENT else found


@dataclass(frozen=True)
class Spoken:
    """One dev question: its words, the tool that answers it and the arguments it must be called with."""

    id: str
    text: str
    tool: str
    args: dict = field(hash=False)
    fresh: bool = False

    @property
    def chip(self) -> str:
        return str(self.args.get("chip_id", CHIP))


def _rank(chip: str, metric: str, order: str, n: int) -> dict:
    return {"chip_id": chip, "metric_name": metric, "order": order, "n": n}


QUESTIONS: tuple[Spoken, ...] = (
    # top N, dictated
    Spoken("top-four-t-one", "which qubits have the top four t one values", "rank_metric",
           _rank(CHIP, "t1", "highest", 4)),
    Spoken("weakest-three-tee-one", "show me the weakest three qubits for tee one", "rank_metric",
           _rank(CHIP, "t1", "lowest", 3)),
    Spoken("two-best-t2-star-other", "what are the two best qubits by T 2 star on 144 q v 2", "rank_metric",
           _rank(OTHER, "t2_star", "highest", 2)),
    Spoken("zed-x-ninety", "which three couplings have the lowest zed x ninety fidelity", "rank_metric",
           _rank(CHIP, "zx90_gate_fidelity", "lowest", 3)),
    Spoken("half-dozen-x90", "give me half a dozen qubits with the best x ninety fidelity", "rank_metric",
           _rank(CHIP, "x90_gate_fidelity", "highest", 6)),
    Spoken("ket-zero", "lowest ket zero fidelity three qubits", "rank_metric",
           _rank(CHIP, "readout_fidelity_0", "lowest", 3)),
    Spoken("state-one", "the four worst qubits for readout fidelity for state one", "rank_metric",
           _rank(CHIP, "readout_fidelity_1", "lowest", 4)),
    # top N, form-like
    Spoken("bullets-top-five-other", "- metric: T1\n- chip: 144Qv2\n- want: top 5 qubits", "rank_metric",
           _rank(OTHER, "t1", "highest", 5)),
    Spoken("kv-lowest-three", "metric: t two echo\nhow many: 3\nwant: lowest", "rank_metric",
           _rank(CHIP, "t2_echo", "lowest", 3)),
    Spoken("log-then-shortest", "[2026-11-30 09:12:44] INFO scheduler run finished\n"
           "which five qubits have the shortest t one", "rank_metric", _rank(CHIP, "t1", "lowest", 5)),
    # spread
    Spoken("spread-t-one", "what is the spread of t one across the chip", "metric_spread",
           {"chip_id": CHIP, "metric_name": "t1", "lead": "std"}),
    Spoken("bullets-spread-other", "- chip: 144Qv2\n- metric: x ninety fidelity\n- want: spread", "metric_spread",
           {"chip_id": OTHER, "metric_name": "x90_gate_fidelity", "lead": "std"}),
    Spoken("std-tee-two-echo", "how widely does tee two echo vary on this chip give me the standard deviation",
           "metric_spread", {"chip_id": CHIP, "metric_name": "t2_echo", "lead": "std"}),
    # cross-chip
    Spoken("median-two-chips", "compare the median t one of the two chips", "compare_chips",
           {"metric_name": "t1", "statistic": "median"}),
    Spoken("mean-x-ninety", "which chip has the higher mean x ninety fidelity", "compare_chips",
           {"metric_name": "x90_gate_fidelity", "statistic": "mean"}),
    Spoken("trace-then-median", "File \"app.py\", line 12, in render\nKeyError: 't2_star'\n"
           "whats the median T 2 star per chip", "compare_chips", {"metric_name": "t2_star", "statistic": "median"}),
    Spoken("kv-mean-each", "metric: t two echo\nwant: mean on each chip", "compare_chips",
           {"metric_name": "t2_echo", "statistic": "mean"}),
    Spoken("share-each-chip", "which chip has more qubits with t one above fifty microseconds", "compare_chips",
           {"metric_name": "t1", "above": 50.0}),
    # percentage
    Spoken("fraction-t-one", "what fraction of qubits have t one above fifty microseconds", "filter_metric",
           {"chip_id": CHIP, "metric_name": "t1", "above": 50.0}),
    Spoken("percent-other", "percent of qubits on 144 q v 2 with t two echo below thirty micro seconds",
           "filter_metric", {"chip_id": OTHER, "metric_name": "t2_echo", "below": 30.0}),
    # compound filter
    Spoken("two-limits-spoken", "qubits with t one above forty micro seconds and t two echo above thirty",
           "filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
               {"metric_name": "t1", "above": 40.0}, {"metric_name": "t2_echo", "above": 30.0}]}),
    Spoken("bullets-two-limits", "- t one: above 40 us\n- x ninety fidelity: above 99 percent\n"
           "which qubits pass both", "filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
               {"metric_name": "t1", "above": 40.0}, {"metric_name": "x90_gate_fidelity", "above": 99.0}]}),
    # correlation
    Spoken("corr-spoken", "is t one correlated with t two echo on this chip", "correlate_metrics",
           {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_echo", "method": "pearson"}),
    Spoken("corr-state-zero-other", "correlation between x ninety fidelity and readout fidelity for state zero on "
           "144 q v 2", "correlate_metrics", {"chip_id": OTHER, "metric_a": "x90_gate_fidelity",
                                               "metric_b": "readout_fidelity_0", "method": "pearson"}),
    Spoken("log-then-spearman", "2026-11-30 08:00:00 WARN slow query\n"
           "how does t one relate to t two star across the chip spearman", "correlate_metrics",
           {"chip_id": CHIP, "metric_a": "t1", "metric_b": "t2_star", "method": "spearman"}),
    # written after the fix, to attack it
    Spoken("fresh-tee-ones", "okay so um which qubits have the five longest tee ones", "rank_metric",
           _rank(CHIP, "t1", "highest", 5), fresh=True),
    Spoken("fresh-t-dash-1", "T-1 spread on 64Qv3 standard deviation please", "metric_spread",
           {"chip_id": CHIP, "metric_name": "t1", "lead": "std"}, fresh=True),
    Spoken("fresh-form-chip-words", "Q: top 3 qubits\nMetric: T two star\nChip: sixty four q v three", "rank_metric",
           _rank(CHIP, "t2_star", "highest", 3), fresh=True),
    Spoken("fresh-equals-form", "* chip = 144Qv2\n* metric = x ninety\n* ask = bottom two qubits", "rank_metric",
           _rank(OTHER, "x90_gate_fidelity", "lowest", 2), fresh=True),
    Spoken("fresh-info-mean", "INFO 12:01:02 heartbeat ok\nwhat's the mean tee two echo on each chip",
           "compare_chips", {"metric_name": "t2_echo", "statistic": "mean"}, fresh=True),
    Spoken("fresh-error-percent", "ERROR: timeout while fetching\n"
           "how many percent of qubits have t one below thirty micro seconds", "filter_metric",
           {"chip_id": CHIP, "metric_name": "t1", "below": 30.0}, fresh=True),
    Spoken("fresh-zee-ex", "correlate zee ex ninety gate fidelity with zx ninety gate time across the couplings",
           "correlate_metrics", {"chip_id": CHIP, "metric_a": "zx90_gate_fidelity", "metric_b": "zx90_gate_time",
                                 "method": "pearson"}, fresh=True),
    Spoken("fresh-see-zee-other", "rank the three best couplings by see zee fidelity on one forty four q v two",
           "rank_metric", _rank(OTHER, "zx90_gate_fidelity", "highest", 3), fresh=True),
    Spoken("fresh-tee-two-star-median", "tee two star median on each chip", "compare_chips",
           {"metric_name": "t2_star", "statistic": "median"}, fresh=True),
    Spoken("fresh-state-zero-filter", "qubits where t one is over sixty micro seconds and readout fidelity for "
           "state zero is above ninety percent", "filter_metrics", {"chip_id": CHIP, "join": "and", "conditions": [
               {"metric_name": "t1", "above": 60.0}, {"metric_name": "readout_fidelity_0", "above": 90.0}]},
           fresh=True),
)


def ranked_truth(db, case: Spoken) -> list[tuple[str, float]]:
    """The N subjects at the end asked, with their values (ties broken by id)."""
    a = case.args
    found = values(db, case.chip, a["metric_name"])
    order = sorted(found.items(), key=lambda kv: (kv[1] if a["order"] == "lowest" else -kv[1],
                                                  [int(p) for p in kv[0].split("-")]))
    return order[:a["n"]]


def spread_truth(db, case: Spoken) -> float:
    return statistics.stdev(values(db, case.chip, case.args["metric_name"]).values())


def across_truth(db, case: Spoken) -> dict[str, float]:
    """Each chip's figure: the median, the mean, or the % of its qubits past the limit."""
    a, out = case.args, {}
    for chip in CHIPS:
        found = list(values(db, chip, a["metric_name"]).values())
        if "above" in a:
            out[chip] = 100.0 * sum(v > a["above"] for v in found) / len(found)
        else:
            out[chip] = statistics.median(found) if a["statistic"] == "median" else STAT[a["statistic"]](found)
    return out


def passing(db, case: Spoken) -> set[str]:
    """The qubits whose latest values meet every condition (filter_metric: one; filter_metrics: all)."""
    conditions = case.args.get("conditions") or [case.args]
    sets = []
    for c in conditions:
        found = values(db, case.chip, c["metric_name"])
        sets.append({q for q, v in found.items() if (v > c["above"] if "above" in c else v < c["below"])})
    return set.intersection(*sets)


def share_truth(db, case: Spoken) -> float:
    """The % of the chip's qubits with a value of the metric that meet the one condition."""
    found = values(db, case.chip, case.args["metric_name"])
    return 100.0 * len(passing(db, case)) / len(found)


def correlation(db, case: Spoken) -> float:
    """Pearson's r (or Spearman's rho, when asked) over the qubits with both values."""
    a, b = (values(db, case.chip, case.args[k]) for k in ("metric_a", "metric_b"))
    both = sorted(set(a) & set(b), key=lambda k: [int(p) for p in k.split("-")])
    xs, ys = [a[q] for q in both], [b[q] for q in both]
    if case.args["method"] == "spearman":
        xs, ys = _ranks(xs), _ranks(ys)
    return statistics.correlation(xs, ys)


def _ranks(found: list[float]) -> list[float]:
    """Each value's rank (1 = smallest), tied values sharing their mean rank."""
    ordered = sorted(found)
    return [(ordered.index(v) + 1 + len(ordered) - ordered[::-1].index(v)) / 2 for v in found]
